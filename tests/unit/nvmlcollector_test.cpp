// The NVML collector against the stand-in library (same symbols, believable answers).
#include <gtest/gtest.h>

#include "telemetry/nvmlcollector.h"

using namespace meridian;

TEST(NvmlCollector, MissingLibraryIsAClearError)
{
    auto collector = NvmlCollector::load("/nonexistent/libnvidia-ml.so.1");
    ASSERT_FALSE(collector.ok());
    EXPECT_NE(collector.error().message.find("is the NVIDIA driver installed"), std::string::npos)
        << collector.error().message;
}

TEST(NvmlCollector, ReadsCardsMigAsAbsentAndXidEvents)
{
    auto collector = NvmlCollector::load(MERIDIAN_FAKE_NVML);
    ASSERT_TRUE(collector.ok()) << collector.error().message;
    auto hw = collector.value()->discover();
    ASSERT_TRUE(hw.ok());
    ASSERT_EQ(hw->cards.size(), 2u);
    EXPECT_EQ(hw->cards[0].uuid, "GPU-fake-0000");
    EXPECT_EQ(hw->cards[0].pciBusId, "00000000:07:00.0");
    EXPECT_EQ(hw->cards[1].migEnabled, true);
    EXPECT_DOUBLE_EQ(*hw->cards[0].peakFp16Tflops, 312.0);
    auto sample = collector.value()->sample(1000);
    ASSERT_TRUE(sample.ok());
    EXPECT_EQ(sample->cards[0].utilizationPercent, 73.0);
    EXPECT_FALSE(sample->cards[1].utilizationPercent.has_value());  // MIG: absent, never 0
    EXPECT_FALSE(sample->cards[1].eccUncorrectedVolatile.has_value());
    EXPECT_DOUBLE_EQ(*sample->cards[0].powerWatts, 312.5);
    EXPECT_DOUBLE_EQ(*sample->cards[0].powerLimitWatts, 400.0);
    // Each reading is its own call's answer, not the one before it (a real H200 once read
    // 0 °C and an SM clock of 700000 MHz: its power limit in mW).
    EXPECT_EQ(sample->cards[0].temperatureCelsius, 61.0);
    EXPECT_EQ(sample->cards[0].smClockMhz, 1410u);
    EXPECT_EQ(sample->cards[0].memoryClockMhz, 1593u);
    EXPECT_EQ(sample->cards[0].eccCorrectedVolatile, 7u);
    EXPECT_EQ(sample->cards[0].eccUncorrectedVolatile, 0u);
    EXPECT_TRUE(sample->cards[0].thermallyThrottled());
    ASSERT_EQ(sample->events.size(), 1u);
    EXPECT_EQ(sample->events[0].kind, EventKind::Xid);
    EXPECT_EQ(sample->events[0].xid, 79u);
    EXPECT_EQ(sample->events[0].cardIndex, 0u);
    EXPECT_TRUE(collector.value()->sample(2000)->events.empty());
}
