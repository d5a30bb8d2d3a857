// The daily shape: what the same time on earlier days reached (the busiest ten minutes of
// the span, the median over days), nothing without an earlier day; and the policy that
// keeps what it is about to need but sizes a scale-up on the load now; the billing
// signal a scale-down waits for.
#include <gtest/gtest.h>

#include <cmath>

#include "replay/requestsource.h"
#include "replay/servingsim.h"
#include "scaling/dailyprofile.h"
#include "scaling/scalingpolicy.h"

using namespace meridian;

namespace {

constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kDayMs = 1440 * kMinuteMs;
constexpr int64_t kStart = 1'700'006'400'000;  // a whole minute

// A day whose rate is `base`, with `peak` from 09:00 to 09:30.
void recordDay(DailyProfile &profile, int64_t dayStartMs, double base, double peak)
{
    for (int64_t m = 0; m < 1440; ++m) {
        const bool busy = m >= 540 && m < 570;
        profile.record(dayStartMs + m * kMinuteMs, busy ? peak : base);
    }
}

// Ten replicas of 1 req/s each, at `rps` for the last ten minutes.
PolicyInput tenReplicasAt(double rps)
{
    PolicyInput in;
    in.nowMs = kStart;
    in.replicaRps = 1;
    in.minReplicas = 1;
    in.maxReplicas = 100;
    in.readyReplicas = 10;
    for (int i = 0; i < 40; ++i)
        in.history.push_back({kStart - (40 - i) * 15'000, rps, 0, 0, std::nullopt});
    return in;
}

}  // namespace

TEST(DailyProfile, SaysNothingWithoutAnEarlierDay)
{
    DailyProfile profile;
    for (int64_t m = 0; m < 600; ++m)
        profile.record(kStart + m * kMinuteMs, 5);
    EXPECT_FALSE(profile.forecast(kStart + 600 * kMinuteMs, 3'600'000));
}

TEST(DailyProfile, ForecastsTheBusiestTenMinutesAheadAsTheMedianOfEarlierDays)
{
    DailyProfile profile(7);
    recordDay(profile, kStart, 2, 20);
    recordDay(profile, kStart + kDayMs, 2, 30);
    recordDay(profile, kStart + 2 * kDayMs, 2, 400);  // one bad day does not make the shape
    const int64_t today = kStart + 3 * kDayMs;
    // At 08:40 the next half hour holds yesterday's peak: the median of 20, 30, 400.
    const auto ahead = profile.forecast(today + 520 * kMinuteMs, 30 * kMinuteMs);
    ASSERT_TRUE(ahead);
    EXPECT_DOUBLE_EQ(*ahead, 30);
    // At 08:00 the next five minutes are quiet on every day.
    EXPECT_DOUBLE_EQ(profile.forecast(today + 480 * kMinuteMs, 5 * kMinuteMs).value(), 2);
    // A single loud minute is not the busiest ten.
    DailyProfile spiky(7);
    for (int64_t m = 0; m < 1440; ++m)
        spiky.record(kStart + m * kMinuteMs, m == 100 ? 100 : 1);
    EXPECT_NEAR(spiky.forecast(kStart + kDayMs + 90 * kMinuteMs, 30 * kMinuteMs).value(), 10.9,
                1e-9);
}

TEST(DailyProfile, KeepsOnlyTheDaysItUsesAndIgnoresTimeRunningBackwards)
{
    DailyProfile profile(2);
    for (int day = 0; day < 5; ++day)
        recordDay(profile, kStart + day * kDayMs, day + 1.0, day + 1.0);
    profile.record(kStart, 1000);  // late: dropped
    const auto f = profile.forecast(kStart + 5 * kDayMs, 5 * kMinuteMs);
    ASSERT_TRUE(f);
    EXPECT_DOUBLE_EQ(*f, 4.5);  // days 4 and 5 (rates 4 and 5), not the older ones
}

// What a profile hands out as minutes finish, restored into a new one, forecasts what the
// old one did; a restore into a used profile, or out of order, is refused.
TEST(DailyProfile, FinishedMinutesRestoredForecastAsBefore)
{
    DailyProfile recorded(2);
    std::vector<DemandMinute> kept;
    for (int day = 0; day < 2; ++day) {
        for (int64_t m = 0; m < 1440; ++m) {
            const bool busy = m >= 540 && m < 570;
            for (int64_t s = 0; s < 60'000; s += 15'000) {
                if (auto finished = recorded.record(kStart + day * kDayMs + m * kMinuteMs + s,
                                                    busy ? 8.0 + day : 1.0))
                    kept.push_back(*finished);
            }
        }
    }
    // Every minute but the one still open was handed out, with its four samples.
    ASSERT_EQ(kept.size(), 2u * 1440 - 1);
    EXPECT_EQ(kept.front().samples, 4);
    EXPECT_DOUBLE_EQ(kept.front().sum, 4.0);

    DailyProfile restored(2);
    ASSERT_TRUE(restored.restore(kept));
    const int64_t nextMorning = kStart + 2 * kDayMs + 530 * kMinuteMs;
    ASSERT_TRUE(restored.forecast(nextMorning, 20 * kMinuteMs));
    EXPECT_DOUBLE_EQ(*restored.forecast(nextMorning, 20 * kMinuteMs),
                     *recorded.forecast(nextMorning, 20 * kMinuteMs));
    EXPECT_DOUBLE_EQ(*restored.forecast(nextMorning, 20 * kMinuteMs), 8.5);

    EXPECT_FALSE(restored.restore(kept)) << "it already holds minutes";
    DailyProfile shuffled(2);
    EXPECT_FALSE(shuffled.restore({kept[1], kept[0]}));
    EXPECT_FALSE(shuffled.forecast(nextMorning, 20 * kMinuteMs));
    // What is older than the days it uses does not count.
    EXPECT_EQ(restored.keptFromIndex(nextMorning), nextMorning / kMinuteMs - 3 * 1440 + 1);
}

// A rate no replica can report (NaN, negative) is not recorded: it would poison every
// forecast that reads its minute.
TEST(DailyProfile, ImpossibleRatesAreNotRecorded)
{
    DailyProfile profile(1);
    profile.record(kStart, 2.0);
    EXPECT_FALSE(profile.record(kStart, std::nan("")));
    EXPECT_FALSE(profile.record(kStart, -1.0));
    const auto closed = profile.record(kStart + kDayMs, 0.0);
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->samples, 1);
    EXPECT_EQ(profile.forecast(kStart + kDayMs, 0), std::optional(2.0));
}

// A kept record with a gap of years (a damaged or tampered journal) is not filled in
// minute by minute: the days before the gap are dropped, the minutes after it restored.
TEST(DailyProfile, ARestoredGapOfYearsIsNotFilled)
{
    DailyProfile profile(1);
    const int64_t first = kStart / kMinuteMs;
    const int64_t tenYearsLater = first + 10 * 365 * 1440;
    ASSERT_TRUE(profile.restore({{first, 4.0, 1}, {first + 1, -1.0, 1}, {tenYearsLater, 6.0, 2}}));
    EXPECT_EQ(profile.forecast((tenYearsLater + 1440) * kMinuteMs, 0), std::optional(3.0));
    EXPECT_FALSE(profile.forecast((first + 1440) * kMinuteMs, 0));
    EXPECT_FALSE(profile.record(tenYearsLater * kMinuteMs - kDayMs, 1.0)) << "before the last";
}

// Back after longer than the days it uses: nothing of the old days is forecast.
TEST(DailyProfile, ALongAbsenceForgetsTheOldDays)
{
    DailyProfile profile(1);
    recordDay(profile, kStart, 1.0, 9.0);
    const int64_t muchLater = kStart + 5 * kDayMs;
    ASSERT_TRUE(profile.record(muchLater, 1.0));  // the old last minute is handed out
    EXPECT_FALSE(profile.forecast(muchLater + kMinuteMs, 3'600'000));
}

TEST(ScalingPolicyForecast, CapacityTheDailyShapeSoonNeedsIsKeptButAScaleUpIsSizedOnTheLoad)
{
    ScalingPolicyConfig config;
    config.targetOccupancyWithForecast = 0.8;  // the figures below are at 80%
    PolicyInput in = tenReplicasAt(1.0);
    // Ten there, 1 req/s for ten minutes: two would do. Earlier days reached 8 req/s
    // within the lead: the ten that needs are kept.
    in.forecastRps = 8.0;
    ScalingDecision d = decideReplicas(in, config);
    EXPECT_EQ(d.desiredReplicas, 10) << d.why;
    EXPECT_EQ(d.neededReplicas, 10);
    in.forecastRps = 4.0;  // five
    d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Down);
    EXPECT_EQ(d.neededReplicas, 5);
    in.forecastRps.reset();
    d = decideReplicas(in, config);
    EXPECT_EQ(d.neededReplicas, 2);

