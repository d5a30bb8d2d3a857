// The scaling policy on crafted load: steady, a step, a burst, a fall; capacity still
// starting counts; the latency guard rail; bounds. Virtual time, one decision per 15 s.
#include <gtest/gtest.h>

#include <fstream>

#include "replay/replayscalers.h"
#include "scaling/dailyprofile.h"
#include "scaling/scalingpolicy.h"
#include "testsupport.h"

using namespace meridian;

namespace {

constexpr int64_t kStepMs = 15'000;

// The crafted loads below are computed by hand at 80% occupancy, without headroom or
// hysteresis (the defaults today; a policy file may change them).
const ScalingPolicyConfig kConfig = [] {
    ScalingPolicyConfig c;
    c.targetOccupancy = 0.8;
    c.upHeadroom = 0;
    c.downHysteresis = 0;
    return c;
}();

// Drives the policy as the controller does: a sample every 15 s, the decision applied at
// once (replicas become ready after `readyAfterMs`).
class Controller {
public:
    Controller(int replicas, double replicaRps, int64_t readyAfterMs = 120'000,
               ScalingPolicyConfig config = kConfig)
        : m_config(config), m_ready(replicas), m_readyAfterMs(readyAfterMs)
    {
        m_input.replicaRps = replicaRps;
        m_input.minReplicas = 1;
        m_input.maxReplicas = 100;
        m_input.latencyObjectiveSeconds = 5;
    }
    // One interval at `rps` (and `waiting` queued); returns the decision.
    ScalingDecision step(double rps, double waiting = 0, std::optional<double> ttft = {})
    {
        m_nowMs += kStepMs;
        // Ordered replicas become ready after their start-up time.
        for (auto it = m_starting.begin(); it != m_starting.end();) {
            if (*it <= m_nowMs) {
                ++m_ready;
                it = m_starting.erase(it);
            } else {
                ++it;
            }
        }
        m_input.nowMs = m_nowMs;
        m_input.history.push_back({m_nowMs, rps, waiting, 0, ttft, m_ready});
        m_input.readyReplicas = m_ready;
        m_input.startingReplicas = static_cast<int>(m_starting.size());
        const ScalingDecision d = decideReplicas(m_input, m_config);
        const int current = m_ready + static_cast<int>(m_starting.size());
        for (int i = current; i < d.desiredReplicas; ++i)
            m_starting.push_back(m_nowMs + m_readyAfterMs);
        if (d.desiredReplicas > current) {
            m_input.lastScaleUpMs = m_nowMs;
            ++actions;
        }
        if (d.desiredReplicas < current) {
            int drop = current - d.desiredReplicas;
            while (drop > 0 && !m_starting.empty()) {
                m_starting.pop_back();
                --drop;
            }
            m_ready -= drop;
            ++actions;
        }
        return d;
    }
    void setUsualRps(std::optional<double> rps) { m_input.usualRps = rps; }
    int capacity() const { return m_ready + static_cast<int>(m_starting.size()); }
    int ready() const { return m_ready; }
    int64_t nowMs() const { return m_nowMs; }
    int actions = 0;

private:
    ScalingPolicyConfig m_config;
    PolicyInput m_input;
    int m_ready;
    std::vector<int64_t> m_starting;
    int64_t m_readyAfterMs;
    int64_t m_nowMs = 1'700'000'000'000;
};

}  // namespace

TEST(ScalingPolicy, SteadyLoadHoldsAtTheTargetOccupancy)
{
    Controller c(10, 1.0);  // one replica serves 1 req/s inside the objective
    for (int i = 0; i < 100; ++i)
        c.step(8.0);  // 8 req/s at 80% occupancy: exactly 10 replicas
    EXPECT_EQ(c.capacity(), 10);
    EXPECT_EQ(c.actions, 0);
}

