// The exact oracle's parts: leases planned at the fewest paid hours for what the misses
// are worth, within a budget of misses; each minute's misses measured through the
// simulated replicas; and figures reported as the median over seeds.
#include <gtest/gtest.h>

#include "replay/leaseplan.h"
#include "replay/minutemisses.h"
#include "replay/seedmedian.h"

using namespace meridian;

namespace {

// A minute needing `replicas` (all of `requests` missed with fewer, none with as many).
MinuteMisses needs(int replicas, int32_t requests = 100)
{
    MinuteMisses m;
    m.requests = requests;
    m.fewest = replicas - 1;
    m.byCount = {requests, 0};
    return m;
}

std::vector<MinuteMisses> minutes(size_t count, int replicas)
{
    return std::vector<MinuteMisses>(count, needs(replicas));
}

// `count` minutes needing the 2 owned replicas, but 3 for ten minutes from each of `starts`.
std::vector<MinuteMisses> tenMinuteRises(size_t count, std::initializer_list<size_t> starts)
{
    auto need = minutes(count, 2);
    for (const size_t start : starts) {
        for (size_t m = start; m < start + 10; ++m)
            need[m] = needs(3);
    }
    return need;
}

}  // namespace

TEST(LeasePlan, PaysTheFewestHoursThatServeEveryMinuteWorthIt)
{
    const LeasePlanOptions options{2, 6};  // two owned replicas; 6 minutes to start
    // One rented replica for 100 minutes: a first hour serves 54 of them, a second the rest.
    LeasePlan plan = planLeases(minutes(100, 3), 1.0, options);
    EXPECT_EQ(plan.misses, 0);
    EXPECT_DOUBLE_EQ(plan.rentedReplicaHours, 2);
    EXPECT_EQ(plan.replicas.front(), 3);
    EXPECT_EQ(plan.replicas.back(), 3);
    // Two 10-minute needs 30 minutes apart: one hour covers both, and the replica it pays
    // for serves the gap too.
    plan = planLeases(tenMinuteRises(50, {0, 40}), 1.0, options);
    EXPECT_DOUBLE_EQ(plan.rentedReplicaHours, 1);
    EXPECT_EQ(plan.replicas[25], 3);
    // Two hours apart: each its own hour, nothing between.
    plan = planLeases(tenMinuteRises(140, {0, 130}), 1.0, options);
    EXPECT_DOUBLE_EQ(plan.rentedReplicaHours, 2);
    EXPECT_EQ(plan.replicas[70], 2);
    // A miss worth less than an hour's share: a lone minute of 100 misses is not worth an
    // hour at 0.001 replica-hours a miss (0.1 in all), and is at 0.1 (10).
    auto lone = minutes(60, 2);
    lone[30] = needs(3);
    EXPECT_EQ(planLeases(lone, 0.001, options).misses, 100);
    EXPECT_EQ(planLeases(lone, 0.1, options).misses, 0);
}

TEST(LeasePlan, ACliffOfMissesIsPlannedAcrossTheReplicasItTakes)
{
    // Every request misses with up to 5 replicas, none with 6: no single replica above
    // the 2 owned keeps anything alone, yet four together keep it all.
    std::vector<MinuteMisses> cliff(30);
    for (MinuteMisses &m : cliff) {
        m.requests = 500;
        m.fewest = 5;
        m.byCount = {500, 0};
    }
    const LeasePlan plan = planLeases(cliff, 1.0, {2, 6});
    EXPECT_EQ(plan.misses, 0);
    EXPECT_EQ(plan.replicas[10], 6);
    EXPECT_DOUBLE_EQ(plan.rentedReplicaHours, 4);
}

TEST(LeasePlan, WithinABudgetItSpendsTheMissesWhereTheySaveMost)
{
    // Sixty minutes at 3 replicas, and one minute of 4 whose 4th replica keeps 50.
    auto need = minutes(120, 3);
    need[100] = needs(4, 50);
    const LeasePlanOptions options{2, 6};
    const LeasePlan none = planLeasesWithin(need, 0, options);
    EXPECT_EQ(none.misses, 0);
    const LeasePlan some = planLeasesWithin(need, 50, options);
    EXPECT_LE(some.misses, 50);
    EXPECT_LT(some.rentedReplicaHours, none.rentedReplicaHours) << "the lone minute's hour saved";
    EXPECT_EQ(some.replicas[100], 3);
    // More misses than any plan makes: the fewest there are.
    EXPECT_EQ(planLeasesWithin(need, 1'000'000, options).misses, 119 * 100 + 50);
}

