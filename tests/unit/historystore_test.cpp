// The console's history file: a minute written twice is stored once, the view analysts
// query adds up, and a foreign or damaged file is refused untouched.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <fstream>
#include <thread>

#include "alerts/alerttriagelog.h"
#include "history/historyschema.h"
#include "history/historystore.h"
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

TEST(HistoryStore, AFileFromThePreviousReleaseIsMigratedWithItsRollups)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    {
        // Schema 1 as the previous release wrote it: minutes only.
        SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec(R"(
            PRAGMA application_id = 1296388424;
            CREATE TABLE node (id INTEGER PRIMARY KEY, node_id TEXT NOT NULL UNIQUE,
                data_center TEXT NOT NULL, rack TEXT NOT NULL, hostname TEXT NOT NULL);
            CREATE TABLE card (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE,
                node INTEGER NOT NULL REFERENCES node(id), card_index INTEGER NOT NULL,
                vendor TEXT NOT NULL, model TEXT NOT NULL);
            CREATE TABLE usage_minute (card INTEGER NOT NULL REFERENCES card(id),
                minute_start_unix_s INTEGER NOT NULL, observed_seconds REAL NOT NULL,
                busy_seconds REAL NOT NULL, mean_utilization_percent REAL, energy_joules REAL,
                PRIMARY KEY (card, minute_start_unix_s)) WITHOUT ROWID;
            CREATE INDEX usage_minute_by_time ON usage_minute (minute_start_unix_s);
            CREATE VIEW v_usage_by_dc_day AS SELECT 1;
            INSERT INTO node VALUES (1, 'xm-1', 'xiamen', 'r1', 'xm-1');
            INSERT INTO card VALUES (1, 'GPU-a', 1, 0, 'nvidia', 'A100-SXM4-80GB');
            INSERT INTO usage_minute VALUES (1, 1782864000, 60, 30, 50, 600),
                                            (1, 1782864060, 60, 60, 90, 900),
                                            (1, 1782867600, 60, 0, 1, NULL);
            PRAGMA user_version = 1;
        )");
    }
    auto store = HistoryStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    EXPECT_EQ(store.value()->minuteCount(), 3);
    EXPECT_EQ(store.value()->lastMinute("xm-1"), 1782867600);
    store.value().reset();
    SQLite::Database db(path);
    EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(),
              static_cast<int>(historySchema().migrations.size()));
    EXPECT_EQ(db.execAndGet("SELECT count(*) FROM usage_hour").getInt(), 2);
    EXPECT_DOUBLE_EQ(db.execAndGet("SELECT busy_seconds FROM usage_day").getDouble(), 90);
    EXPECT_DOUBLE_EQ(db.execAndGet("SELECT energy_joules FROM usage_day").getDouble(), 1500);
    EXPECT_DOUBLE_EQ(db.execAndGet("SELECT busy_card_hours FROM v_usage_by_dc_day").getDouble(),
                     90 / 3600.0);
}

// Other writers' work runs on the store's thread: its failure comes back to the caller
// as the exception it was, and work that hands more work on does not wait for itself.
TEST(HistoryStore, WorkHandedToTheWriterThreadReturnsItsFailureAndMayNest)
{
    test::TempDir dir;
    auto store = HistoryStore::open(dir.file("history.db"));
    ASSERT_TRUE(store.ok()) << store.error().message;
    EXPECT_THROW(store.value()->runOnWriter(
                     [](SQLite::Database &db) { db.exec("INSERT INTO no_such_table VALUES (1)"); }),
                 SQLite::Exception);
    int nested = 0;
    store.value()->runOnWriter([&](SQLite::Database &) {
        store.value()->runOnWriter(
            [&](SQLite::Database &db) { nested = db.execAndGet("SELECT 7").getInt(); });
    });
    EXPECT_EQ(nested, 7);
    // The thread goes on writing usage after a failed piece of work.
    test::streamUsage(*store.value(), 3).join();
    ASSERT_TRUE(store.value()->flush().ok());
    EXPECT_EQ(store.value()->minuteCount(), 3 * 8);
}

// In a console the triage log writes on the history's writer thread while the usage
// minutes stream in; another console reading the file sees every action.
TEST(HistoryStore, TheTriageLogTakesTurnsOnTheStoresWriterThread)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    auto store = HistoryStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    auto log = AlertTriageLog::onWriter(*store.value());
    constexpr int64_t kJuly1 = test::kJuly1;
    std::thread usage = test::streamUsage(*store.value(), 200);
    for (int i = 0; i < 30; ++i) {
        TriageAction ack;
        ack.atUnixMs = kJuly1 * 1000 + i;
        ack.alertKey = "xid:xm-n1:" + std::to_string(i);
        ack.who = "ops:li";
        ASSERT_TRUE(log->record(ack).ok());
    }
    SilenceRule silence;
    silence.node = "xm-n1";
    silence.untilMs = kJuly1 * 1000 + 3'600'000;
    silence.by = "ops:li";
    ASSERT_TRUE(log->addSilence(silence, kJuly1 * 1000).ok());
    usage.join();
    ASSERT_TRUE(store.value()->flush().ok());
    EXPECT_EQ(store.value()->minuteCount(), 200 * 8);

    auto other = AlertTriageLog::open(path);  // another console's connection
    ASSERT_TRUE(other.ok()) << other.error().message;
    EXPECT_EQ(other.value()->actionsAfter(0)->size(), 30u);
    EXPECT_EQ(other.value()->activeSilences(kJuly1 * 1000 + 1)->size(), 1u);
}
