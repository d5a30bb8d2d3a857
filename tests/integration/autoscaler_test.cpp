// The live autoscaler against meridian-sim over real loopback gRPC, with the journal in a
// real history file: a load step rents a cloud node, starts replicas on it and sees them
// serve; the console dies half-way and a new one finishes without renting twice; when the
// load is gone the node goes back at the end of its paid hour. Also: a pool that is sold
// out, and a lease that never becomes ready (what limits scaling: autoscalerlimits_test).
// Time is a ManualClock for everything: cold starts, billing hours, the simulator's
// sampling, the pool's provisioning and the agents' telemetry streams run when the test
// moves the clock, and the test then waits for the batches, not for real seconds.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <SQLiteCpp/Database.h>

#include <set>

#include "autoscaler/replicaplaces.h"
#include "autoscalerharness.h"
#include "fleetlink/leasesync.h"
#include "scaling/placement.h"

using namespace meridian;
using namespace meridian::autoscalertest;
using namespace std::chrono_literals;

TEST(Autoscaler, ALoadStepRentsANodeThatServesAndTheNodeGoesBackAtTheEndOfItsHour)
{
    Harness h(chatService());
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));  // 5.5 replicas' worth
    h.pass(5);
    ASSERT_TRUE(h.controller->tick().ok()) << h.controller->view().problem;
    ASSERT_GE(h.steps().size(), 1u);
    EXPECT_TRUE(h.audited("approved automatically"));

    // The console dies right after its first lease calls; a new one takes over and goes
    // on until every step serves and nothing more is planned.
    h.startConsole(ApprovalMode::Automatic);
    int planned = 0;
    for (int i = 0, quiet = 0; i < 40 && quiet < 3; ++i) {
        h.controller->tick().ok();
        const int steps = static_cast<int>(h.steps().size());
        quiet = steps == planned && h.stepsIn(StepState::Serving) == steps ? quiet + 1 : 0;
        planned = steps;
        h.pass(i < 3 ? 1 : 60);  // provisioning (real time), then cold starts (virtual)
    }
    ASSERT_EQ(h.stepsIn(StepState::Serving), planned) << h.controller->view().problem;
    // 20 req/s needs 7 replicas of 3.6 req/s at 80%: the one local and 3 or 4 rented
    // nodes of two replicas each; more would be a cascade.
    EXPECT_GE(planned, 3);
    EXPECT_LE(planned, 4);
    h.pass(1);
    h.controller->tick().ok();
    const ServiceScalingView view = h.controller->view().services[0];
    EXPECT_EQ(view.rentedReplicas, 2 * planned) << "two 4-card replicas a rented node";
    EXPECT_EQ(view.localReplicas, 1);
    EXPECT_TRUE(h.audited("serves on cloud-"));
    // Exactly one lease per step, even across the restart.
    std::set<std::string> leases;
    for (const JournalStep &s : h.steps())
        leases.insert(s.leaseId);
    EXPECT_EQ(static_cast<int>(leases.size()), planned);
    EXPECT_FALSE(leases.count(""));

    // The peak is over: the rented nodes are kept while they are paid for, then go back.
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 0.5));
    for (int i = 0; i < 12; ++i) {
        h.controller->tick().ok();
        h.pass(60);
    }
    EXPECT_EQ(h.stepsIn(StepState::Serving), planned) << "released before the paid hour ended";
    h.pass(40 * 60);
    for (int i = 0; i < 30 && h.stepsIn(StepState::Done) < planned; ++i) {
        h.controller->tick().ok();
        h.pass(90);  // inside the two minutes before a paid hour ends, at least once
    }
    EXPECT_EQ(h.stepsIn(StepState::Done), planned);
    EXPECT_TRUE(h.audited("surplus at the end of its paid hour"));
    // The nodes given back are let go at once: none still reads as connected, so none is
    // waited on and no replica of theirs is counted.
    const FleetSnapshot rented = h.controller->rentedFleet().snapshot(h.clock.nowUnixMs());
    std::string followed;
    for (size_t n = 0; n < rented.nodeConnection.size(); ++n)
        followed += fmt::format(" {}@{} ({})", rented.layout->nodeId[n],
                                rented.layout->nodeAddress[n], rented.nodeError[n]);
    EXPECT_EQ(rented.nodeConnection.size(), static_cast<size_t>(planned)) << followed;
    for (size_t n = 0; n < rented.nodeConnection.size(); ++n) {
        EXPECT_EQ(rented.nodeConnection[n], ConnectionState::Unreachable)
            << rented.layout->nodeId[n];
        EXPECT_EQ(rented.nodeError[n], "let go: no longer followed");
    }
    if (HasFailure()) {
        const auto entries = h.journal->recentAudit(500);
        for (const AuditEntry &e : entries.value())
            std::printf("%lld %s | %s | %s\n", static_cast<long long>(e.atUnixMs), e.who.c_str(),
                        e.what.c_str(), e.why.c_str());
    }
}

