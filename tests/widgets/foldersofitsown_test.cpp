// The Qt tests' main gives every case settings and data folders of its own: the console's
// cases run one after another in one process, and a choice one of them remembers (a
// grouping, a colouring) must not be the next one's starting point.
#include <gtest/gtest.h>

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace {

const QString kKey = QStringLiteral("test/remembered-by-an-earlier-case");

QString dataFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString earlierDataFolder;  // what the first case saw, for the second

}  // namespace

// The two cases run in this order: gtest runs a file's cases as they are written.
TEST(FoldersOfItsOwn, AnEarlierCaseRemembersAChoiceAndWritesData)
{
    QSettings().setValue(kKey, 42);
    QSettings().sync();
    EXPECT_EQ(QSettings().value(kKey).toInt(), 42);
    earlierDataFolder = dataFolder();
    ASSERT_TRUE(QDir().mkpath(earlierDataFolder));
    EXPECT_FALSE(earlierDataFolder.startsWith(QDir::homePath() + QStringLiteral("/.local")))
        << "a test writes into the user's own data folder";
}

TEST(FoldersOfItsOwn, ALaterCaseStartsWithoutThem)
{
    EXPECT_FALSE(QSettings().contains(kKey)) << "a choice remembered by an earlier case";
    if (!earlierDataFolder.isEmpty()) {  // run on its own, there was no earlier case
        EXPECT_NE(dataFolder(), earlierDataFolder);
    }
}
