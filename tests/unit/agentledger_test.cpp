// The agent's SQLite ledger: merging, survival across reopen, and refusing foreign or
// corrupt files without touching them.
#include <gtest/gtest.h>

#include <fstream>

#include "store/agentledger.h"
#include "testsupport.h"

using namespace meridian;

TEST(AgentLedger, MinutesMergeAndSurviveReopenWithEvents)
{
    test::TempDir dir;
    {
        auto ledger = AgentLedger::open(dir.path());
        ASSERT_TRUE(ledger.ok()) << ledger.error().message;
        UsageMinute m{600, 0, "GPU-a", 20, 10, 50.0, 1000.0};
        ASSERT_TRUE(ledger.value()->record({m}).ok());
        m.observedSeconds = 40;
        m.busySeconds = 40;
        m.meanUtilizationPercent = 80.0;
        ASSERT_TRUE(ledger.value()->record({m}).ok());
        EventLog log(100, ledger->get());
        log.append(Event{});
        log.append(Event{});
    }
    auto ledger = AgentLedger::open(dir.path());
    ASSERT_TRUE(ledger.ok());
    auto minutes = ledger.value()->since(0, 10);
    ASSERT_TRUE(minutes.ok());
    ASSERT_EQ(minutes->size(), 1u);
    EXPECT_DOUBLE_EQ((*minutes)[0].observedSeconds, 60);
    EXPECT_DOUBLE_EQ((*minutes)[0].busySeconds, 50);
    EXPECT_DOUBLE_EQ(*(*minutes)[0].meanUtilizationPercent, (50.0 * 20 + 80.0 * 40) / 60);
    EXPECT_DOUBLE_EQ(*(*minutes)[0].energyJoules, 2000);
    EventLog log(100, ledger->get());
    EXPECT_EQ(log.append(Event{}), 3u);  // sequences continue across the restart
}

TEST(AgentLedger, ForeignAndCorruptFilesAreNamedAndLeftUntouched)
{
    test::TempDir dir;
    const std::string path = dir.file("agent.db");
    {
        std::ofstream out(path);
        out << "this is not a database, it is somebody's notes\n";
    }
    auto ledger = AgentLedger::open(dir.path());
    ASSERT_FALSE(ledger.ok());
    EXPECT_NE(ledger.error().message.find(path), std::string::npos) << ledger.error().message;
    EXPECT_NE(ledger.error().message.find("untouched"), std::string::npos);
    EXPECT_EQ(test::readFile(path), "this is not a database, it is somebody's notes\n");
}

TEST(AgentLedger, RetentionDropsOldMinutes)
{
    test::TempDir dir;
    auto ledger = AgentLedger::open(dir.path());
    ASSERT_TRUE(ledger.ok());
    ASSERT_TRUE(ledger.value()->record({{60, 0, "a", 60, 0, {}, {}}, {600, 0, "a", 60, 0, {}, {}}}).ok());
    ledger.value()->dropBefore(120);
    EXPECT_EQ(ledger.value()->oldestMinuteUnixS(), 600);
}