TEST(ScalingPolicy, ALoadStepIsAnsweredAtTheFirstDecisionAndNeverCascades)
{
    Controller c(10, 1.0);
    for (int i = 0; i < 40; ++i)
        c.step(8.0);
    const ScalingDecision first = c.step(24.0);  // three times the load
    EXPECT_EQ(first.reason, ScalingReason::Panic) << first.why;
    EXPECT_EQ(first.desiredReplicas, 30);
    // While the new replicas start (2 minutes), nothing more is ordered.
    for (int i = 0; i < 8; ++i) {
        const ScalingDecision d = c.step(24.0);
        EXPECT_EQ(d.desiredReplicas, 30) << d.why;
    }
    EXPECT_EQ(c.ready(), 30);
    EXPECT_EQ(c.actions, 1);
}

TEST(ScalingPolicy, AStepBelowPanicIsOrderedWholeNotAReplicaAtATimeAsTheMeanClimbs)
{
    Controller c(10, 1.0);
    for (int i = 0; i < 40; ++i)
        c.step(8.0);
    // 9.6 req/s needs 12 replicas: under the panic factor, so the two-minute mean sees
    // it first, needing 11. The order is sized on the load as it now is.
    const ScalingDecision first = c.step(9.6);
    EXPECT_EQ(first.reason, ScalingReason::Up) << first.why;
    EXPECT_EQ(first.desiredReplicas, 12) << first.why;
    EXPECT_NE(first.why.find("9.60 req/s over the last 15 s needs 12"), std::string::npos)
        << first.why;
    for (int i = 0; i < 16; ++i)
        c.step(9.6);
    EXPECT_EQ(c.capacity(), 12);
    EXPECT_EQ(c.actions, 1);
}

