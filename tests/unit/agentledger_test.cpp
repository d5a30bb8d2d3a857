// The agent's SQLite ledger: merging, survival across reopen, and refusing foreign or
// corrupt files without touching them.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "agent/agentledger.h"
#include "testsupport.h"

using namespace meridian;

TEST(AgentLedger, MinutesMergeAndSurviveReopenWithEvents)
{
    test::TempDir dir;
    {
        auto ledger = AgentLedger::open(dir.path());
        ASSERT_TRUE(ledger.ok()) << ledger.error().message;
        UsageMinute m{600, 0, "GPU-a", 20, 10, 50.0, 1000.0, "chat-support"};
        ASSERT_TRUE(ledger.value()->record({m}).ok());
        m.observedSeconds = 40;
        m.busySeconds = 40;
        m.meanUtilizationPercent = 80.0;
        m.service.clear();  // written after a restart, before the workload list was known
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
    EXPECT_EQ((*minutes)[0].service, "chat-support");
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
    ASSERT_TRUE(
        ledger.value()->record({{60, 0, "a", 60, 0, {}, {}}, {600, 0, "a", 60, 0, {}, {}}}).ok());
    ledger.value()->dropBefore(120);
    EXPECT_EQ(ledger.value()->oldestMinuteUnixS(), 600);
}

TEST(AgentLedger, KillNineWhileWritingLosesNothingCommitted)
{
    test::TempDir dir;
    int written[2];
    ASSERT_EQ(pipe(written), 0);
    const pid_t child = fork();
    if (child == 0) {
        close(written[0]);
        auto ledger = AgentLedger::open(dir.path());
        if (!ledger)
            _exit(3);
        for (int64_t minute = 60;; minute += 60) {
            std::vector<UsageMinute> batch;
            for (uint32_t card = 0; card < 8; ++card)
                batch.push_back({minute, card, "card-" + std::to_string(card), 60, 30, 50.0, 1.0});
            if (!ledger.value()->record(batch).ok())
                _exit(4);
            if (minute == 60 * 20) {
                const char committed = 1;  // twenty minutes are in: kill it any time now
                if (write(written[1], &committed, 1) != 1)
                    _exit(5);
            }
        }
    }
    close(written[1]);
    char committed = 0;
    ASSERT_EQ(read(written[0], &committed, 1), 1) << "the writer never committed";
    close(written[0]);
    kill(child, SIGKILL);  // while it goes on writing
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself";
    auto ledger = AgentLedger::open(dir.path());
    ASSERT_TRUE(ledger.ok()) << ledger.error().message;
    auto minutes = ledger.value()->since(0, 1'000'000);
    ASSERT_TRUE(minutes.ok());
    ASSERT_GE(minutes->size(), 20u * 8) << "a batch committed before the kill is gone";
    // Every committed batch is whole: all eight cards of each minute, nothing torn.
    EXPECT_EQ(minutes->size() % 8, 0u);
    for (const UsageMinute &m : minutes.value())
        EXPECT_DOUBLE_EQ(m.observedSeconds, 60);
}