// Rented nodes leased at two times, one node's worth now surplus: the node whose paid
// hour ends first goes back at that hour's end, the newer ones' hours being paid for
// anyway. (Taking the newest first would let the oldest lease roll into a new paid hour
// before anything went back.) Which lease that is comes from the pool's stamps: how many
// passes each scale-up needed to serve moves them, and so does a loaded machine.
TEST(Autoscaler, TheSurplusLeaseWhosePaidHourEndsFirstGoesBackFirst)
{
    Harness h(chatService());
    warmUp(h);
    // Passes until the new demand has been planned for (more steps than before) and every
    // step serves, twice in a row.
    const auto serveAll = [&] {
        const size_t before = h.steps().size();
        for (int i = 0, quiet = 0; i < 40 && quiet < 2; ++i) {
            h.controller->tick().ok();
            quiet = h.steps().size() > before &&
                            h.stepsIn(StepState::Serving) == static_cast<int>(h.steps().size())
                        ? quiet + 1
                        : 0;
            h.pass(i < 3 ? 1 : 60);
        }
    };
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 7.0));
    serveAll();
    const size_t first = h.steps().size();
    ASSERT_GE(first, 1u);
    h.pass(20 * 60);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 24.0));
    serveAll();
    const std::vector<JournalStep> steps = h.steps();
    const int rented = h.stepsIn(StepState::Serving);
    ASSERT_GT(steps.size(), first);
    ASSERT_EQ(rented, static_cast<int>(steps.size()));
    // Demand for all but one node (two replicas of 3.6 req/s at 80% each), and the local
    // replica: one node is surplus.
    const int keep = 1 + 2 * (rented - 1);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", keep * 3.6 * 0.8 * 0.95));
    // The controller is asked every minute, as it would be live (every few seconds), so
    // no lease's last two paid minutes pass unseen. What goes back is judged against the
    // pool's own stamps, not against how many passes the scale-ups took to serve.
    const auto stateOf = [&](int64_t id) {
        for (const JournalStep &s : h.steps())
            if (s.id == id)
                return s.state;
        return StepState::Failed;
    };
    std::map<std::string, int64_t> paidEndOf;  // the serving rented leases, before a pass
    std::string wentBack;
    int64_t wentBackAtS = 0;
    for (int i = 0; i < 100 && wentBack.empty(); ++i) {
        const int64_t nowS = h.clock.nowUnixMs() / 1000;
        const auto books = fetchLeases(h.sim->controlAddress(), ClientSecurity{}, 5000);
        ASSERT_TRUE(books.ok()) << books.error().message;
        paidEndOf.clear();
        for (const JournalStep &s : steps)
            if (const CloudLease *lease = leaseOfStep(books.value(), s))
                paidEndOf[s.leaseId] = paidUntil(*lease, nowS);
        h.controller->tick().ok();
        for (const JournalStep &s : steps)
            if (stateOf(s.id) != StepState::Serving) {
                wentBack = s.leaseId;
                wentBackAtS = nowS;
            }
        if (wentBack.empty())
            h.pass(60);
    }
    ASSERT_FALSE(wentBack.empty()) << "the surplus node was never given back";
    ASSERT_EQ(paidEndOf.size(), steps.size());
    const int64_t soonest =
        std::min_element(paidEndOf.begin(), paidEndOf.end(), [](auto &a, auto &b) {
            return a.second < b.second;
        })->second;
    EXPECT_EQ(paidEndOf[wentBack], soonest)
        << wentBack << " went while another's hour ended sooner";
    EXPECT_LE(paidEndOf[wentBack] - wentBackAtS, 120) << "given back with paid time left";
    // The soonest end is the first scale-up's lease unless it had already rolled over.
    std::set<int64_t> ends;
    for (const auto &[lease, end] : paidEndOf)
        ends.insert(end);
    EXPECT_GT(ends.size(), 1u) << "the leases' hours all end together: the order is not tried";
    EXPECT_EQ(h.stepsIn(StepState::Serving) + 1, rented);
    for (int i = 0; i < 5; ++i) {  // and nothing more goes while the rest are paid for
        h.pass(60);
        h.controller->tick().ok();
    }
    EXPECT_EQ(h.stepsIn(StepState::Serving) + 1, rented);
}