TEST(ScalingPolicy, AFallIsFollowedSlowlyAndInBoundedStepsNeverRightAfterAScaleUp)
{
    Controller c(10, 1.0, 60'000);
    for (int i = 0; i < 40; ++i)
        c.step(8.0);
    c.step(16.0);  // up to 20
    ASSERT_EQ(c.capacity(), 20);
    int lowest = 20;
    int64_t firstDownMs = 0;
    const int64_t upMs = c.nowMs();
    for (int i = 0; i < 240; ++i) {  // an hour back at 4 req/s
        const ScalingDecision d = c.step(4.0);
        if (d.reason == ScalingReason::Down && !firstDownMs)
            firstDownMs = c.nowMs();
        ASSERT_GE(d.desiredReplicas, lowest - 5) << "sheds at most a quarter at once";
        lowest = std::min(lowest, d.desiredReplicas);
    }
    EXPECT_GE(firstDownMs - upMs, 600'000) << "no reversal within ten minutes";
    EXPECT_EQ(c.capacity(), 5);  // 4 req/s at 80%
}

// A scale-down window of an hour is read whole by the replay as by the live controller
// (which keeps its signals for the policy's longest window): capacity paid by the hour
// whose hours end is kept while the hour's busiest moment needs it.
TEST(ScalingPolicy, TheReplayReadsAScaleDownWindowOfAnHourWhole)
{
    ScalingPolicyConfig config = kConfig;
    config.scaleDownWindowMs = 3'600'000;
    config.forecastDays = 0;
    MeridianScaler scaler(1.0, 5, 1, 15, config);
    IntervalSignals busy;
    busy.arrivalRps = 16;  // 20 replicas at 80%
    busy.ready = 20;
    busy.paidHourEndsInS.assign(20, 0.0);  // every paid hour ends now: each may go
    IntervalSignals quiet = busy;
    quiet.arrivalRps = 4;
    double nowS = 0;
    int replicas = scaler.desired(busy, nowS += 15, 20);
    ASSERT_EQ(replicas, 20);
    for (int i = 0; i < 200; ++i) {  // 50 minutes back at 4 req/s
        quiet.ready = replicas;
        quiet.paidHourEndsInS.assign(static_cast<size_t>(replicas), 0.0);
        replicas = scaler.desired(quiet, nowS += 15, replicas);
        ASSERT_EQ(replicas, 20) << "the busy moment " << (nowS - 15) / 60
                                << " minutes ago needs them";
    }
    for (int i = 0; i < 60; ++i) {  // past the hour
        quiet.ready = replicas;
        quiet.paidHourEndsInS.assign(static_cast<size_t>(replicas), 0.0);
        replicas = scaler.desired(quiet, nowS += 15, replicas);
    }
    EXPECT_EQ(replicas, 5);  // 4 req/s at 80%
}

TEST(ScalingPolicy, AShortBurstDoesNotMakeTheCapacityFlap)
{
    Controller c(10, 1.0, 60'000);
    for (int i = 0; i < 40; ++i)
        c.step(8.0);
    for (int i = 0; i < 2; ++i)
        c.step(20.0);  // 30 s of burst
    const int afterBurst = c.capacity();
    EXPECT_GT(afterBurst, 10);
    int changes = 0;
    int previous = afterBurst;
    for (int i = 0; i < 36; ++i) {  // nine minutes back at the old load
        c.step(8.0);
        changes += c.capacity() != previous;
        previous = c.capacity();
    }
    EXPECT_EQ(changes, 0) << "the burst's capacity is held through the stabilisation window";
    for (int i = 0; i < 80; ++i)  // then it goes, in a few steps
        c.step(8.0);
    EXPECT_EQ(c.capacity(), 10);
}

TEST(ScalingPolicy, TheLatencyGuardAddsCapacityOnlyWhenNoneIsOnItsWay)
{
    Controller c(9, 1.0, 60'000);
    for (int i = 0; i < 40; ++i)
        c.step(7.0);  // 7 req/s at 80%: 9 replicas
    ASSERT_EQ(c.capacity(), 9);
    // Demand looks covered, but long prompts push TTFT towards the objective.
    const ScalingDecision guard = c.step(7.0, 2, 4.6);
    EXPECT_EQ(guard.reason, ScalingReason::LatencyGuard) << guard.why;
    EXPECT_EQ(guard.desiredReplicas, 11);  // a fifth more, rounded up
    const ScalingDecision waiting = c.step(7.0, 2, 4.8);
    EXPECT_EQ(waiting.desiredReplicas, 11) << "two replicas are starting: no more";
}

// One decision's input, its history still to fill: `ready` replicas of `replicaRps` each.
PolicyInput servedBy(int ready, double replicaRps, int maxReplicas)
{
    PolicyInput in;
    in.nowMs = 1'000'000;
    in.readyReplicas = ready;
    in.minReplicas = 1;
    in.maxReplicas = maxReplicas;
    in.replicaRps = replicaRps;
    return in;
}

// After a rise has been answered: 10 replicas serve 8 req/s, and the backlog that built up
// while the new ones started is 300 requests, the p95 of those that waited 20 s.
PolicyInput afterARiseAnswered(double waitingBefore, double waitingNow)
{
    PolicyInput in = servedBy(10, 1, 100);
    in.history = {{in.nowMs - kStepMs, 8.0, waitingBefore, 10.0, 20.0},
                  {in.nowMs, 8.0, waitingNow, 10.0, 20.0}};
    return in;
}

TEST(ScalingPolicy, ABacklogTheServingReplicasDrainBeforeNewOnesCouldServeOrdersNothing)
{
    // The queue went from 400 to 300 in 15 s: gone in 45 s, long before the 330 s new
    // capacity takes. Ordering for it (8 + 300/30 req/s) would bring 13 more replicas up
    // to an empty queue, and the p95 is of requests that waited through the rise.
    const ScalingDecision draining = decideReplicas(afterARiseAnswered(400, 300), kConfig);
    EXPECT_EQ(draining.desiredReplicas, 10) << draining.why;
    EXPECT_EQ(draining.reason, ScalingReason::Hold) << draining.why;
    EXPECT_EQ(draining.why,
              "300 waiting, going down 6.7 req/s: gone in 45 s, before capacity ordered now "
              "could serve (330 s)");

    // A queue that holds is not being drained, whatever the nominal rate says (a rise
    // still climbing, a slow card): all of it is demand, (8 + 300/30) / 0.8 = 23 replicas.
    const ScalingDecision holding = decideReplicas(afterARiseAnswered(300, 300), kConfig);
    EXPECT_EQ(holding.desiredReplicas, 23) << holding.why;

    // Draining too slowly: 10 fewer in 15 s leave 300 - 330 * 10/15 = 80 at the lead,
    // (8 + 80/30) / 0.8 = 13.3, so 14 replicas.
    const ScalingDecision slow = decideReplicas(afterARiseAnswered(310, 300), kConfig);
    EXPECT_EQ(slow.desiredReplicas, 14) << slow.why;
}

TEST(ScalingPolicy, TheBacklogNewReplicasCameUpForOrdersNoMoreThePassTheyAreFirstSeen)
{
    // As live, a pass every 5 s: 4 replicas of 4.2 req/s took a step to 24 req/s and 4
    // more were ordered. The pass that first sees them serving still sees the queue
    // that grew while they started; the 9.6 req/s they leave spare drain it in 22 s.
    PolicyInput in = servedBy(8, 4.2, 16);
    in.history = {{in.nowMs - 5'000, 24.0, 200.0, 16.0, 20.0, 4},
                  {in.nowMs, 24.0, 210.0, 32.0, 20.0, 8}};
    const ScalingDecision d = decideReplicas(in, kConfig);
    EXPECT_EQ(d.desiredReplicas, 8) << d.why;  // counting the queue: 31 req/s, 10 replicas
    EXPECT_EQ(d.reason, ScalingReason::Hold) << d.why;

    // Had none come up, the same queue is a queue that grows: all of it counts.
    in.history.front().servingReplicas = 8;
    EXPECT_EQ(decideReplicas(in, kConfig).desiredReplicas, 10);
}

TEST(ScalingPolicy, AQueueTheOrderedCapacityWillDrainIsCountedOnceNotOnTopOfItsHeadroom)
{
    // A ×3 step: 8 replicas of 3.6 req/s serve, 2 more ordered, 28.8 req/s arrive and 600
    // requests wait, the queue growing. 28.8 req/s at 0.8 needs 10 replicas; those 10 at
    // their full rate serve 36 req/s, and the 7.2 req/s spare drains the queue within the
    // 300 s allowed while capacity starts. Counting the queue as load on top of the
    // headroom, (28.8 + 600/300) / 2.88 = 10.7, ordered an 11th replica for it.
    PolicyInput in = servedBy(8, 3.6, 64);
    in.startingReplicas = 2;
    in.history = {{in.nowMs - 15'000, 28.8, 450.0, 64.0, 12.0, 8},
                  {in.nowMs, 28.8, 600.0, 64.0, 14.0, 8}};
    const ScalingDecision counted = decideReplicas(in, kConfig);
    EXPECT_EQ(counted.desiredReplicas, 10) << counted.why;

    // A queue the headroom cannot drain in time still orders: 2,400 waiting need 8 req/s
    // more, (28.8 + 8) / 3.6 = 10.2, so 11.
    in.history.back().waitingRequests = 2'400;
    EXPECT_EQ(decideReplicas(in, kConfig).desiredReplicas, 11);

    // With nothing on its way the queue is demand like the arrivals, at the occupancy.
    in.startingReplicas = 0;
    in.history.back().waitingRequests = 600;
    EXPECT_EQ(decideReplicas(in, kConfig).desiredReplicas, 17) << "(28.8 + 600/30) / 2.88";
}

TEST(ScalingPolicy, BoundsAndAQueueThatMustDrain)
{
    PolicyInput in = servedBy(2, 1, 6);
    in.minReplicas = 2;
    in.history = {{in.nowMs, 0.0, 0.0, 0.0, {}}};
    EXPECT_EQ(decideReplicas(in, kConfig).desiredReplicas, 2);  // idle, but never below min
    in.history = {{in.nowMs, 2.0, 120.0, 0.0, {}}};             // 2 req/s and 120 queued
    const ScalingDecision d = decideReplicas(in, kConfig);
    EXPECT_EQ(d.desiredReplicas, 6) << d.why;  // (2 + 120/30) / 0.8 = 7.5, held to max 6
    EXPECT_EQ(d.reason, ScalingReason::Bounds);
    EXPECT_NE(d.why.find("max 6"), std::string::npos);
}

TEST(ScalingPolicy, TheSurgeCoverIsWarmBeforeTheSurgeAndNotOrderedAgainOnTopOfIt)
{
    ScalingPolicyConfig config = kConfig;
    config.surgeCover = 3;
    Controller c(10, 1.0, 120'000, config);
    c.setUsualRps(8.0);  // the kept minutes say 8 req/s is usual
    const ScalingDecision first = c.step(8.0);
    EXPECT_EQ(first.reason, ScalingReason::Up) << first.why;
    EXPECT_EQ(first.desiredReplicas, 24) << "3 × 8 req/s at a replica's full rate";
    EXPECT_NE(first.why.find("surge cover: 24 replicas hold 3× the usual 8.00 req/s"),
              std::string::npos)
        << first.why;
    for (int i = 0; i < 60; ++i)
        c.step(8.0);
    EXPECT_EQ(c.ready(), 24) << "the cover is not shed while the load is usual";
    // The surge comes: it finds 24 replicas serving, not a lease and a cold start away,
    // and they carry it while the stable window confirms it.
    const int actionsBefore = c.actions;
    const ScalingDecision surge = c.step(24.0);
    EXPECT_EQ(surge.desiredReplicas, 24) << surge.why;
    EXPECT_EQ(c.ready(), 24);
    // Once confirmed the load is ordered as any rise is (24 req/s at 80%: 30); the usual
    // load has not moved, so no second cover is laid on top of the surge.
    for (int i = 0; i < 20; ++i)
        c.step(24.0);
    EXPECT_EQ(c.capacity(), 30);
    EXPECT_EQ(c.actions, actionsBefore + 1);
}

TEST(ScalingPolicy, WithoutAKnownUsualLoadOrAtCoverOneNothingIsHeldForASurge)
{
    ScalingPolicyConfig config = kConfig;
    config.surgeCover = 3;
    Controller unknown(10, 1.0, 120'000, config);  // no kept minutes yet
    for (int i = 0; i < 20; ++i)
        unknown.step(8.0);
    EXPECT_EQ(unknown.capacity(), 10);
    Controller off(10, 1.0);  // the defaults: no cover
    off.setUsualRps(8.0);
    for (int i = 0; i < 20; ++i)
        off.step(8.0);
    EXPECT_EQ(off.capacity(), 10);
    EXPECT_EQ(off.actions, 0);
}

TEST(ScalingPolicy, TheUsualLoadIsTheMedianMinuteAndASurgeMovesItOnlyPastHalfTheWindow)
{
    DailyProfile profile(0);
    EXPECT_FALSE(profile.usualRate(0, 3'600'000).has_value()) << "nothing recorded";
    const int64_t start = 1'700'000'000'000;
    int64_t t = start;
    for (int m = 0; m < 40; ++m, t += 60'000) {
        profile.record(t, 10.0);
        profile.record(t + 30'000, 12.0);  // a minute's samples are averaged: 11
    }
    EXPECT_DOUBLE_EQ(*profile.usualRate(t, 3'600'000), 11.0);
    for (int m = 0; m < 19; ++m, t += 60'000)
        profile.record(t, 33.0);  // a surge, 19 of the hour's 59 recorded minutes
    EXPECT_DOUBLE_EQ(*profile.usualRate(t, 3'600'000), 11.0) << "a surge is not usual yet";
    for (int m = 0; m < 25; ++m, t += 60'000)
        profile.record(t, 33.0);
    EXPECT_DOUBLE_EQ(*profile.usualRate(t, 3'600'000), 33.0) << "it has lasted most of the hour";
}

TEST(ScalingPolicy, APolicyFileSetsTheKnobsAndMistakesNameTheLine)
{
    test::TempDir dir;
    const std::string path = dir.file("policy.yaml");
    std::ofstream(path) << "target_occupancy: 0.9\nstable_window_seconds: 60\nup_headroom: 0.1\n";
    auto policy = loadScalingPolicy(path);
    ASSERT_TRUE(policy.ok()) << policy.error().message;
    EXPECT_DOUBLE_EQ(policy->targetOccupancy, 0.9);
    EXPECT_EQ(policy->stableWindowMs, 60'000);
    EXPECT_DOUBLE_EQ(policy->upHeadroom, 0.1);
    EXPECT_EQ(policy->panicWindowMs, ScalingPolicyConfig{}.panicWindowMs);  // untouched
    std::ofstream(path) << "target_occupancy: 0.9\npanic_factr: 2\n";
    auto typo = loadScalingPolicy(path);
    ASSERT_FALSE(typo.ok());
    EXPECT_NE(typo.error().message.find(path + ":2: unknown policy key panic_factr"),
              std::string::npos)
        << typo.error().message;
    std::ofstream(path) << "target_occupancy: 3\n";
    auto range = loadScalingPolicy(path);
    ASSERT_FALSE(range.ok());
    EXPECT_NE(range.error().message.find("target_occupancy must be"), std::string::npos);
    EXPECT_FALSE(policy->forecastOrdersAhead);
    std::ofstream(path) << "forecast_orders_ahead: true\n";
    auto ahead = loadScalingPolicy(path);
    ASSERT_TRUE(ahead.ok()) << ahead.error().message;
    EXPECT_TRUE(ahead->forecastOrdersAhead);
    std::ofstream(path) << "target_occupancy: 0.9\nforecast_orders_ahead: 0.5\n";
    auto notBool = loadScalingPolicy(path);
    ASSERT_FALSE(notBool.ok());
    EXPECT_NE(notBool.error().message.find(path + ":2"), std::string::npos)
        << notBool.error().message;
    EXPECT_NE(notBool.error().message.find("forecast_orders_ahead must be true or false"),
              std::string::npos)
        << notBool.error().message;
    std::ofstream(path) << "surge_cover: 4\nsurge_base_window_seconds: 7200\n";
    auto cover = loadScalingPolicy(path);
    ASSERT_TRUE(cover.ok()) << cover.error().message;
    EXPECT_DOUBLE_EQ(cover->surgeCover, 4);
    EXPECT_EQ(cover->surgeBaseWindowMs, 7'200'000);
    EXPECT_TRUE(readsDemandMinutes(*cover));
    std::ofstream(path) << "forecast_days: 0\nsurge_cover: 0.5\n";
    auto less = loadScalingPolicy(path);
    ASSERT_FALSE(less.ok());
    EXPECT_NE(less.error().message.find(path + ":2: surge_cover must be 1..10"), std::string::npos)
        << less.error().message;
    std::ofstream(path) << "stable_window_seconds: 60\ntarget_occupancy: banana\n";
    auto notNumber = loadScalingPolicy(path);
    ASSERT_FALSE(notNumber.ok());
    EXPECT_NE(notNumber.error().message.find(path + ":2"), std::string::npos)
        << notNumber.error().message;
    EXPECT_NE(notNumber.error().message.find("target_occupancy must be a number ('banana')"),
              std::string::npos)
        << notNumber.error().message;
}
