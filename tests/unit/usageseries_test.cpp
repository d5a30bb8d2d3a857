// Usage read back from a real history file as series: a card's utilisation and power
// (minutes for a day or less, hours beyond, steps with nothing recorded as gaps, a card
// the file does not know named as such), and the fleet's and each data center's hours.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <fstream>

#include <cmath>

#include "history/cardusageseries.h"
#include "history/fleetusageseries.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;
using test::kJuly1;

TEST(CardUsageSeries, MinutesForADayHoursForAWeekAndGapsWhereNothingWasRecorded)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    // Two hours of one node, then nothing for an hour, then an hour more.
    ASSERT_TRUE(
        test::writeUsageHistory(
            file, {test::a100Minutes("xm-1", "xiamen", 2, kJuly1, 120, 45, 12'000),
                   test::a100Minutes("xm-1", "xiamen", 2, kJuly1 + 3 * 3600, 60, 30, 24'000)})
            .ok());
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

    // A card the file does not know yet has a gap in every step, not an error.
    const auto unknown = readCardUsageSeries(file, "no-such-card", kJuly1, kJuly1 + 3600, 60);
    ASSERT_TRUE(unknown.ok()) << unknown.error().message;
    ASSERT_EQ(unknown->size(), 60u);
    for (const UsageSeriesPoint &p : unknown.value())
        EXPECT_TRUE(std::isnan(p.utilizationPercent));
    const auto missing = readCardUsageSeries(dir.file("missing.db"), card, kJuly1, kJuly1 + 60, 60);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("missing.db"), std::string::npos);
}

// The card panel says since when history exists: the oldest row at any grain.
TEST(CardUsageSeries, HistoryBeginsAtItsOldestRow)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    ASSERT_TRUE(test::writeUsageHistory(
                    file, {test::a100Minutes("xm-1", "xiamen", 1, kJuly1 + 600, 30, 45, 12'000)})
                    .ok());
    const auto begins = readHistoryBeginsUnixS(file);
    ASSERT_TRUE(begins.ok()) << begins.error().message;
    ASSERT_TRUE(begins->has_value());
    // Not the midnight its day's roll-up starts at: its first minute.
    EXPECT_EQ(begins->value(), kJuly1 + 600);

    // Minutes past retention are dropped; their hours still say where history begins.
    const std::string old = dir.file("old.db");
    {
        auto store = HistoryStore::open(old, HistoryRetention{1, 400});
        ASSERT_TRUE(store.ok()) << store.error().message;
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 1, kJuly1 + 600, 30, 45, 0));
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 1, kJuly1 + 3 * 86400, 30, 45, 0));
        ASSERT_TRUE(store.value()->flush().ok());
        ASSERT_TRUE(store.value()->applyRetention(kJuly1 + 3 * 86400 + 3600).ok());
    }
    const auto fromHours = readHistoryBeginsUnixS(old);
    ASSERT_TRUE(fromHours.ok()) << fromHours.error().message;
    ASSERT_TRUE(fromHours->has_value());
    EXPECT_EQ(fromHours->value(), kJuly1);  // the hour that held kJuly1 + 600

    const std::string fresh = dir.file("fresh.db");
    ASSERT_TRUE(test::writeUsageHistory(fresh, {}).ok());
    const auto none = readHistoryBeginsUnixS(fresh);
    ASSERT_TRUE(none.ok()) << none.error().message;
    EXPECT_FALSE(none->has_value());
    EXPECT_FALSE(readHistoryBeginsUnixS(dir.file("missing.db")).ok());
}

TEST(FleetUsageSeries, EachDataCentersHoursWithAnHourWithoutDataLeftOut)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    // Xiamen: 4 cards busy 45 s a minute for two hours; Wuhu: 2 cards at 30 s for the
    // first hour; then nobody for an hour; then Xiamen again for an hour.
    ASSERT_TRUE(
        test::writeUsageHistory(
            file, {test::a100Minutes("xm-1", "xiamen", 4, kJuly1, 120, 45, 12'000),
                   test::a100Minutes("wh-1", "wuhu", 2, kJuly1, 60, 30, 12'000),
                   test::a100Minutes("xm-1", "xiamen", 4, kJuly1 + 3 * 3600, 60, 15, 12'000)})
            .ok());
    auto series = readFleetUsageByHour(file, kJuly1, kJuly1 + 24 * 3600);
    ASSERT_TRUE(series.ok()) << series.error().message;
    ASSERT_EQ(series->fleet.size(), 3u) << "the silent hour has no point";
    EXPECT_EQ(series->fleet[0].hourUnixS, kJuly1);
    EXPECT_EQ(series->fleet[0].cards, 6);
    EXPECT_NEAR(series->fleet[0].cardHours, 6, 1e-9);
    // (4 × 75% + 2 × 50%) / 6
    EXPECT_NEAR(*series->fleet[0].meanUtilizationPercent(), 400.0 / 6, 1e-9);
    EXPECT_EQ(series->fleet[2].hourUnixS, kJuly1 + 3 * 3600);
    ASSERT_EQ(series->dataCenters.size(), 2u);
    EXPECT_EQ(series->dataCenters.at("wuhu").size(), 1u);
    EXPECT_NEAR(*series->dataCenters.at("wuhu")[0].meanUtilizationPercent(), 50, 1e-9);
    ASSERT_EQ(series->dataCenters.at("xiamen").size(), 3u);
    EXPECT_NEAR(*series->dataCenters.at("xiamen")[2].meanUtilizationPercent(), 25, 1e-9);
    const FleetUsagePoint xiamen = FleetUsageSeries::total(series->dataCenters.at("xiamen"));
    EXPECT_NEAR(xiamen.cardHours, 12, 1e-9);
    EXPECT_NEAR(*xiamen.meanUtilizationPercent(), (75 + 75 + 25) / 3.0, 1e-9);
    EXPECT_FALSE(readFleetUsageByHour(dir.file("missing.db"), kJuly1, kJuly1 + 3600).ok());
}

TEST(UsageSeries, ACorruptOrForeignFileIsAnErrorNamingItNeverACrash)
{
    test::TempDir dir;
    const std::string garbage = dir.file("garbage.db");
    std::ofstream(garbage) << std::string(8192, '\x5a');
    const std::string foreign = dir.file("foreign.db");
    {
        SQLite::Database db(foreign, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE t (x)");
    }
    for (const std::string &file : {garbage, foreign}) {
        const auto fleet = readFleetUsageByHour(file, kJuly1, kJuly1 + 86400);
        ASSERT_FALSE(fleet.ok()) << file;
        EXPECT_NE(fleet.error().message.find(file), std::string::npos) << fleet.error().message;
        const auto card = readCardUsageSeries(file, "xm-1-0", kJuly1, kJuly1 + 3600, 60);
        ASSERT_FALSE(card.ok()) << file;
        EXPECT_NE(card.error().message.find(file), std::string::npos) << card.error().message;
    }
}