TEST(Autoscaler, AssistedModeWaitsForOneClickAndARejectedPlanRentsNothing)
{
    Harness h(chatService());
    warmUp(h, ApprovalMode::Assisted);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));
    h.pass(5);
    h.controller->tick().ok();
    ASSERT_GE(h.stepsIn(StepState::Planned), 1);
    EXPECT_GT(h.controller->view().services[0].pendingCnyPerHour, 0);
    h.controller->tick().ok();
    EXPECT_EQ(h.stepsIn(StepState::Leasing), 0) << "nothing rented before approval";
    ASSERT_TRUE(h.controller->rejectPlan("chat", "ops-li", "budget review").ok());
    EXPECT_TRUE(h.audited("budget review"));
    EXPECT_EQ(h.stepsIn(StepState::Planned), 0);
    // The next pass proposes anew; approving it rents.
    h.controller->tick().ok();
    ASSERT_GE(h.stepsIn(StepState::Planned), 1)
        << h.controller->view().services[0].why << " / " << h.controller->view().problem;
    // Approval names the plan that was shown; an older one is refused.
    const int64_t shown = h.controller->view().services[0].planVersion;
    ASSERT_GT(shown, 0);
    const Status stale = h.controller->approvePlan("chat", "ops-li", shown - 1);
    ASSERT_FALSE(stale.ok());
    EXPECT_NE(stale.message().find("changed since it was shown"), std::string::npos);
    EXPECT_EQ(h.stepsIn(StepState::Approved), 0);
    ASSERT_TRUE(h.controller->approvePlan("chat", "ops-li", shown).ok());
    h.controller->tick().ok();
    EXPECT_GE(h.stepsIn(StepState::Leasing) + h.stepsIn(StepState::Provisioned), 1);
    EXPECT_TRUE(h.audited("approved plan " + std::to_string(shown) + " for chat"));
}

TEST(Autoscaler, APlanWaitingForApprovalIsReplacedWhenTheNeedOutgrowsIt)
{
    Harness h(chatService());
    warmUp(h, ApprovalMode::Assisted);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 6.0));
    h.pass(5);
    h.controller->tick().ok();
    const int first = h.stepsIn(StepState::Planned);
    ASSERT_GE(first, 1);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 30.0));
    h.pass(5);
    h.controller->tick().ok();
    // Replaced, not turned down: the journal and the audit log say superseded.
    EXPECT_EQ(h.stepsIn(StepState::Superseded), first);
    EXPECT_EQ(h.stepsIn(StepState::Rejected), 0);
    EXPECT_GT(h.stepsIn(StepState::Planned), first);
    EXPECT_TRUE(h.audited("superseded the plan for chat"));
    EXPECT_TRUE(h.audited("superseded by a larger plan"));
}