    // A scale-up is sized on the load as it is, not on what earlier days reached: capacity
    // started before its demand pays hours it does not serve, and the forecast only keeps
    // what it foresees (ordering ahead is a choice of its own, below).
    in.readyReplicas = 5;
    for (ServiceSignals &s : in.history)
        s.arrivalRps = 4.4;  // needs 6 at 80%: a climb, not a burst
    in.forecastRps = 9.6;    // needs 12
    d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Up);
    EXPECT_EQ(d.desiredReplicas, 6) << d.why;
    in.readyReplicas = 6;
    d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Hold) << "the forecast keeps, it does not order";
    EXPECT_EQ(d.desiredReplicas, 6);
}

// Trusted to, the forecast starts capacity before the demand comes; by default it only
// keeps capacity, since the median of earlier days foresees too few of the rises.
TEST(ScalingPolicyForecast, WhereTrustedTheForecastStartsCapacityAhead)
{
    ScalingPolicyConfig config;
    config.targetOccupancyWithForecast = 0.8;
    PolicyInput in = tenReplicasAt(1.0);
    in.readyReplicas = 4;  // 1 req/s needs two: four there
    in.forecastRps = 6.4;  // eight, within the lead
    ScalingDecision d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Hold) << d.why;
    EXPECT_EQ(d.desiredReplicas, 4);
    config.forecastOrdersAhead = true;
    d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Up);
    EXPECT_EQ(d.desiredReplicas, 8);
    EXPECT_NE(d.why.find("the forecast needs 8 replicas within the next 330 s, 4 there or "
                         "starting: ordered ahead"),
              std::string::npos)
        << d.why;
    // Ordered once: capacity on its way counts, so the next decision holds.
    in.readyReplicas = 4;
    in.startingReplicas = 4;
    EXPECT_EQ(decideReplicas(in, config).desiredReplicas, 8);
}

