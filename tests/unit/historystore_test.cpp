// The console's history file: a minute written twice is stored once, the view analysts
// query adds up, and a foreign or damaged file is refused untouched.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <fstream>

#include "store/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;

TEST(HistoryStore, TheSameMinuteTwiceIsStoredOnceAndViewsAddUp)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    {
        auto store = HistoryStore::open(path);
        ASSERT_TRUE(store.ok()) << store.error().message;
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 8, 1'700'000'040, 10, 30, 18'000.0));
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 8, 1'700'000'040, 10, 45, 18'000.0));  // a re-sync
        store.value()->submit(
            test::a100Minutes("wh-1", "wuhu", 4, 1'700'000'040, 60, 60, 18'000.0));
        ASSERT_TRUE(store.value()->flush().ok());
        EXPECT_EQ(store.value()->minuteCount(), 8 * 10 + 4 * 60);
        EXPECT_EQ(store.value()->lastMinute("xm-1"), 1'700'000'040 + 9 * 60);
        EXPECT_EQ(store.value()->lastMinute("nobody"), 0);
    }
    SQLite::Database db(path);
    SQLite::Statement view(db,
                           "SELECT data_center, cards, observed_card_hours, busy_card_hours "
                           "FROM v_usage_by_dc_day ORDER BY data_center");
    ASSERT_TRUE(view.executeStep());
    EXPECT_EQ(view.getColumn(0).getString(), "wuhu");
    EXPECT_EQ(view.getColumn(1).getInt(), 4);
    EXPECT_DOUBLE_EQ(view.getColumn(2).getDouble(), 4.0);  // 4 cards × 60 minutes
    EXPECT_DOUBLE_EQ(view.getColumn(3).getDouble(), 4.0);
    ASSERT_TRUE(view.executeStep());
    EXPECT_EQ(view.getColumn(0).getString(), "xiamen");
    EXPECT_DOUBLE_EQ(view.getColumn(2).getDouble(), 80 / 60.0);
    EXPECT_DOUBLE_EQ(view.getColumn(3).getDouble(),
                     80 * 45 / 3600.0);  // the re-sync replaced, not added
}

TEST(HistoryStore, ForeignOrDamagedFilesAreRefusedUntouched)
{
    test::TempDir dir;
    const std::string notes = dir.file("notes.db");
    std::ofstream(notes) << "quarterly notes, not a database\n";
    auto store = HistoryStore::open(notes);
    ASSERT_FALSE(store.ok());
    EXPECT_NE(store.error().message.find(notes), std::string::npos);
    EXPECT_EQ(test::readFile(notes), "quarterly notes, not a database\n");

    const std::string other = dir.file("other.db");
    {
        SQLite::Database db(other, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
    }
    auto foreign = HistoryStore::open(other);
    ASSERT_FALSE(foreign.ok());
    EXPECT_NE(foreign.error().message.find("not a Meridian history file"), std::string::npos);
}