TEST(Autoscaler, APlanHeldByItsCapsIsNotProposedAgainAndAgain)
{
    InferenceService service = chatService();
    service.rent.maxCards = 16;  // two rented nodes, whatever the load
    Harness h(service);
    warmUp(h, ApprovalMode::Assisted);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 40.0));
    for (int i = 0; i < 4; ++i) {
        h.pass(5);
        h.controller->tick().ok();
    }
    EXPECT_EQ(h.stepsIn(StepState::Planned), 2);
    EXPECT_EQ(h.stepsIn(StepState::Rejected), 0);
    EXPECT_EQ(h.steps().size(), 2u);
}

TEST(Autoscaler, FreeCardsOfTheLocalPoolServeBeforeAnythingIsRented)
{
    Harness h(chatService(), 1, /*poolTheOtherNodes=*/true);
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 9.0));  // 3-4 replicas' worth
    h.pass(5);
    h.controller->tick().ok();
    ASSERT_FALSE(h.steps().empty()) << h.controller->view().problem;
    const auto settled = [&] {
        const int all = static_cast<int>(h.steps().size());
        return h.stepsIn(StepState::Serving) == all;
    };
    for (int i = 0, quiet = 0; i < 12 && quiet < 3; ++i) {
        h.controller->tick().ok();
        quiet = settled() ? quiet + 1 : 0;
        h.pass(60);
    }
    const std::vector<JournalStep> planned = h.steps();
    ASSERT_TRUE(settled());
    for (const JournalStep &s : planned) {
        EXPECT_EQ(s.offerId, kLocalOffer) << "rented while local cards were free";
        EXPECT_EQ(s.cnyPerHour, 0);
    }
    h.controller->tick().ok();
    EXPECT_EQ(h.controller->view().services[0].localReplicas, 1 + static_cast<int>(planned.size()));
    EXPECT_EQ(h.controller->view().services[0].rentedCards, 0);

    // The load goes: local replicas are stopped, a quarter at a time, not at an hour's end.
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 0.3));
    for (int i = 0; i < 30 && h.stepsIn(StepState::Done) < static_cast<int>(planned.size()); ++i) {
        h.controller->tick().ok();
        h.pass(60);
    }
    EXPECT_EQ(h.stepsIn(StepState::Done), static_cast<int>(planned.size()));
    EXPECT_TRUE(h.audited("surplus local capacity"));
    h.controller->tick().ok();
    EXPECT_EQ(h.controller->view().services[0].localReplicas, 1) << "the steady replica stays";
}

