// The report's arithmetic on its own: rows in, groups, prices and totals out, no file.
#include <gtest/gtest.h>

#include "cost/usagetally.h"
#include "testsupport.h"

namespace meridian {
namespace {

using test::kHour;
using test::kJuly1;

UsageCatalog twoDataCenters()
{
    UsageCatalog catalog;
    catalog.cards.resize(4);
    catalog.cards[1] = CardPlace{"A100-SXM4-80GB", Vendor::Nvidia, "xiamen", "xm-n1"};
    catalog.cards[2] = CardPlace{"A100-SXM4-80GB", Vendor::Nvidia, "wuhu", "wh-n1"};
    catalog.cards[3] = CardPlace{"A100-SXM4-80GB", Vendor::Nvidia, "wuhu", "cloud-n1"};
    catalog.services = {{7, "chat"}};
    catalog.leasePriceByNode = {{"cloud-n1", 9.0}};
    return catalog;
}

UsageRow hourOf(int64_t card, double busySeconds, int64_t service = 0)
{
    return {card, service, 3600, busySeconds, 3.6e6, 3600, 3600 * 50.0};
}

TEST(UsageTally, GroupsPricesAndTotalsRows)
{
    const UsageCatalog catalog = twoDataCenters();
    PriceBook prices;
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "", 2.0, kJuly1, std::nullopt});
    UsageTally tally(catalog, prices, {kJuly1, kJuly1 + kHour, ReportGroup::DataCenter, kJuly1});
    tally.beginSegment(kJuly1);
    tally.add(hourOf(1, 1800));
    tally.add(hourOf(2, 3600));
    tally.add(hourOf(3, 0));   // a rented node: billed at its lease's price
    tally.add(hourOf(99, 0));  // no such card: left out
    const UsageReport report = std::move(tally).finish();

    ASSERT_EQ(report.rows.size(), 2u);
    EXPECT_EQ(report.rows[0].group, "wuhu");  // natural order
    EXPECT_EQ(report.rows[0].cards, 2);
    EXPECT_NEAR(report.rows[0].costCny, 2.0 + 9.0, 1e-9);
    EXPECT_NEAR(report.rows[0].idleCostCny, 9.0, 1e-9);
    EXPECT_EQ(report.rows[1].group, "xiamen");
    EXPECT_NEAR(report.rows[1].busyCardHours, 0.5, 1e-9);
    EXPECT_NEAR(report.rows[1].idleCostCny, 1.0, 1e-9);
    EXPECT_EQ(report.total.cards, 3);
    EXPECT_NEAR(report.total.cardHours, 3.0, 1e-9);
    EXPECT_NEAR(report.total.energyKwh, 3.0, 1e-9);
    EXPECT_NEAR(*report.total.meanUtilizationPercent(), 50.0, 1e-9);
}

TEST(UsageTally, APriceChangeSplitsThePeriodAndEachSegmentPaysItsOwn)
{
    const UsageCatalog catalog = twoDataCenters();
    PriceBook prices;
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "", 2.0, kJuly1, kJuly1 + kHour});
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "", 5.0, kJuly1 + kHour, std::nullopt});
    const std::vector<int64_t> edges = priceSegments(prices, kJuly1, kJuly1 + 3 * kHour);
    ASSERT_EQ(edges, (std::vector<int64_t>{kJuly1, kJuly1 + kHour, kJuly1 + 3 * kHour}));

    UsageTally tally(catalog, prices, {kJuly1, kJuly1 + 3 * kHour, ReportGroup::Model, kJuly1});
    tally.beginSegment(edges[0]);
    tally.add(hourOf(1, 3600));
    tally.beginSegment(edges[1]);
    tally.add(hourOf(1, 3600));
    tally.add(hourOf(1, 3600));
    const UsageReport report = std::move(tally).finish();
    ASSERT_EQ(report.rows.size(), 1u);
    EXPECT_NEAR(report.rows[0].costCny, 2.0 + 5.0 + 5.0, 1e-9);
}

TEST(UsageTally, UnpricedHoursAreCountedNotBilledAndServicesGroupByName)
{
    const UsageCatalog catalog = twoDataCenters();
    UsageTally tally(catalog, PriceBook{}, {kJuly1, kJuly1 + kHour, ReportGroup::Service, kJuly1});
    tally.beginSegment(kJuly1);
    tally.add(hourOf(1, 3600, 7));
    tally.add(hourOf(2, 3600, 8));  // a service id the file does not name
    const UsageReport report = std::move(tally).finish();
    ASSERT_EQ(report.rows.size(), 2u);
    EXPECT_EQ(report.rows[0].group, "(no service)");
    EXPECT_EQ(report.rows[1].group, "chat");
    EXPECT_NEAR(report.total.costCny, 0.0, 1e-9);
    EXPECT_NEAR(report.total.unpricedCardHours, 2.0, 1e-9);
}

}  // namespace
}  // namespace meridian
