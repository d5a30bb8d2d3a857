// A card's utilisation and power read back from a real history file: minutes for a day
// or less, hours beyond, steps with nothing recorded as gaps, and a card the file does
// not know named as such.
#include <gtest/gtest.h>

#include <cmath>

#include "history/cardusageseries.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;

namespace {

constexpr int64_t kJuly1 = 1'782'864'000;  // 2026-07-01T00:00:00Z

}  // namespace

TEST(CardUsageSeries, MinutesForADayHoursForAWeekAndGapsWhereNothingWasRecorded)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    {
        auto store = HistoryStore::open(file);
        ASSERT_TRUE(store.ok());
        // Two hours of one node, then nothing for an hour, then an hour more.
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 2, kJuly1, 120, 45, 12'000));
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 2, kJuly1 + 3 * 3600, 60, 30, 24'000));
        ASSERT_TRUE(store.value()->flush().ok());
    }
    const std::string card = "xm-1-0";
    // The last 4 hours, by quarter hour: minutes, averaged.
    auto day = readCardUsageSeries(file, card, kJuly1, kJuly1 + 4 * 3600, 900);
    ASSERT_TRUE(day.ok()) << day.error().message;
    ASSERT_EQ(day->size(), 16u);
    EXPECT_NEAR(day->front().utilizationPercent, 75, 1e-9);  // 45 busy seconds a minute
    EXPECT_NEAR(day->front().powerWatts, 200, 1e-9);         // 12,000 J a minute
    EXPECT_TRUE(std::isnan((*day)[9].utilizationPercent)) << "the silent hour is a gap";
    EXPECT_TRUE(std::isnan((*day)[9].powerWatts));
    EXPECT_NEAR((*day)[12].utilizationPercent, 50, 1e-9);
    EXPECT_NEAR((*day)[12].powerWatts, 400, 1e-9);
    // A week, by hour: the roll-ups.
    auto week = readCardUsageSeries(file, card, kJuly1 - 6 * 86400, kJuly1 + 86400, 3600);
    ASSERT_TRUE(week.ok()) << week.error().message;
    ASSERT_EQ(week->size(), 7u * 24u);
    const size_t july1 = 6 * 24;
    EXPECT_TRUE(std::isnan((*week)[july1 - 1].utilizationPercent));
    EXPECT_NEAR((*week)[july1].utilizationPercent, 75, 1e-9);
    EXPECT_NEAR((*week)[july1 + 3].powerWatts, 400, 1e-9);
    EXPECT_TRUE(std::isnan((*week)[july1 + 2].utilizationPercent));

    const auto unknown = readCardUsageSeries(file, "no-such-card", kJuly1, kJuly1 + 3600, 60);
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("no history of card no-such-card"), std::string::npos);
    EXPECT_NE(unknown.error().message.find(file), std::string::npos);
    EXPECT_FALSE(readCardUsageSeries(dir.file("missing.db"), card, kJuly1, kJuly1 + 60, 60).ok());
}
