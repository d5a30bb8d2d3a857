// The executor over fakes of the journal, the pool and the agents: a step goes from
// approved to done; the process dies at every point of the way (before a call, after
// the pool took it but before the answer came back) and a fresh executor finishes the
// step with exactly one lease and one replica; a lease stuck provisioning is given back.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "scaling/stepexecutor.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using test::kNow;

class FakeJournal final : public StepJournal {
public:
    Result<std::vector<JournalStep>> openSteps() override
    {
        std::vector<JournalStep> open;
        for (const auto &[id, s] : steps) {
            if (s.state != StepState::Done && s.state != StepState::Failed &&
                s.state != StepState::Rejected)
                open.push_back(s);
        }
        return open;
    }
    Status moveStep(int64_t id, StepState state, const std::string &leaseId,
                    const std::string &nodeId, int64_t now) override
    {
        JournalStep &s = steps.at(id);
        s.state = state;
        if (!leaseId.empty())
            s.leaseId = leaseId;
        if (!nodeId.empty())
            s.nodeId = nodeId;
        s.updatedUnixMs = now;
        return {};
    }
    std::map<int64_t, JournalStep> steps;
};

// Leases become ready after `readyAfter` listings. `dieBefore`/`dieAfter`: the next
// lease call fails before reaching the pool, or after the pool took it.
class FakePool final : public CapacityPoolApi {
public:
    Result<std::vector<PoolLeaseView>> leases() override
    {
        for (auto &[key, lease] : byKey) {
            if (lease.state == PoolLeaseState::Provisioning && ++age[key] > readyAfter)
                lease.state = PoolLeaseState::Ready;
        }
        std::vector<PoolLeaseView> out;
        for (const auto &[key, lease] : byKey)
            out.push_back(lease);
        return out;
    }
    Result<LeaseAnswer> lease(const std::string &key, const std::string &,
                              const std::string &by) override
    {
        if (std::exchange(dieBefore, false))
            return Error{"connection lost"};
        if (soldOut)
            return LeaseAnswer{true, "no nodes available"};
        if (!byKey.count(key)) {
            ++rented;
            const std::string node =
                !everyLeaseNames.empty() ? everyLeaseNames : "cloud-" + std::to_string(rented);
            byKey[key] = {"L-" + std::to_string(rented), key,    by,
                          PoolLeaseState::Provisioning,  {node}, {}};
        }
        if (std::exchange(dieAfter, false))
            return Error{"connection lost"};
        return LeaseAnswer{};
    }
    Status release(const std::string &leaseId) override
    {
        for (auto &[key, lease] : byKey) {
            if (lease.leaseId == leaseId)
                lease.state = PoolLeaseState::Released;
        }
        ++releases;
        return {};
    }
    std::map<std::string, PoolLeaseView> byKey;
    std::map<std::string, int> age;
    int readyAfter = 1;
    int rented = 0;
    int releases = 0;
    bool dieBefore = false;
    bool dieAfter = false;
    bool soldOut = false;
    std::string everyLeaseNames;  // set: every lease is given this one node (a lying pool)
};

class FakeReplicas final : public ReplicaApi {
public:
    Result<std::vector<ReplicaView>> replicas() override
    {
        std::vector<ReplicaView> out;
        for (const std::string &key : silentKeys)
            out.push_back({{}, key, ReplicaState::Unknown});
        for (auto &[key, r] : byKey) {
            if (r.state == ReplicaState::Starting && ++age[key] > 1)
                r.state = ReplicaState::Serving;
            out.push_back(r);
        }
        return out;
    }
    Status start(const std::string &node, const std::string &key, const std::string &) override
    {
        if (silentKeys.count(key))
            return Error{"node " + node + ": its agent does not answer"};
        if (!byKey.count(key)) {
            ++started;
            byKey[key] = {node, key, ReplicaState::Starting};
        }
        return {};
    }
    Status stop(const std::string &, const std::string &key) override
    {
        stopped += byKey.erase(key) ? 1 : 0;
        return {};
    }
    std::map<std::string, ReplicaView> byKey;
    std::map<std::string, int> age;
    int started = 0;
    int stopped = 0;
    std::set<std::string> silentKeys;  // steps whose node's agent never answers
};