TEST(MinuteMisses, MoreReplicasMissNoMoreAndEnoughMissNone)
{
    // Two minutes at 20 requests a second (each 2,000 prompt tokens, 100 out), then one
    // with nothing.
    std::vector<TraceRequest> requests;
    for (int i = 0; i < 2400; ++i)
        requests.push_back({i * 0.05, 2'000, 100, {}});
    requests.push_back({185.0, 100, 10, {}});
    MemorySource source(requests);
    MinuteMissesOptions options;
    options.replicaRps = 3;
    const std::vector<MinuteMisses> measured = measureMinuteMisses(source, options);
    ASSERT_EQ(measured.size(), 4u);
    for (size_t m = 0; m < 2; ++m) {
        const MinuteMisses &minute = measured[m];
        EXPECT_EQ(minute.requests, 1200);
        EXPECT_EQ(minute.with(0), 1200);
        EXPECT_EQ(minute.with(minute.enough()), 0) << "minute " << m;
        EXPECT_GT(minute.with(minute.enough() - 2), 0) << "minute " << m;
        for (int r = 1; r <= minute.enough(); ++r)
            EXPECT_LE(minute.with(r), minute.with(r - 1)) << r;
        // 20/s of 0.25 s prefills need 5 replicas' prefill at least.
        EXPECT_GE(minute.enough(), 5);
    }
    EXPECT_EQ(measured[2].requests, 0);
    EXPECT_EQ(measured[2].with(0), 0);
    EXPECT_EQ(measured[3].requests, 1);
    EXPECT_EQ(measured[3].with(1), 0) << "the busy minutes before had what they needed";
}

TEST(SeedMedian, EachFigureIsItsMedianAndTheRangeIsKept)
{
    std::vector<EvaluationRun> runs(3);
    const double shares[] = {0.991, 0.995, 0.989};
    const double hours[] = {40, 36, 52};
    for (size_t i = 0; i < runs.size(); ++i) {
        EvaluationResult meridian;
        meridian.autoscaler = "meridian";
        meridian.withinSloShare = meridian.lowestWithinSloShare = meridian.highestWithinSloShare =
            shares[i];
        meridian.rentedCardHours = hours[i];
        meridian.scaleActions = static_cast<int>(i) * 10;
        meridian.minuteReplicas = {static_cast<int>(i)};
        runs[i].results.push_back(meridian);
        runs[i].oracleHeadroom = 1.0 + static_cast<double>(i) / 10;
        if (i != 1) {
            EvaluationResult tuned = meridian;
            tuned.autoscaler = "meridian tuned";
            runs[i].results.push_back(tuned);
        }
    }
    const EvaluationRun median = medianOverSeeds(runs);
    EXPECT_EQ(median.seeds, 3);
    ASSERT_EQ(median.results.size(), 2u);
    const EvaluationResult &m = median.results.front();
    EXPECT_DOUBLE_EQ(m.withinSloShare, 0.991);
    EXPECT_DOUBLE_EQ(m.rentedCardHours, 40);
    EXPECT_EQ(m.scaleActions, 10);
    EXPECT_DOUBLE_EQ(m.lowestWithinSloShare, 0.989);
    EXPECT_DOUBLE_EQ(m.highestWithinSloShare, 0.995);
    EXPECT_EQ(m.minuteReplicas, std::vector<int>{0}) << "the first seed's minutes";
    EXPECT_DOUBLE_EQ(median.oracleHeadroom, 1.1);
    const EvaluationResult &tuned = median.results.back();
    EXPECT_EQ(tuned.runs, 2) << "the tuned row of two seeds";
    EXPECT_DOUBLE_EQ(tuned.rentedCardHours, 46);
}
