// Latency figures kept in bounded memory: percentiles to 1% from the histogram, and each
// minute's p95 exact, closed only once every request of that minute has its answer.
#include <gtest/gtest.h>

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