TEST(Autoscaler, ReleasesStillDrainingAreNotCountedAgainSoOneNeedStopsOnce)
{
    // Replicas that drain for 20 s after they are stopped (their serving: grace), and a
    // policy that may shed all of a surplus at once: the load falls to what three replicas
    // carry, and the pass that sees it releases two. The passes every 5 s while those
    // two still drain used to count them as ready and release the rest, leaving one
    // replica for three replicas' load, and then plan them again.
    InferenceService service = chatService();
    service.serving = ServingCommand{};
    service.serving->drainGraceSeconds = 20;
    Harness h(service, 1, /*poolTheOtherNodes=*/true);
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 8.0));
    // Settled: every step serving, and none added for three passes.
    int steps = -1;
    for (int i = 0, quiet = 0; i < 20 && quiet < 3; ++i) {
        h.controller->tick().ok();
        const int serving = h.stepsIn(StepState::Serving);
        quiet = serving == static_cast<int>(h.steps().size()) && serving == steps ? quiet + 1 : 0;
        steps = serving;
        h.pass(60);
    }
    ASSERT_EQ(steps, static_cast<int>(h.steps().size()))
        << h.controller->view().problem << "; " << h.controller->view().services[0].why;
    ASSERT_GE(steps, 2);
    // The console starts again with the policy that sheds: the same journal, its steps.
    ScalingPolicyConfig policy;
    policy.maxDownFraction = 1;
    policy.scaleDownWindowMs = 60'000;
    policy.noReversalMs = 60'000;
    h.m_servicePolicies["chat"] = policy;
    h.startConsole(ApprovalMode::Automatic);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 3.0));  // less than half of it
    h.pass(180);  // past the scale-down window of the busy minutes
    int released = 0;
    for (int i = 0; i < 12; ++i) {
        h.controller->tick().ok();
        const ServiceScalingView v = h.controller->view().services[0];
        released = h.stepsIn(StepState::Done) + h.stepsIn(StepState::Releasing);
        // The steady replica and the steps not being released: never fewer than asked.
        EXPECT_GE(1 + h.stepsIn(StepState::Serving), v.desiredReplicas)
            << "pass " << i << ": a release while another drained left too few: " << v.why;
        h.pass(5);
    }
    EXPECT_GT(released, 0) << "half the load releases some";
    EXPECT_LT(released, steps) << "not all of it";
    EXPECT_EQ(static_cast<int>(h.steps().size()), steps) << "stopped, then planned again";
}

TEST(Autoscaler, APlanThatReplacesAnotherUsesTheLocalCardsTheOldOneHadClaimed)
{
    Harness h(chatService(), 1, /*poolTheOtherNodes=*/true);
    warmUp(h, ApprovalMode::Assisted);
    const auto localPlanned = [&] {
        int n = 0;
        for (const JournalStep &s : h.steps())
            n += s.state == StepState::Planned && s.offerId == kLocalOffer;
        return n;
    };
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 9.0));
    h.pass(5);
    h.controller->tick().ok();
    const int first = localPlanned();
    ASSERT_GE(first, 1);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 40.0));
    h.pass(5);
    h.controller->tick().ok();
    ASSERT_TRUE(h.audited("superseded by a larger plan"));
    EXPECT_GE(localPlanned(), first) << "free local cards lost to the plan it replaced";
}

TEST(Autoscaler, ARestartedConsoleWaitsForTheReplicasToReportBeforeItPlans)
{
    Harness h(chatService());
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));
    h.pass(5);
    h.m_warmUpMs = 15'000;
    h.startConsole(ApprovalMode::Automatic);
    h.controller->tick().ok();
    EXPECT_TRUE(h.steps().empty())
        << "planned before hearing from the replicas: " << h.steps().front().reason << " at "
        << h.steps().front().createdUnixMs - h.clock.nowUnixMs();
    EXPECT_NE(h.controller->view().services[0].notes.front().find("starting up"),
              std::string::npos);
    h.pass(16);
    h.controller->tick().ok();
    EXPECT_FALSE(h.steps().empty());
}

// With the daily-shape forecast on, the controller keeps each finished minute of demand
// in the journal and a restarted console reads the kept days back: what yesterday
// reached at this time is forecast again at once, not after another day of learning.
TEST(Autoscaler, TheDailyShapeIsKeptInTheJournalAndOutlivesARestart)
{
    Harness h(chatService());
    h.m_forecastDays = 1;
    warmUp(h);
    const int64_t nowMinute = h.clock.nowUnixMs() / 60'000;
    h.keepYesterday(9.0, 30);
    h.startConsole(ApprovalMode::Automatic);  // reads them back
    h.controller->tick().ok();
    ASSERT_TRUE(h.controller->view().services[0].forecastRps);
    EXPECT_DOUBLE_EQ(*h.controller->view().services[0].forecastRps, 9.0);

    // Today's minutes are kept as they finish ...
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 2.0));
    for (int i = 0; i < 3; ++i) {
        h.pass(60);
        h.controller->tick().ok();
    }
    auto today = h.journal->demandMinutes("chat", nowMinute);
    ASSERT_TRUE(today.ok()) << today.error().message;
    ASSERT_GE(today->size(), 2u);
    EXPECT_GT(today->back().sum / today->back().samples, 0.0);
    // ... and a restart reads them with yesterday's.
    h.startConsole(ApprovalMode::Automatic);
    h.controller->tick().ok();
    ASSERT_TRUE(h.controller->view().services[0].forecastRps);
    EXPECT_DOUBLE_EQ(*h.controller->view().services[0].forecastRps, 9.0);
    EXPECT_TRUE(h.controller->view().problem.empty()) << h.controller->view().problem;
}

