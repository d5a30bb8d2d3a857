// The scaling journal on a real history file: steps and the audit log survive a
// restart, a step killed half-way is found open and reconciled, a key is never reused.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <set>
#include <thread>

#include "autoscaler/scalingjournal.h"
#include "history/historyschema.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;

namespace {

using test::kNow;

JournalStep planned(const std::string &key)
{
    JournalStep step;
    step.service = "customer-service-chat";
    step.idempotencyKey = key;
    step.offerId = "cn-east-a100";
    return step;
}

}  // namespace

TEST(ScalingJournal, StepsAndTheAuditLogSurviveARestart)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    {
        auto journal = ScalingJournal::open(path);
        ASSERT_TRUE(journal.ok()) << journal.error().message;
        auto id = journal.value()->addStep(planned("plan-1-step-1"), "ops:li", "p95 rising", kNow);
        ASSERT_TRUE(id.ok()) << id.error().message;
        ASSERT_TRUE(journal.value()->moveStep(*id, StepState::Leasing, "", "", kNow + 1).ok());
        ASSERT_TRUE(
            journal.value()->moveStep(*id, StepState::Provisioned, "L-9", "", kNow + 2).ok());
        ASSERT_TRUE(journal.value()->moveStep(*id, StepState::Starting, "", "n1", kNow + 3).ok());
        auto done = journal.value()->addStep(planned("plan-0-step-1"), "auto", "burst", kNow);
        ASSERT_TRUE(journal.value()->moveStep(*done, StepState::Done, "L-1", "n0", kNow).ok());
        ASSERT_TRUE(journal.value()->audit({kNow, "ops:li", "approved plan 1", "p95 rising"}).ok());
        auto again = journal.value()->addStep(planned("plan-1-step-1"), "ops:li", "twice", kNow);
        ASSERT_FALSE(again.ok());
        EXPECT_NE(again.error().message.find("plan-1-step-1"), std::string::npos);
        EXPECT_FALSE(journal.value()->moveStep(999, StepState::Done, "", "", kNow).ok());
    }
    auto journal = ScalingJournal::open(path);
    ASSERT_TRUE(journal.ok());
    auto open = journal.value()->openSteps();
    ASSERT_TRUE(open.ok());
    ASSERT_EQ(open->size(), 1u);
    EXPECT_EQ((*open)[0].state, StepState::Starting);
    EXPECT_EQ((*open)[0].leaseId, "L-9");  // kept when a later move named only the node
    EXPECT_EQ((*open)[0].nodeId, "n1");
    EXPECT_EQ((*open)[0].updatedUnixMs, kNow + 3);
    EXPECT_EQ(journal.value()->recentSteps(10)->size(), 2u);
    auto audit = journal.value()->recentAudit(10);
    ASSERT_TRUE(audit.ok());
    ASSERT_EQ(audit->size(), 1u);
    EXPECT_EQ((*audit)[0].who, "ops:li");
}

TEST(ScalingJournal, AConsoleKilledMidStepIsReconciledOnTheNextStart)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    int written[2];
    ASSERT_EQ(pipe(written), 0);
    const pid_t child = fork();
    if (child == 0) {
        close(written[0]);
        auto journal = ScalingJournal::open(path);
        if (!journal)
            _exit(3);
        auto id = journal.value()->addStep(planned("plan-7-step-1"), "auto", "burst", kNow);
        if (!id || !journal.value()->moveStep(*id, StepState::Leasing, "", "", kNow).ok())
            _exit(4);
        const char ok = 1;
        if (write(written[1], &ok, 1) != 1)
            _exit(5);
        pause();  // "calling Lease" when the kill comes
        _exit(0);
    }
    close(written[1]);
    char ok = 0;
    ASSERT_EQ(read(written[0], &ok, 1), 1);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    close(written[0]);

    auto journal = ScalingJournal::open(path);
    ASSERT_TRUE(journal.ok()) << journal.error().message;
    auto open = journal.value()->openSteps();
    ASSERT_TRUE(open.ok());
    ASSERT_EQ(open->size(), 1u);
    EXPECT_EQ((*open)[0].state, StepState::Leasing);
    const ReconcileContext context{"meridian", kNow + 60'000};
    // The pool never heard of it: ask again with the same key.
    auto actions = reconcile(open.value(), {}, {}, context);
    ASSERT_EQ(actions.size(), 1u);
    EXPECT_EQ(actions[0].kind, RecoveryKind::Lease);
    // Or it had: adopt its lease, rent nothing more.
    const PoolLeaseView held{"L-3", "plan-7-step-1", "meridian", PoolLeaseState::Ready, {"n3"}, {}};
    actions = reconcile(open.value(), {held}, {}, context);
    ASSERT_EQ(actions.size(), 1u);
    EXPECT_EQ(actions[0].kind, RecoveryKind::Adopt);
    EXPECT_EQ(actions[0].leaseId, "L-3");
}

