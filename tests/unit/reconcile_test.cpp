// Crash-safe execution: the journal reconciled with the pool and the agents after a
// crash at each step. Never a second lease for one step, never an orphan kept, never a
// replica left half-started; a pool with no capacity and a lease that never becomes
// ready end the step with a reason.
#include <gtest/gtest.h>

#include "scaling/reconcile.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using test::kNow;

ReconcileContext context()
{
    return {"meridian", kNow, 15 * 60'000};
}

JournalStep step(StepState state, std::string leaseId = {})
{
    return {7,  "chat",       "plan-12-step-1", state, "cn-east-a100", std::move(leaseId),
            {}, kNow - 60'000};
}

PoolLeaseView lease(PoolLeaseState state, std::string key = "plan-12-step-1")
{
    return {"L-9", std::move(key), "meridian", state, {"cloud-L-9-n1"}, {}};
}

}  // namespace

TEST(Reconcile, CrashBeforeOrAfterTheLeaseCallNeverRentsTwice)
{
    // Intent written, the call never reached the pool: ask again, same key.
    auto r = reconcile({step(StepState::Leasing)}, {}, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::Lease);
    // The pool took it, the journal did not hear back: adopt it, no second Lease.
    r = reconcile({step(StepState::Leasing)}, {lease(PoolLeaseState::Provisioning)}, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::Adopt);
    EXPECT_EQ(r[0].leaseId, "L-9");
    // Approved but not yet asked: the same, idempotently.
    r = reconcile({step(StepState::Approved)}, {lease(PoolLeaseState::Ready)}, {}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::Adopt);
}

TEST(Reconcile, CrashAroundTheReplicaStartsItOnceAndVerifiesIt)
{
    const std::vector<PoolLeaseView> ready = {lease(PoolLeaseState::Ready)};
    auto r = reconcile({step(StepState::Provisioned, "L-9")}, ready, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::StartReplica);
    EXPECT_EQ(r[0].nodeId, "cloud-L-9-n1");
    const ReplicaView starting{"cloud-L-9-n1", "plan-12-step-1", ReplicaState::Starting};
    r = reconcile({step(StepState::Starting, "L-9")}, ready, {starting}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::Wait);
    const ReplicaView serving{"cloud-L-9-n1", "plan-12-step-1", ReplicaState::Serving};
    r = reconcile({step(StepState::Starting, "L-9")}, ready, {serving}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::MarkServing);
    // A serving step holds its lease: it is neither done nor an orphan.
    r = reconcile({step(StepState::Serving, "L-9")}, ready, {serving}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::Hold);
    const ReplicaView failed{"cloud-L-9-n1", "plan-12-step-1", ReplicaState::Failed};
    r = reconcile({step(StepState::Starting, "L-9")}, ready, {failed}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::MarkFailed);
    // ... and the failed step's lease goes back.
    JournalStep over = step(StepState::Failed, "L-9");
    r = reconcile({over}, ready, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::Release);
}

TEST(Reconcile, NoCapacityAndALeaseThatNeverBecomesReadyEndWithAReason)
{
    PoolLeaseView soldOut = lease(PoolLeaseState::Failed);
    soldOut.message = "no capacity in cn-east";
    auto r = reconcile({step(StepState::Leasing)}, {soldOut}, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::MarkFailed);
    EXPECT_NE(r[0].why.find("no capacity"), std::string::npos);
    JournalStep slow = step(StepState::Provisioned, "L-9");
    r = reconcile({slow}, {lease(PoolLeaseState::Provisioning)}, {}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::Wait);
    slow.updatedUnixMs = kNow - 16 * 60'000;  // past the 15-minute limit
    r = reconcile({slow}, {lease(PoolLeaseState::Provisioning)}, {}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::GiveUp);
}

TEST(Reconcile, OrphansOfOursAreReleasedOthersAreLeftAlone)
{
    const PoolLeaseView orphan{"L-3", "plan-9-step-4", "meridian", PoolLeaseState::Ready, {}, {}};
    const PoolLeaseView theirs{"L-4", "x", "batch-team", PoolLeaseState::Ready, {}, {}};
    const PoolLeaseView gone{"L-5", "y", "meridian", PoolLeaseState::Released, {}, {}};
    const auto r = reconcile({step(StepState::Done, "L-9")},
                             {lease(PoolLeaseState::Ready), orphan, theirs, gone}, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::ReleaseOrphan);
    EXPECT_EQ(r[0].leaseId, "L-3");
}

TEST(Reconcile, AReleaseIsRepeatedUntilThePoolHasIt)
{
    auto r = reconcile({step(StepState::Releasing, "L-9")}, {lease(PoolLeaseState::Ready)}, {},
                       context());
    EXPECT_EQ(r[0].kind, RecoveryKind::Release);
    r = reconcile({step(StepState::Releasing, "L-9")}, {lease(PoolLeaseState::Released)}, {},
                  context());
    EXPECT_EQ(r[0].kind, RecoveryKind::MarkDone);
}

TEST(Reconcile, AReplicaThatStopsServingFailsItsStepButAnAgentThatDoesNotAnswerDoesNot)
{
    const std::vector<PoolLeaseView> ready = {lease(PoolLeaseState::Ready)};
    auto r = reconcile({step(StepState::Serving, "L-9")}, ready, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::MarkFailed);
    const ReplicaView silent{"cloud-L-9-n1", "plan-12-step-1", ReplicaState::Unknown};
    for (StepState state : {StepState::Serving, StepState::Starting}) {
        r = reconcile({step(state, "L-9")}, ready, {silent}, context());
        ASSERT_EQ(r.size(), 1u);
        EXPECT_EQ(r[0].kind, RecoveryKind::Wait);
    }
}

TEST(Reconcile, RejectedAndDoneStepsAskNothingOfAnyone)
{
    for (StepState state : {StepState::Rejected, StepState::Done})
        EXPECT_TRUE(reconcile({step(state)}, {}, {}, context()).empty());
}

TEST(Reconcile, AReleaseWaitsWhileTheLoadBalancerDrainsItsReplicas)
{
    // Stopped, or its node given back, only once the balancer sends it nothing: a
    // request routed to a replica already told to stop would fail.
    JournalStep local = step(StepState::Releasing);
    local.offerId = std::string(kLocalOffer);
    local.nodeId = "xm-r01-n3";
    const ReplicaView serving{"xm-r01-n3", "plan-12-step-1", ReplicaState::Serving};
    ReconcileContext draining = context();
    draining.draining = {local.id};
    auto r = reconcile({local}, {}, {serving}, draining);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::Wait);
    EXPECT_EQ(r[0].why, "draining at the load balancer");
    EXPECT_EQ(reconcile({local}, {}, {serving}, context())[0].kind, RecoveryKind::StopReplica);

    const JournalStep rented = step(StepState::Releasing, "L-9");
    r = reconcile({rented}, {lease(PoolLeaseState::Ready)}, {}, draining);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::Wait);
    EXPECT_EQ(reconcile({rented}, {lease(PoolLeaseState::Ready)}, {}, context())[0].kind,
              RecoveryKind::Release);
}

TEST(Reconcile, ALocalStepNeverTouchesThePoolAndStopsItsReplicaWhenReleasedOrFailed)
{
    JournalStep local = step(StepState::Approved);
    local.offerId = std::string(kLocalOffer);
    local.nodeId = "xm-r01-n3";
    auto r = reconcile({local}, {}, {}, context());
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].kind, RecoveryKind::StartReplica);
    EXPECT_EQ(r[0].nodeId, "xm-r01-n3");
    const ReplicaView serving{"xm-r01-n3", "plan-12-step-1", ReplicaState::Serving};
    local.state = StepState::Releasing;
    r = reconcile({local}, {}, {serving}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::StopReplica);
    r = reconcile({local}, {}, {}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::MarkDone);
    local.state = StepState::Failed;
    r = reconcile({local}, {}, {serving}, context());
    EXPECT_EQ(r[0].kind, RecoveryKind::StopReplica);
    // A lease with a local step's key is still nobody's: an orphan to give back.
    r = reconcile({local}, {lease(PoolLeaseState::Ready, "someone-else")}, {}, context());
    EXPECT_EQ(r.back().kind, RecoveryKind::ReleaseOrphan);
}
