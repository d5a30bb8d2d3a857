// Latency figures kept in bounded memory: percentiles to 1% from the histogram, and each
// minute's p95 exact, closed only once every request of that minute has its answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "replay/latencystats.h"

using namespace meridian;

TEST(LatencyHistogram, PercentilesAreWithinOnePercent)
{
    LatencyHistogram histogram;
    EXPECT_EQ(histogram.percentile(0.95), 0);
    for (int ms = 1; ms <= 10'000; ++ms)
        histogram.add(ms / 1000.0);
    EXPECT_EQ(histogram.count(), 10'000);
    EXPECT_NEAR(histogram.percentile(0.95), 9.501, 9.501 * 0.01);
    EXPECT_NEAR(histogram.percentile(0.5), 5.001, 5.001 * 0.01);
    histogram.add(1e9);  // a request never answered
    EXPECT_NEAR(histogram.percentile(1.0), 1e9, 1e7);
    EXPECT_LT(histogram.percentile(0.99), 10.2);
}

// Over values from a tenth of a millisecond to a never-answered request's 1e9 s, spread
// evenly on a log scale: every percentile is the bucket's end at or above the true one,
// never more than 1% above it.
TEST(LatencyHistogram, EveryPercentileIsTheTrueOneOrAtMostOnePercentAbove)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> exponent(-4, 9);
    std::vector<double> values;
    LatencyHistogram histogram;
    for (int i = 0; i < 200'000; ++i) {
        values.push_back(std::pow(10.0, exponent(rng)));
        histogram.add(values.back());
    }
    std::sort(values.begin(), values.end());
    for (int permille = 0; permille <= 1000; permille += 7) {
        const double p = permille / 1000.0;
        const double truth =
            values[std::min(values.size() - 1, static_cast<size_t>(p * values.size()))];
        const double figure = histogram.percentile(p);
        if (truth <= 0.001) {
            EXPECT_EQ(figure, 0.0) << p;  // the first bucket holds everything to 1 ms
            continue;
        }
        EXPECT_GE(figure, truth * (1 - 1e-12)) << p;
        EXPECT_LE(figure, truth * 1.01 * (1 + 1e-12)) << p;
    }
}

TEST(MinuteLatency, AMinuteClosesWhenItsLastRequestIsAnswered)
{
    MinuteLatency minutes;
    for (int i = 0; i < 20; ++i)
        minutes.arrived(0);
    minutes.arrived(2);
    for (int i = 0; i < 19; ++i)
        minutes.answered(0, i < 18 ? 1.0 : 30.0);
    minutes.answered(2, 0.5);
    minutes.closeBefore(3);
    // Minute 0 still waits for one answer; minute 2 is final, minute 1 had nothing.
    ASSERT_EQ(minutes.p95ByMinute().size(), 3u);
    EXPECT_LT(minutes.p95ByMinute()[0], 0);
    EXPECT_LT(minutes.p95ByMinute()[1], 0);
    EXPECT_FLOAT_EQ(minutes.p95ByMinute()[2], 0.5);
    minutes.answered(0, 40.0);  // the late one makes the minute's p95
    minutes.closeBefore(3);
    EXPECT_FLOAT_EQ(minutes.p95ByMinute()[0], 40.0f);
}