// In a console the journal writes on the history store's writer thread: steps are
// written while usage batches stream in from another thread, every write lands on that
// one thread, the connection goes back to the batches' synchronous mode, and a separate
// reader of the file sees the committed steps.
TEST(ScalingJournal, InAConsoleItWritesOnTheHistorysWriterThread)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    auto store = HistoryStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    std::thread::id writerThread;
    store.value()->runOnWriter(
        [&](SQLite::Database &) { writerThread = std::this_thread::get_id(); });
    ASSERT_NE(writerThread, std::this_thread::get_id());
    auto journal = ScalingJournal::onWriter(*store.value());
    std::set<std::thread::id> stepThreads;  // the observer runs where the step is written
    journal->setStepObserver(
        [&](int64_t, StepState) { stepThreads.insert(std::this_thread::get_id()); });
    std::thread usage = test::streamUsage(*store.value(), 200);
    std::vector<int64_t> ids;
    for (int i = 0; i < 40; ++i) {
        auto id = journal->addStep(planned("plan-1-step-" + std::to_string(i)), "ops:li",
                                   "p95 rising", kNow + i);
        ASSERT_TRUE(id.ok()) << id.error().message;
        ASSERT_TRUE(journal->moveStep(*id, StepState::Leasing, "", "", kNow + i).ok());
        ASSERT_TRUE(journal->audit({kNow + i, "ops:li", "approved", "p95 rising"}).ok());
        ids.push_back(*id);
    }
    usage.join();
    ASSERT_TRUE(store.value()->flush().ok());
    EXPECT_EQ(store.value()->minuteCount(), 200 * 8);
    EXPECT_EQ(stepThreads, std::set{writerThread});
    int synchronous = -1;
    store.value()->runOnWriter(
        [&](SQLite::Database &db) { synchronous = db.execAndGet("PRAGMA synchronous").getInt(); });
    EXPECT_EQ(synchronous, 1) << "the batches' connection was left in FULL";

    auto reader = ScalingJournal::open(path);  // another connection, as another console
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto open = reader.value()->openSteps();
    ASSERT_TRUE(open.ok());
    ASSERT_EQ(open->size(), ids.size());
    EXPECT_EQ(open->back().state, StepState::Leasing);
    EXPECT_EQ(reader.value()->recentAudit(100)->size(), ids.size());
}

// The daily shape's minutes in a controller's own journal: a file from the release before
// (schema 2) gains the table, minutes are kept per service, a minute written again
// replaces itself, and minutes before the kept span are dropped as new ones come.
TEST(ScalingJournal, DemandMinutesAreKeptPerServiceAndOldOnesDropped)
{
    test::TempDir dir;
    const std::string path = dir.file("journal.db");
    {
        const SqliteSchema &current = scalingJournalSchema();
        const SqliteSchema before{
            current.applicationId, current.what, {current.migrations[0], current.migrations[1]}};
        ASSERT_TRUE(openSqliteFile(path, before).ok());
    }
    auto journal = ScalingJournal::openOwn(path);
    ASSERT_TRUE(journal.ok()) << journal.error().message;
    for (int64_t m = 100; m < 110; ++m)
        ASSERT_TRUE(journal.value()->keepDemandMinute("chat", {m, 4.0 * m, 4}, 0).ok());
    ASSERT_TRUE(journal.value()->keepDemandMinute("rag", {105, 1.0, 1}, 0).ok());
    ASSERT_TRUE(journal.value()->keepDemandMinute("chat", {109, 8.0, 2}, 0).ok());  // again
    auto chat = journal.value()->demandMinutes("chat", 105);
    ASSERT_TRUE(chat.ok()) << chat.error().message;
    ASSERT_EQ(chat->size(), 5u);
    EXPECT_EQ(chat->front().index, 105);
    EXPECT_DOUBLE_EQ(chat->back().sum, 8.0);
    EXPECT_EQ(chat->back().samples, 2);

    ASSERT_TRUE(journal.value()->keepDemandMinute("chat", {110, 4.0, 4}, 108).ok());
    EXPECT_EQ(journal.value()->demandMinutes("chat", 0)->size(), 3u) << "108, 109 and 110";
    EXPECT_EQ(journal.value()->demandMinutes("rag", 0)->size(), 1u) << "another service's stay";
}
