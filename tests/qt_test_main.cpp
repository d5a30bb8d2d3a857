// gtest main for Qt tests: a QApplication on the offscreen platform, so widgets and
// models run headless in CI.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include <memory>

namespace {

// Settings and data go to folders of each case's own, never the user's: one case's
// remembered choice (a grouping, a colouring) must not become another's starting point,
// as it did when tests shared Qt's test folder, whether the cases run in processes side
// by side or one after another in one process. Programs a case starts inherit the same
// folders.
class FoldersOfItsOwn : public testing::EmptyTestEventListener {
public:
    bool makeFresh()
    {
        auto home = std::make_unique<QTemporaryDir>();
        if (!home->isValid()) {
            fprintf(stderr, "qt_test_main: no temporary folder for settings: %s\n",
                    qPrintable(home->errorString()));
            return false;
        }
        for (const char *name :
             {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
            qputenv(name, QFile::encodeName(home->filePath(QString::fromLatin1(name))));
        // QSettings reads its folder once a process; QStandardPaths reads the variables.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           home->filePath(QStringLiteral("XDG_CONFIG_HOME")));
        m_home = std::move(home);
        return true;
    }
    void OnTestStart(const testing::TestInfo &) override
    {
        if (!makeFresh())
            ADD_FAILURE() << "no folders of its own for this case";
    }

private:
    std::unique_ptr<QTemporaryDir> m_home;
};

}  // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    auto *folders = new FoldersOfItsOwn;  // owned by gtest's listener list once appended
    if (!folders->makeFresh())
        return 2;
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    testing::UnitTest::GetInstance()->listeners().Append(folders);
    return RUN_ALL_TESTS();
}