FakeJournal approvedStep()
{
    FakeJournal journal;
    journal.steps[1] = {1,  "chat", "plan-3-step-1", StepState::Approved, "cn-east-a100", {},
                        {}, kNow};
    return journal;
}

bool settled(const FakeJournal &journal)
{
    const StepState state = journal.steps.at(1).state;
    return state == StepState::Serving || state == StepState::Done || state == StepState::Failed;
}

// Passes until the step serves or ends (or 20 passes), each with a fresh executor: the
// console restarted between every pass.
void runToEnd(FakeJournal &journal, FakePool &pool, FakeReplicas &replicas)
{
    for (int pass = 0; pass < 20 && !settled(journal); ++pass) {
        StepExecutor executor(journal, pool, replicas, "meridian");
        executor.advance(kNow + pass * 15'000).ok();  // a failed call: the next pass goes on
    }
}

}  // namespace

TEST(StepExecutor, AnApprovedStepEndsServingWithOneLeaseAndOneReplica)
{
    FakeJournal journal = approvedStep();
    FakePool pool;
    FakeReplicas replicas;
    runToEnd(journal, pool, replicas);
    const JournalStep &step = journal.steps[1];
    EXPECT_EQ(step.state, StepState::Serving);
    EXPECT_EQ(step.leaseId, "L-1");
    EXPECT_EQ(step.nodeId, "cloud-1");
    EXPECT_EQ(pool.rented, 1);
    EXPECT_EQ(replicas.started, 1);
}

TEST(StepExecutor, DyingBeforeOrAfterTheLeaseCallNeverRentsTwice)
{
    for (const bool before : {true, false}) {
        FakeJournal journal = approvedStep();
        FakePool pool;
        FakeReplicas replicas;
        (before ? pool.dieBefore : pool.dieAfter) = true;
        runToEnd(journal, pool, replicas);
        EXPECT_EQ(journal.steps[1].state, StepState::Serving) << (before ? "before" : "after");
        EXPECT_EQ(pool.rented, 1) << (before ? "before" : "after");
        EXPECT_EQ(replicas.started, 1);
    }
}

