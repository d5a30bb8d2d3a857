// gtest main for Qt tests: a QApplication on the offscreen platform, so widgets and
// models run headless in CI.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // Settings and data go to folders of this process's own, never the user's: ctest runs
    // tests side by side, and one test's remembered choice (a grouping, a colouring) must
    // not become another's starting point, as it did when they shared Qt's test folder.
    // Programs a test starts inherit the same folders.
    QTemporaryDir home;
    if (!home.isValid()) {
        fprintf(stderr, "qt_test_main: no temporary folder for settings: %s\n",
                qPrintable(home.errorString()));
        return 2;
    }
    for (const char *name :
         {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
        qputenv(name, QFile::encodeName(home.filePath(QString::fromLatin1(name))));
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