// The signals say when the soonest paid hour of a serving rented replica ends, so a
// scale-down can wait for it: shedding earlier frees nothing that is not paid for.
TEST(ServingSimBilling, SignalsSayWhenTheSoonestPaidHourEnds)
{
    const std::vector<TraceRequest> none;
    MemorySource requests(none);
    StartupTimes quick{1, 1, 1, 1};
    ServingSim sim(requests, {}, quick, /*localReplicas=*/0, /*initialReplicas=*/0, 5);
    EXPECT_TRUE(sim.signals(15).paidHourEndsInS.empty());
    sim.setDesired(1, ReleaseOrder::SoonestPaidHourFirst);  // rented at 0 s
    sim.runUntil(1200);
    sim.setDesired(2, ReleaseOrder::SoonestPaidHourFirst);  // rented at 1200 s
    sim.runUntil(3000);
    IntervalSignals s = sim.signals(15);
    EXPECT_EQ(s.ready, 2);
    ASSERT_EQ(s.paidHourEndsInS.size(), 2u);
    EXPECT_NEAR(s.paidHourEndsInS[0], 3540 - 3000, 1);  // the first's, a minute before it turns
    EXPECT_NEAR(s.paidHourEndsInS[1], 4740 - 3000, 1);
    EXPECT_EQ(s.paidHoursEndingWithin(600), 1);
    sim.runUntil(3700);  // into the first one's second hour
    EXPECT_NEAR(sim.signals(15).paidHourEndsInS.front(), 4740 - 3700, 1);  // now the second's
}

// Billing-aware, a scale-down lets go the replica whose paid hour ends soonest, not the
// newest: the newest's hour has longest to run, and it would be paid for regardless.
TEST(ServingSimBilling, ReleasesTheReplicaWhosePaidHourEndsSoonest)
{
    const std::vector<TraceRequest> none;
    MemorySource requests(none);
    StartupTimes quick{1, 1, 1, 1};
    ServingSim sim(requests, {}, quick, /*localReplicas=*/0, /*initialReplicas=*/0, 5);
    sim.setDesired(1, ReleaseOrder::SoonestPaidHourFirst);  // rented at 0 s
    sim.runUntil(1200);
    sim.setDesired(2, ReleaseOrder::SoonestPaidHourFirst);  // rented at 1200 s
    sim.runUntil(3500);
    sim.setDesired(1, ReleaseOrder::SoonestPaidHourFirst);
    IntervalSignals s = sim.signals(15);
    ASSERT_EQ(s.paidHourEndsInS.size(), 1u);
    EXPECT_NEAR(s.paidHourEndsInS[0], 4740 - 3500, 1);  // the second one stays
    sim.runUntil(3600);
    const ServingSim::Totals totals = sim.finish();
    EXPECT_NEAR(totals.rentedBilledSeconds, 2 * 3600, 1);  // one hour each, no second hour
}

// Where the daily shape forecasts, the policy holds less headroom: the headroom is there
// for the minutes a reaction is late, and the forecast starts capacity ahead of them.
TEST(ScalingPolicyForecast, WhileTheDailyShapeForecastsLessHeadroomIsHeld)
{
    ScalingPolicyConfig config;
    config.targetOccupancy = 0.8;
    config.targetOccupancyWithForecast = 0.9;
    PolicyInput in = tenReplicasAt(9.0);
    // 9 req/s: 12 replicas at 80%, the 10 there at 90%.
    ScalingDecision d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Up);
    EXPECT_EQ(d.desiredReplicas, 12) << d.why;
    EXPECT_EQ(d.why.find("occupancy"), std::string::npos) << d.why;
    in.forecastRps = 9.0;
    d = decideReplicas(in, config);
    EXPECT_EQ(d.reason, ScalingReason::Hold) << d.why;
    EXPECT_EQ(d.desiredReplicas, 10);
    // 11 req/s needs 13 at 90%; the decision says which occupancy it was sized at.
    for (ServiceSignals &s : in.history)
        s.arrivalRps = 11.0;
    d = decideReplicas(in, config);
    EXPECT_EQ(d.desiredReplicas, 13) << d.why;
    EXPECT_NE(d.why.find("sized at 90% occupancy while the daily shape forecasts"),
              std::string::npos)
        << d.why;
}