TEST(StepExecutor, ALeaseStuckProvisioningIsGivenBackAndTheStepFails)
{
    FakeJournal journal = approvedStep();
    FakePool pool;
    pool.readyAfter = 1'000'000;
    FakeReplicas replicas;
    StepExecutor executor(journal, pool, replicas, "meridian");
    for (int minute = 0; minute <= 20; ++minute)
        ASSERT_TRUE(executor.advance(kNow + minute * 60'000).ok());
    EXPECT_EQ(journal.steps[1].state, StepState::Failed);
    EXPECT_EQ(pool.releases, 1);
    EXPECT_EQ(pool.byKey.begin()->second.state, PoolLeaseState::Released);
    EXPECT_EQ(replicas.started, 0);
}

TEST(StepExecutor, AWallClockJumpOfAnHourTimesNothingOutTheMonotonicClockDoes)
{
    FakeJournal journal = approvedStep();
    FakePool pool;
    pool.readyAfter = 1'000'000;  // provisions for ever
    FakeReplicas replicas;
    StepExecutor executor(journal, pool, replicas, "meridian");
    for (int minute = 0; minute <= 14; ++minute) {
        const int64_t jump = minute >= 3 ? 3'600'000 : 0;  // set an hour ahead at minute 3
        ASSERT_TRUE(executor.advance(kNow + jump + minute * 60'000, {}, minute * 60'000).ok());
        ASSERT_EQ(journal.steps[1].state, StepState::Leasing) << "minute " << minute;
    }
    EXPECT_EQ(pool.releases, 0);
    for (int minute = 15; minute <= 17; ++minute)
        ASSERT_TRUE(executor.advance(kNow + 3'600'000 + minute * 60'000, {}, minute * 60'000).ok());
    EXPECT_EQ(journal.steps[1].state, StepState::Failed) << "15 minutes on the monotonic clock";
    EXPECT_EQ(pool.releases, 1);
}

TEST(StepExecutor, AReadyLeaseWhoseNodeNeverAnswersIsGivenBackAfterFiveMinutesSayingWhy)
{
    FakeJournal journal = approvedStep();
    FakePool pool;
    FakeReplicas replicas;
    replicas.silentKeys.insert("plan-3-step-1");
    StepExecutor executor(journal, pool, replicas, "meridian");
    std::vector<Recovery> givenUp;
    int64_t readyAtMs = -1;
    int64_t failedAtMs = -1;
    for (int64_t ms = 0; ms <= 8 * 60'000 && failedAtMs < 0; ms += 15'000) {
        auto done = executor.advance(kNow + ms, {}, ms);  // a failed start ends the pass
        if (done)
            for (const Recovery &r : done.value())
                if (r.kind == RecoveryKind::GiveUp)
                    givenUp.push_back(r);
        const StepState state = journal.steps[1].state;
        if (readyAtMs < 0 && state == StepState::Provisioned)
            readyAtMs = ms;
        if (state == StepState::Failed)
            failedAtMs = ms;
    }
    ASSERT_GE(readyAtMs, 0);
    ASSERT_GE(failedAtMs, 0) << "a paid node that never answers was kept";
    EXPECT_LE(failedAtMs - readyAtMs, 5 * 60'000 + 15'000 * 2);
    EXPECT_GT(failedAtMs - readyAtMs, 5 * 60'000 - 15'000);
    ASSERT_EQ(givenUp.size(), 1u);
    EXPECT_NE(givenUp[0].why.find("cloud-1 has not answered for 5 min"), std::string::npos)
        << givenUp[0].why;
    EXPECT_EQ(pool.releases, 1);
    EXPECT_EQ(replicas.started, 0);
}

TEST(StepExecutor, ALeaseNamingANodeAnotherLeaseHoldsOrOneOfOursIsGivenBack)
{
    for (const std::string node : {"cloud-shared", "xm-r01-n3"}) {
        FakeJournal journal = approvedStep();
        journal.steps[2] = journal.steps[1];
        journal.steps[2].id = 2;
        journal.steps[2].idempotencyKey = "plan-3-step-2";
        FakePool pool;
        pool.everyLeaseNames = node;
        FakeReplicas replicas;
        StepExecutor executor(journal, pool, replicas, "meridian");
        executor.setOwnNodes({"xm-r01-n3", "10.1.3.3:50051"});
        std::vector<std::string> whys;
        for (int pass = 0; pass < 10; ++pass) {
            auto done = executor.advance(kNow + pass * 15'000);
            ASSERT_TRUE(done.ok());
            for (const Recovery &r : done.value())
                if (r.kind == RecoveryKind::GiveUp)
                    whys.push_back(r.why);
        }
        if (node == "cloud-shared") {
            EXPECT_EQ(journal.steps[1].state, StepState::Serving) << "the first lease keeps it";
            EXPECT_EQ(journal.steps[2].state, StepState::Failed);
            ASSERT_EQ(whys.size(), 1u);
            EXPECT_EQ(whys[0],
                      "the pool leased cloud-shared, which lease L-1 already holds; "
                      "the lease is given back");
            EXPECT_EQ(replicas.started, 1);
        } else {
            EXPECT_EQ(journal.steps[1].state, StepState::Failed);
            EXPECT_EQ(journal.steps[2].state, StepState::Failed);
            ASSERT_EQ(whys.size(), 2u);
            EXPECT_EQ(whys[0],
                      "the pool leased xm-r01-n3, one of our own nodes; the lease is "
                      "given back");
            EXPECT_EQ(replicas.started, 0) << "nothing started on a node of our own";
        }
        EXPECT_EQ(pool.byKey["plan-3-step-2"].state, PoolLeaseState::Released);
    }
}

TEST(StepExecutor, APlannedStepWaitsForApproval)
{
    FakeJournal journal = approvedStep();
    journal.steps[1].state = StepState::Planned;
    FakePool pool;
    FakeReplicas replicas;
    StepExecutor executor(journal, pool, replicas, "meridian");
    ASSERT_TRUE(executor.advance(kNow).ok());
    EXPECT_EQ(pool.rented, 0);
    EXPECT_EQ(journal.steps[1].state, StepState::Planned);
}

TEST(StepExecutor, AServingStepKeepsItsLeaseUntilReleasedThenGivesItBack)
{
    FakeJournal journal = approvedStep();
    FakePool pool;
    FakeReplicas replicas;
    runToEnd(journal, pool, replicas);
    ASSERT_EQ(journal.steps[1].state, StepState::Serving);
    StepExecutor executor(journal, pool, replicas, "meridian");
    for (int pass = 0; pass < 5; ++pass)
        ASSERT_TRUE(executor.advance(kNow + 600'000 + pass * 15'000).ok());
    EXPECT_EQ(pool.releases, 0) << "a serving lease is not an orphan";
    ASSERT_TRUE(journal.moveStep(1, StepState::Releasing, {}, {}, kNow + 700'000).ok());
    ASSERT_TRUE(executor.advance(kNow + 700'000).ok());
    ASSERT_TRUE(executor.advance(kNow + 715'000).ok());
    EXPECT_EQ(journal.steps[1].state, StepState::Done);
    EXPECT_EQ(pool.releases, 1);
    EXPECT_EQ(pool.rented, 1);
}

TEST(StepExecutor, APoolWithNoCapacityFailsTheStepWithItsReason)
{
    FakeJournal journal = approvedStep();
    FakePool pool;
    pool.soldOut = true;
    FakeReplicas replicas;
    StepExecutor executor(journal, pool, replicas, "meridian");
    auto done = executor.advance(kNow);
    ASSERT_TRUE(done.ok());
    EXPECT_EQ(journal.steps[1].state, StepState::Failed);
    ASSERT_EQ(done.value().size(), 2u);
    EXPECT_EQ(done.value()[1].kind, RecoveryKind::MarkFailed);
    EXPECT_NE(done.value()[1].why.find("no nodes available"), std::string::npos);
    EXPECT_EQ(pool.rented, 0);
    // Nothing is asked of the pool again for it.
    ASSERT_TRUE(executor.advance(kNow + 15'000).ok());
    EXPECT_EQ(pool.rented, 0);
}

TEST(StepExecutor, ALocalStepStartsOnItsNodeWithoutALeaseAndStopsWhenReleased)
{
    FakeJournal journal;
    journal.steps[1] = {
        1,           "chat", "plan-4-step-1", StepState::Approved, std::string(kLocalOffer), {},
        "xm-r01-n3", kNow};
    FakePool pool;
    FakeReplicas replicas;
    runToEnd(journal, pool, replicas);  // a fresh executor every pass: crash-safe
    EXPECT_EQ(journal.steps[1].state, StepState::Serving);
    EXPECT_EQ(replicas.started, 1);
    EXPECT_EQ(replicas.byKey.begin()->second.nodeId, "xm-r01-n3");
    EXPECT_EQ(pool.rented, 0);
    ASSERT_TRUE(journal.moveStep(1, StepState::Releasing, {}, {}, kNow + 600'000).ok());
    for (int pass = 0; pass < 3; ++pass) {
        StepExecutor executor(journal, pool, replicas, "meridian");
        ASSERT_TRUE(executor.advance(kNow + 600'000 + pass * 15'000).ok());
    }
    EXPECT_EQ(journal.steps[1].state, StepState::Done);
    EXPECT_EQ(replicas.stopped, 1);
    EXPECT_EQ(pool.releases, 0);
}