// Told to trust the daily shape, the live controller orders the capacity yesterday
// needed within the lead while today's demand is still low; by default it only keeps it.
TEST(Autoscaler, TrustedTheDailyShapeStartsCapacityBeforeTheDemandComes)
{
    Harness h(chatService());
    h.m_forecastDays = 1;
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 1.0));  // one replica's worth
    h.keepYesterday(9.0, 60);
    h.startConsole(ApprovalMode::Automatic);
    h.pass(5);
    h.controller->tick().ok();
    const ServiceScalingView kept = h.controller->view().services[0];
    ASSERT_TRUE(kept.forecastRps);
    EXPECT_DOUBLE_EQ(*kept.forecastRps, 9.0);
    EXPECT_EQ(kept.desiredReplicas, 1) << kept.why;
    EXPECT_TRUE(h.steps().empty());

    h.m_forecastOrdersAhead = true;
    h.startConsole(ApprovalMode::Automatic);
    h.pass(5);
    h.controller->tick().ok();
    const ServiceScalingView ahead = h.controller->view().services[0];
    EXPECT_GT(ahead.desiredReplicas, 1) << ahead.why;
    EXPECT_NE(ahead.why.find("ordered ahead"), std::string::npos) << ahead.why;
    EXPECT_FALSE(h.steps().empty()) << "steps are started while the demand is still low";
}

// A journal whose kept days cannot be read (here: their table is gone) is said at the
// start and on every pass that cannot keep a minute; scaling goes on without the shape.
TEST(Autoscaler, AJournalThatCannotKeepTheDailyShapeIsSaidAndScalingGoesOn)
{
    Harness h(chatService());
    h.m_forecastDays = 1;
    warmUp(h);
    h.history->runOnWriter([](SQLite::Database &db) { db.exec("DROP TABLE demand_minute"); });
    h.startConsole(ApprovalMode::Automatic);
    EXPECT_NE(h.controller->view().problem.find("daily shape starts again"), std::string::npos)
        << h.controller->view().problem;
    std::string problem;
    for (int i = 0; i < 3 && problem.empty(); ++i) {
        h.pass(60);
        h.controller->tick().ok();
        problem = h.controller->view().problem;
    }
    EXPECT_NE(problem.find("cannot keep chat's demand"), std::string::npos) << problem;
    EXPECT_EQ(h.controller->view().services[0].localReplicas, 1) << "the pass went on";
}

TEST(Autoscaler, ALeaseThatNeverBecomesReadyIsGivenBack)
{
    Harness h(chatService(), /*provisioningSeconds=*/100'000);
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 6.0));
    h.pass(5);
    h.controller->tick().ok();
    h.controller->tick().ok();
    ASSERT_GE(h.stepsIn(StepState::Leasing), 1);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 0.5));  // so nothing new is planned after
    h.pass(16 * 60);
    h.controller->tick().ok();
    h.controller->tick().ok();
    EXPECT_EQ(h.stepsIn(StepState::Leasing), 0);
    EXPECT_GE(h.stepsIn(StepState::Failed), 1);
    EXPECT_TRUE(h.audited("did not become ready in time"));
}
