// The utilisation/cost report over a real history file, with costs computed by hand
// across a price change and a contract discount.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cost/reportloader.h"
#include "cost/usagereport.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;

namespace {

using test::kJuly1;

}  // namespace

TEST(UsageReport, CostByDataCenterAcrossAPriceChangeAndAContract)
{
    test::TempDir dir;
    std::ofstream(dir.file("prices.yaml")) << R"(prices:
  - {model: A100-SXM4-80GB, cny_per_card_hour: 2.0, from: 2026-01-01}
  - {model: A100-SXM4-80GB, data_center: xiamen, cny_per_card_hour: 2.1, from: 2026-07-01}
contracts:
  - {customer: acme, data_center: wuhu, from: 2026-01-01, to: 2026-12-31}
)";
    auto prices = PriceBook::load(dir.file("prices.yaml"));
    ASSERT_TRUE(prices.ok()) << prices.error().message;
    {
        auto store = HistoryStore::open(dir.file("history.db"));
        ASSERT_TRUE(store.ok());
        // Xiamen: 4 cards, 2 h before midnight and 2 h after, busy 75% of the time.
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 4, kJuly1 - 2 * 3600, 4 * 60, 45, 12'000.0));
        // Wuhu: 2 cards, 4 h under the 12-month contract, idle half the time.
        store.value()->submit(
            test::a100Minutes("wh-1", "wuhu", 2, kJuly1 - 2 * 3600, 4 * 60, 30, 12'000.0));
        ASSERT_TRUE(store.value()->flush().ok());
    }
    auto report = buildUsageReport(dir.file("history.db"), prices.value(),
                                   {kJuly1 - 86400, kJuly1 + 86400, ReportGroup::DataCenter});
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_EQ(report->rows.size(), 2u);
    // The largest value first, as the window, the CSV and the PDF all list them.
    const ReportRow &xiamen = report->rows[0];
    const ReportRow &wuhu = report->rows[1];
    // By hand. Xiamen: 4 cards × (2 h × 2.0 + 2 h × 2.1) = 32.8 CNY; idle 25% of that = 8.2.
    EXPECT_EQ(xiamen.group, "xiamen");
    EXPECT_EQ(xiamen.cards, 4);
    EXPECT_NEAR(xiamen.cardHours, 16.0, 1e-9);
    EXPECT_NEAR(xiamen.busyCardHours, 12.0, 1e-9);
    EXPECT_NEAR(xiamen.costCny, 32.8, 1e-9);
    EXPECT_NEAR(xiamen.idleCostCny, 8.2, 1e-9);
    EXPECT_NEAR(xiamen.energyKwh, 16 * 60 * 12'000.0 / 3.6e6, 1e-9);
    // Wuhu: 2 cards × 4 h × 2.0 × 0.9 = 14.4 CNY; idle half = 7.2.
    EXPECT_EQ(wuhu.group, "wuhu");
    EXPECT_NEAR(wuhu.costCny, 14.4, 1e-9);
    EXPECT_NEAR(wuhu.idleCostCny, 7.2, 1e-9);
    EXPECT_NEAR(report->total.costCny, 47.2, 1e-9);
    EXPECT_EQ(report->total.cards, 6);

    const std::string csv = reportToCsv(report.value());
    // Coverage: 16 card-hours of the 4 cards × 48 h of the two days.
    EXPECT_NE(csv.find("xiamen,4,16.000,8.3,12.000,75.0,4.000,75.0,32.80,8.20"), std::string::npos)
        << csv;
    EXPECT_NE(csv.find("total,6,"), std::string::npos);
    const auto json = nlohmann::json::parse(reportToJson(report.value()));
    EXPECT_EQ(json["group_by"], "dc");
    EXPECT_EQ(json["rows"].back()["group"], "total");
    EXPECT_NEAR(json["rows"].back()["value_cny"].get<double>(), 47.2, 1e-9);
    EXPECT_NEAR(json["rows"].back()["coverage_percent"].get<double>(), 100.0 / 12, 1e-9);
    // The period as the CSV writes it: its first and last (included) days.
    EXPECT_EQ(json["period_from"], "2026-06-30");
    EXPECT_EQ(json["period_to"], "2026-07-01");

    // Only the hours before midnight: the old price alone.
    auto before = buildUsageReport(dir.file("history.db"), prices.value(),
                                   {kJuly1 - 86400, kJuly1, ReportGroup::Model});
    ASSERT_TRUE(before.ok());
    EXPECT_NEAR(before->total.costCny, 4 * 2 * 2.0 + 2 * 2 * 2.0 * 0.9, 1e-9);
}

TEST(UsageReport, CardsWrittenUnderTheDriversNameArePricedByTheCataloguesName)
{
    // A history file from before the catalogue: an NVML agent's cards are stored as
    // "NVIDIA A100-SXM4-80GB", and the price book says A100-SXM4-80GB.
    test::TempDir dir;
    std::ofstream(dir.file("prices.yaml"))
        << "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 2.0, from: 2026-01-01}\n";
    auto prices = PriceBook::load(dir.file("prices.yaml"));
    ASSERT_TRUE(prices.ok()) << prices.error().message;
    {
        auto store = HistoryStore::open(dir.file("history.db"));
        ASSERT_TRUE(store.ok());
        UsageBatch batch = test::a100Minutes("xm-1", "xiamen", 2, kJuly1, 60, 30, 0);
        for (CardInfo &card : batch.node.cards)
            card.model = "NVIDIA A100-SXM4-80GB";
        store.value()->submit(std::move(batch));
        ASSERT_TRUE(store.value()->flush().ok());
    }
    auto report = buildUsageReport(dir.file("history.db"), prices.value(),
                                   {kJuly1, kJuly1 + 3600, ReportGroup::Model});
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_EQ(report->rows.size(), 1u);
    EXPECT_EQ(report->rows[0].group, "A100-SXM4-80GB");
    EXPECT_NEAR(report->total.costCny, 2 * 1 * 2.0, 1e-9) << "priced as no model";
}

TEST(UsageReport, RevenuePerCustomerFollowsTheirContractsInTime)
{
    test::TempDir dir;
    // Acme takes Wuhu from midnight on; before, its cards sold at list price.
    std::ofstream(dir.file("prices.yaml")) << R"(prices:
  - {model: A100-SXM4-80GB, cny_per_card_hour: 2.0, from: 2026-01-01}
contracts:
  - {customer: acme, data_center: wuhu, from: 2026-07-01, to: 2027-07-01}
)";
    auto prices = PriceBook::load(dir.file("prices.yaml"));
    ASSERT_TRUE(prices.ok()) << prices.error().message;
    {
        auto store = HistoryStore::open(dir.file("history.db"));
        ASSERT_TRUE(store.ok());
        store.value()->submit(
            test::a100Minutes("wh-1", "wuhu", 2, kJuly1 - 2 * 3600, 4 * 60, 30, 0));
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 1, kJuly1 - 2 * 3600, 4 * 60, 30, 0));
        ASSERT_TRUE(store.value()->flush().ok());
    }
    auto report = buildUsageReport(dir.file("history.db"), prices.value(),
                                   {kJuly1 - 86400, kJuly1 + 86400, ReportGroup::Customer});
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_EQ(report->rows.size(), 2u);
    const ReportRow &listPrice = report->rows[0];
    const ReportRow &acme = report->rows[1];
    EXPECT_EQ(listPrice.group, "(no contract)");
    EXPECT_EQ(acme.group, "acme");
    // Acme: 2 cards × 2 h after midnight × 2.0 less the year-long contract's 10%.
    EXPECT_NEAR(acme.costCny, 2 * 2 * 2.0 * 0.9, 1e-9);
    EXPECT_NEAR(acme.cardHours, 4.0, 1e-9);
    // List price: Wuhu's 2 h before midnight and Xiamen's 4 h.
    EXPECT_NEAR(listPrice.costCny, (2 * 2 + 1 * 4) * 2.0, 1e-9);
    EXPECT_NEAR(report->total.costCny, acme.costCny + listPrice.costCny, 1e-9);
    EXPECT_EQ(reportGroupFromName("customer"), ReportGroup::Customer);
}

TEST(UsageReport, NoHistoryYetAndEmptyPeriodsAreSaidPlainly)
{
    test::TempDir dir;
    PriceBook prices;
    auto missing = buildUsageReport(dir.file("none.db"), prices, {0, 60, ReportGroup::Node});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("meridian sync"), std::string::npos);
    auto backwards = buildUsageReport(dir.file("none.db"), prices, {60, 0, ReportGroup::Node});
    ASSERT_FALSE(backwards.ok());
    EXPECT_NE(backwards.error().message.find("--to must be after --from"), std::string::npos);
    EXPECT_FALSE(reportGroupFromName("rack").has_value());
    EXPECT_EQ(reportGroupFromName("vendor"), ReportGroup::Vendor);
}
