// The live controller against a simulated cloud that lies (sim/cloudnodehost.h): a lease
// READY on a node whose agent never answers, one node handed out for every lease, a node
// of the controller's own fleet. Each is paid for; the controller gives each back, once,
// saying why in its audit, and starts nothing on a node that is not the lease's to give.
// Real gRPC to the real pool on loopback; time is the harness's ManualClock.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "autoscalerharness.h"
#include "fleetlink/leasesync.h"

using namespace meridian;
using namespace meridian::autoscalertest;

namespace {

// What a run of passes saw of each step: when it was first waiting on its node
// (provisioned or starting) and when it ended failed, in virtual ms.
struct StepTimes {
    std::map<int64_t, int64_t> waitingFromMs;
    std::map<int64_t, int64_t> failedAtMs;
};

StepTimes runPasses(Harness &h, int passes, int secondsEach)
{
    StepTimes times;
    for (int i = 0; i < passes; ++i) {
        h.controller->tick().ok();
        const int64_t now = h.clock.nowUnixMs();
        for (const JournalStep &s : h.steps()) {
            if (s.state == StepState::Provisioned || s.state == StepState::Starting)
                times.waitingFromMs.emplace(s.id, now);
            if (s.state == StepState::Failed)
                times.failedAtMs.emplace(s.id, now);
        }
        h.pass(secondsEach);
    }
    return times;
}

// The pool's books for the leases of these steps.
std::map<std::string, CloudLease> leasesOf(Harness &h, const std::vector<JournalStep> &steps)
{
    const auto books = fetchLeases(h.sim->controlAddress(), ClientSecurity{}, 5000);
    EXPECT_TRUE(books.ok()) << books.error().message;
    std::map<std::string, CloudLease> out;
    for (const JournalStep &s : steps)
        for (const CloudLease &l : books ? books.value().leases : std::vector<CloudLease>{})
            if (l.leaseId == s.leaseId)
                out[s.leaseId] = l;
    return out;
}

void printJournal(Harness &h)
{
    for (const JournalStep &s : h.steps())
        std::printf("step %lld %s lease %s node %s\n", static_cast<long long>(s.id),
                    std::string(stepStateName(s.state)).c_str(), s.leaseId.c_str(),
                    s.nodeId.c_str());
    const auto audit = h.journal->recentAudit(500);
    for (const AuditEntry &e : audit.value())
        std::printf("%lld %s | %s\n", static_cast<long long>(e.atUnixMs), e.what.c_str(),
                    e.why.c_str());
}

// Leases the controller gave back saying `why`, as its audit has them.
int givenBackSaying(Harness &h, const std::string &why)
{
    const auto audit = h.journal->recentAudit(500);
    int times = 0;
    for (const AuditEntry &e : audit.value())
        times += e.what.rfind("release lease", 0) == 0 && e.why.find(why) != std::string::npos;
    return times;
}

}  // namespace

TEST(AutoscalerLyingPool, ALeasedNodeThatNeverAnswersIsGivenBackWithinFiveMinutesAndSaid)
{
    Harness h(chatService());
    warmUp(h);
    h.sim->setCloudLie(CloudLie::SilentNodes);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));
    const StepTimes times = runPasses(h, 24, 30);  // 12 minutes, a pass every 30 s

    const std::vector<JournalStep> steps = h.steps();
    ASSERT_FALSE(times.waitingFromMs.empty()) << "no lease became ready";
    int givenBack = 0;
    for (const auto &[id, from] : times.waitingFromMs) {
        const auto failed = times.failedAtMs.find(id);
        if (failed == times.failedAtMs.end()) {
            EXPECT_LE(h.clock.nowUnixMs() - from, 5 * 60'000 + 60'000)
                << "step " << id << " waits on a silent node past five minutes";
            continue;
        }
        ++givenBack;
        EXPECT_LE(failed->second - from, 5 * 60'000 + 60'000) << "step " << id;
    }
    EXPECT_GE(givenBack, 1);
    // Each said once, naming the node, and each lease back in the pool.
    EXPECT_EQ(givenBackSaying(h, "has not answered for 5 min"), givenBack);
    for (const auto &[id, lease] : leasesOf(h, steps)) {
        if (times.failedAtMs.count(std::find_if(steps.begin(), steps.end(), [&](auto &s) {
                                       return s.leaseId == id;
                                   })->id))
            EXPECT_TRUE(lease.releasedUnixS.has_value()) << id << " still held";
    }
    EXPECT_EQ(h.controller->view().services[0].rentedReplicas, 0);
    // The offer is not ordered from again at once, and the notes say why.
    EXPECT_TRUE(h.audited("held back for 15 more min: its last lease was given back (its node"));
    if (HasFailure())
        printJournal(h);
}

TEST(AutoscalerLyingPool, ANodeHandedToSeveralLeasesServesOneAndTheOthersGoBack)
{
    Harness h(chatService());
    warmUp(h);
    h.sim->setCloudLie(CloudLie::OneNodeForEveryLease);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));  // three or four nodes' worth
    runPasses(h, 12, 30);
    const std::vector<JournalStep> steps = h.steps();
    std::map<std::string, int> servingOn;
    int refused = 0;
    for (const JournalStep &s : steps) {
        if (s.state == StepState::Serving)
            ++servingOn[s.nodeId];
        refused += s.state == StepState::Failed;
    }
    if (servingOn.size() != 1u) {
        ADD_FAILURE() << "one node, one step serving on it: " << servingOn.size() << " nodes";
        printJournal(h);
        return;
    }
    EXPECT_EQ(servingOn.begin()->second, 1);
    EXPECT_GE(refused, 1);
    EXPECT_EQ(givenBackSaying(h, "already holds"), refused);
    int held = 0;
    for (const auto &[id, lease] : leasesOf(h, steps))
        held += !lease.releasedUnixS.has_value();
    EXPECT_EQ(held, 1) << "every lease but the one serving goes back";
    if (HasFailure())
        printJournal(h);
}

TEST(AutoscalerLyingPool, ALeaseOfOneOfOurOwnNodesIsGivenBackAndNothingStartsOnIt)
{
    Harness h(chatService());
    warmUp(h);
    const std::string ownNode = h.sim->nodes().front().nodeId;
    h.sim->setCloudLie(CloudLie::OurOwnNode);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));
    runPasses(h, 8, 30);
    const std::vector<JournalStep> steps = h.steps();
    int refused = 0;
    for (const JournalStep &s : steps) {
        EXPECT_NE(s.state, StepState::Serving) << s.nodeId;
        EXPECT_NE(s.state, StepState::Starting) << s.nodeId;
        refused += s.state == StepState::Failed;
    }
    EXPECT_GE(refused, 1);
    EXPECT_EQ(givenBackSaying(h, "the pool leased " + ownNode + ", one of our own nodes"), refused);
    EXPECT_EQ(h.controller->view().services[0].localReplicas, 1) << "the steady one only";
}
