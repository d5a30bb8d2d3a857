// Warm standby in the simulator: a replica started on a standby node serves within the
// warm start, the node taken is replaced through provisioning, the standby hours are
// billed whether taken or not, and the evaluation sets the policy with standby beside
// the policy without.
#include <gtest/gtest.h>

#include "replay/evaluation.h"
#include "replay/evaluationreport.h"
#include "replay/servingsim.h"
#include "steptrace.h"

using namespace meridian;

namespace {

StartupTimes withStandby(int nodes)
{
    StartupTimes startup;
    startup.standbyNodes = nodes;
    return startup;
}

TEST(WarmStandby, AReplicaOnAStandbyNodeServesWithinTheWarmStartAndTheNodeIsReplaced)
{
    const std::vector<TraceRequest> none;
    MemorySource source(none);
    // No owned replicas: every replica is rented; one standby node.
    ServingSim sim(source, {}, withStandby(1), 0, 1, 5.0);
    sim.runUntil(10);
    sim.setDesired(2, ReleaseOrder::SoonestPaidHourFirst);  // takes the standby node
    sim.runUntil(20);
    sim.setDesired(3, ReleaseOrder::SoonestPaidHourFirst);  // its replacement is not ready
    sim.runUntil(200);  // provisioning (60–150 s) has brought the replacement up
    sim.setDesired(4, ReleaseOrder::SoonestPaidHourFirst);
    sim.runUntil(400);
    const IntervalSignals s = sim.signals(15);
    EXPECT_EQ(s.ready, 4);
    const ServingSim::Totals totals = sim.finish();
    ASSERT_EQ(totals.startupS.size(), 3u);
    EXPECT_LE(totals.startupS[0], 45) << "weights on the standby node's disk";
    EXPECT_GE(totals.startupS[1], 90) << "provisioning and a cold start";
    EXPECT_LE(totals.startupS[2], 45) << "the replacement, provisioned meanwhile";
    // The initial replica, three started, each billed an hour; and the replacement
    // ordered at 200 s, standing by, billed its hour too.
    EXPECT_DOUBLE_EQ(totals.rentedBilledSeconds, 4 * 3600);
    EXPECT_DOUBLE_EQ(totals.standbyBilledSeconds, 3600);
}

TEST(WarmStandby, OwnedReplicasStartFromLocalWeightsToo)
{
    const std::vector<TraceRequest> none;
    MemorySource source(none);
    ServingSim sim(source, {}, withStandby(1), 4, 1, 5.0);
    sim.setDesired(3, ReleaseOrder::SoonestPaidHourFirst);
    const ServingSim::Totals totals = sim.finish();
    ASSERT_EQ(totals.startupS.size(), 2u);
    for (const double s : totals.startupS)
        EXPECT_LE(s, 45);
    EXPECT_DOUBLE_EQ(totals.rentedBilledSeconds, 0);
}

// Half-hour phases of 10, 30 and 10 requests a second: the step's start is what these are
// about, and its replicas' start is the same minutes on any length of trace.
constexpr int kPhaseMinutes = 30;

}  // namespace

TEST(WarmStandby, TheEvaluationReplaysThePolicyWithStandbyAtItsCost)
{
    const RequestTrace trace = test::stepTrace(10, 30, 800, kPhaseMinutes);
    MemorySource source(trace.requests);
    EvaluationOptions options;
    options.yardsticks = Yardsticks::none();  // Meridian's rows are what it is about
    // Enough standby for the step's whole order: 17 rented replicas at once.
    options.standbyNodes = 20;
    const auto run = evaluateScaling(source, "step", options);
    ASSERT_TRUE(run.ok()) << run.error().message;
    const EvaluationResult &plain = run->results[0];
    const EvaluationResult &standby = run->results[1];
    ASSERT_EQ(standby.autoscaler, "meridian standby");
    EXPECT_EQ(run->standbyNodes, 20);
    EXPECT_LT(standby.replicaStartS, 60) << "decision to serving within a minute";
    EXPECT_GT(plain.replicaStartS, 60);
    EXPECT_GT(standby.standbyCardHours, 0) << "standing by is paid for";
    EXPECT_GE(standby.rentedCardHours, standby.standbyCardHours);
    EXPECT_GE(standby.withinSloShare, plain.withinSloShare - 0.001);
}

// A schedule given with --standby is replayed both ways, so what warm standby could buy a
// plan can be checked: the same replicas, started from standby nodes within the warm start.
TEST(WarmStandby, AGivenScheduleIsAlsoReplayedStartingFromStandby)
{
    const RequestTrace trace = test::stepTrace(10, 30, 800, kPhaseMinutes);
    MemorySource source(trace.requests);
    EvaluationOptions options;
    options.yardsticks = Yardsticks::none();  // the schedule's rows are what it is about
    options.standbyNodes = 20;
    options.schedule.assign(3 * kPhaseMinutes, 8);
    std::fill(options.schedule.begin() + kPhaseMinutes,
              options.schedule.begin() + 2 * kPhaseMinutes, 24);
    options.scheduleName = "step.csv";
    const auto run = evaluateScaling(source, "step", options);
    ASSERT_TRUE(run.ok()) << run.error().message;
    const EvaluationResult *coldRow = rowNamed(*run, "schedule");
    const EvaluationResult *warmRow = rowNamed(*run, kStandbyScheduleRow);
    ASSERT_TRUE(coldRow && warmRow);
    const EvaluationResult &cold = *coldRow, &warm = *warmRow;
    EXPECT_GT(cold.replicaStartS, 60) << "provisioning and a cold start";
    EXPECT_LT(warm.replicaStartS, 60) << "started on standby nodes";
    EXPECT_EQ(cold.standbyCardHours, 0);
    EXPECT_GT(warm.standbyCardHours, 0) << "standing by is paid for";
    EXPECT_GT(warm.withinSloShare, cold.withinSloShare)
        << "the step's capacity serves sooner from standby";
    EXPECT_NE(evaluationTable(*run).find("schedule standby: the same schedule"), std::string::npos);
}
