// Roll-ups stay in step with the minutes (a re-sync replaces, never adds), retention
// drops minutes and hours without changing any report, the analysts' cost view agrees
// with the report, and cloud leases cost what the pool charged.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include "autoscaler/scalingjournal.h"
#include "cost/costrecords.h"
#include "cost/reportloader.h"
#include "cost/usagereport.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;

namespace {

using test::kDay;
using test::kHour;
using test::kJuly1;

double sumOf(const std::string &path, const std::string &sql)
{
    SQLite::Database db(path);
    return db.execAndGet(sql).getDouble();
}

PriceBook a100At2Yuan()
{
    PriceBook prices;
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "", 2.0, kJuly1 - 30 * kDay, {}});
    return prices;
}

}  // namespace

TEST(HistoryRollups, HoursAndDaysFollowTheMinutesAndARewriteReplacesThem)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    auto store = HistoryStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    // 2 cards from 22:00 on the 1st to 02:00 on the 2nd, busy 30 s of each minute.
    store.value()->submit(
        test::a100Minutes("xm-1", "xiamen", 2, kJuly1 + 22 * kHour, 240, 30, 600));
    ASSERT_TRUE(store.value()->flush().ok());
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT sum(busy_seconds) FROM usage_hour"), 2 * 240 * 30);
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT count(*) FROM usage_hour"), 2 * 4);
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT count(*) FROM usage_day"), 2 * 2);
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT sum(minutes) FROM usage_day"), 2 * 240);
    // The agent re-sends the last hour with more busy time: it replaces, in every grain.
    store.value()->submit(test::a100Minutes("xm-1", "xiamen", 2, kJuly1 + 25 * kHour, 60, 60, 600));
    ASSERT_TRUE(store.value()->flush().ok());
    const double busy = 2 * (180 * 30 + 60 * 60);
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT sum(busy_seconds) FROM usage_minute"), busy);
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT sum(busy_seconds) FROM usage_hour"), busy);
    EXPECT_DOUBLE_EQ(sumOf(path, "SELECT sum(busy_seconds) FROM usage_day"), busy);
    EXPECT_DOUBLE_EQ(sumOf(path,
                           "SELECT sum(utilization_percent_seconds) / "
                           "sum(utilization_seconds) FROM usage_day"),
                     100.0 * busy / (2 * 240 * 60));
}

TEST(HistoryRollups, RetentionDropsMinutesAndHoursButNoReportChanges)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    auto store = HistoryStore::open(path, {14, 400});
    ASSERT_TRUE(store.ok());
    for (int day = 0; day < 3; ++day) {
        store.value()->submit(
            test::a100Minutes("wh-1", "wuhu", 4, kJuly1 + day * kDay + 6 * kHour, 600, 45, 900));
    }
    ASSERT_TRUE(store.value()->flush().ok());
    const PriceBook prices = a100At2Yuan();
    const ReportRequest month{kJuly1, kJuly1 + 31 * kDay, ReportGroup::DataCenter, kJuly1};
    const ReportRequest morning{kJuly1 + kDay + 6 * kHour, kJuly1 + kDay + 12 * kHour,
                                ReportGroup::DataCenter, kJuly1};
    auto before = buildUsageReport(path, prices, month);
    auto morningBefore = buildUsageReport(path, prices, morning);
    ASSERT_TRUE(before.ok() && morningBefore.ok());
    // 4 cards × 3 days × 10 h × 2.0 CNY.
    EXPECT_NEAR(before->total.costCny, 240.0, 1e-9);
    EXPECT_NEAR(morningBefore->total.costCny, 4 * 6 * 2.0, 1e-9);

    // Fifteen days later the minutes are gone, the hours and days still answer.
    ASSERT_TRUE(store.value()->applyRetention(kJuly1 + 18 * kDay).ok());
    EXPECT_EQ(store.value()->minuteCount(), 0);
    auto after = buildUsageReport(path, prices, month);
    auto morningAfter = buildUsageReport(path, prices, morning);
    ASSERT_TRUE(after.ok() && morningAfter.ok());
    EXPECT_NEAR(after->total.costCny, before->total.costCny, 1e-9);
    EXPECT_NEAR(after->total.busyCardHours, before->total.busyCardHours, 1e-9);
    EXPECT_NEAR(morningAfter->total.costCny, morningBefore->total.costCny, 1e-9);
    // A late minute for a day whose minutes are gone would half-rebuild it: ignored.
    store.value()->submit(
        test::a100Minutes("wh-1", "wuhu", 4, kJuly1 + kDay + 6 * kHour, 1, 60, 0));
    ASSERT_TRUE(store.value()->flush().ok());
    EXPECT_NEAR(buildUsageReport(path, prices, month)->total.costCny, 240.0, 1e-9);

    // A year and more later only the days are left; a month still adds up.
    ASSERT_TRUE(store.value()->applyRetention(kJuly1 + 420 * kDay).ok());
    EXPECT_EQ(sumOf(path, "SELECT count(*) FROM usage_hour"), 0);
    EXPECT_NEAR(buildUsageReport(path, prices, month)->total.costCny, 240.0, 1e-9);
}

TEST(HistoryRollups, TheAnalystsCostViewAgreesWithTheReport)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    PriceBook prices = a100At2Yuan();
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "xiamen", 2.4, kJuly1 + kDay, {}});
    prices.addContract({"acme", "wuhu", "", "", kJuly1 - 100 * kDay, kJuly1 + 100 * kDay, 10});
    {
        auto store = HistoryStore::open(path);
        ASSERT_TRUE(store.ok());
        ASSERT_TRUE(recordPrices(*store.value(), prices).ok());
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 2, kJuly1, 2 * 1440, 20, 600));
        store.value()->submit(test::a100Minutes("wh-1", "wuhu", 3, kJuly1, 2 * 1440, 50, 600));
        ASSERT_TRUE(store.value()->flush().ok());
    }
    auto report = buildUsageReport(path, prices, {kJuly1, kJuly1 + 2 * kDay});
    ASSERT_TRUE(report.ok()) << report.error().message;
    // By hand: Xiamen 2 cards × 24 h × (2.0 + 2.4) = 211.2; Wuhu 3 × 48 h × 2.0 × 0.9 = 259.2.
    EXPECT_NEAR(report->rows[1].costCny, 211.2, 1e-9);
    EXPECT_NEAR(report->rows[0].costCny, 259.2, 1e-9);
    EXPECT_NEAR(sumOf(path, "SELECT sum(cost_cny) FROM v_cost_by_dc_day"), 211.2 + 259.2, 1e-9);
    EXPECT_NEAR(sumOf(path, "SELECT sum(idle_cost_cny) FROM v_cost_by_dc_day"),
                report->total.idleCostCny, 1e-9);
    EXPECT_NEAR(sumOf(path, "SELECT sum(busy_card_hours) FROM v_usage_by_dc_day"),
                report->total.busyCardHours, 1e-9);
}

TEST(HistoryRollups, CostPerInferenceServiceAndCloudLeasesAtThePoolsPrice)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    const int64_t t0 = kJuly1 + 8 * kHour;
    {
        auto store = HistoryStore::open(path);
        ASSERT_TRUE(store.ok());
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 4, t0, 120, 50, 0, "chat"));
        store.value()->submit(test::a100Minutes("xm-2", "xiamen", 2, t0, 120, 0, 0));
        // A rented node: 8 cards for 2 h of minutes, leased at 6.0 CNY per card-hour,
        // created 10 min before its first minute and released 2 h 20 min later.
        store.value()->submit(test::a100Minutes("cloud-1", "cloud", 8, t0, 120, 60, 0, "chat"));
        CloudLease lease;
        lease.leaseId = "L-1";
        lease.region = "cn-east";
        lease.cardModel = "A100-SXM4-80GB";
        lease.nodes = 1;
        lease.cardsPerNode = 8;
        lease.cnyPerCardHour = 6.0;
        lease.createdUnixS = t0 - 600;
        lease.releasedUnixS = t0 + 2 * kHour + 800;
        lease.nodeIds = {"cloud-1"};
        ASSERT_TRUE(recordCloudLeases(*store.value(), {lease}).ok());
        ASSERT_TRUE(store.value()->flush().ok());
    }
    {
        // The autoscaler rented it for chat: its journal says so.
        auto journal = ScalingJournal::open(path);
        ASSERT_TRUE(journal.ok()) << journal.error().message;
        JournalStep step;
        step.service = "chat";
        step.idempotencyKey = "chat-1";
        step.state = StepState::Serving;
        step.offerId = "cn-east-a100";
        step.leaseId = "L-1";
        ASSERT_TRUE(journal.value()->addStep(step, "meridian-autoscaler", "load", t0).ok());
    }
    const PriceBook prices = a100At2Yuan();
    auto report =
        buildUsageReport(path, prices, {kJuly1, kJuly1 + kDay, ReportGroup::Service, kJuly1});
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_EQ(report->rows.size(), 2u);
    const ReportRow &chat = report->rows[0];  // the larger value first
    const ReportRow &none = report->rows[1];
    EXPECT_EQ(none.group, "(no service)");
    EXPECT_NEAR(none.costCny, 2 * 2 * 2.0, 1e-9);
    EXPECT_NEAR(none.idleCostCny, none.costCny, 1e-9);
    EXPECT_EQ(chat.group, "chat");
    EXPECT_EQ(chat.cards, 12);
    // Own cards at the price book, the rented node at the lease's price.
    EXPECT_NEAR(chat.costCny, 4 * 2 * 2.0 + 8 * 2 * 6.0, 1e-9);
    // Billed hours: increments start at t0-10m, t0+50m, t0+1h50m; the lease ended at
    // t0+2h13m20s, so three whole hours × 8 cards × 6.0.
    ASSERT_EQ(report->cloud.size(), 1u);
    EXPECT_NEAR(report->cloud[0].billedHours, 3.0, 1e-9);
    EXPECT_NEAR(report->cloudSpendCny, 144.0, 1e-9);
    // Cloud spend belongs to the service it was rented for.
    EXPECT_EQ(report->cloud[0].service, "chat");
    ASSERT_EQ(report->cloudSpendByService().size(), 1u);
    EXPECT_EQ(report->cloudSpendByService()[0].first, "chat");
    // Each table its own CSV, each row with the period it covers.
    const std::string groups = reportToCsv(report.value());
    EXPECT_EQ(groups.find("lease_id"), std::string::npos) << "one table per file";
    EXPECT_NE(groups.find("\n2026-07-01,2026-07-01,chat,12,"), std::string::npos) << groups;
    const std::string cloud = cloudSpendToCsv(report.value());
    EXPECT_NE(cloud.find("2026-07-01,2026-07-01,L-1,chat,cn-east,"), std::string::npos) << cloud;
    // Only the first hour of the day after the lease started: one increment.
    auto firstHour = buildUsageReport(path, prices, {t0 - kHour, t0, ReportGroup::Service, kJuly1});
    ASSERT_TRUE(firstHour.ok());
    EXPECT_NEAR(firstHour->cloudSpendCny, 48.0, 1e-9);
}

TEST(HistoryRollups, DailyTrendBucketsAddUpToThePeriod)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    {
        auto store = HistoryStore::open(path);
        ASSERT_TRUE(store.ok());
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 2, kJuly1 + 12 * kHour, 3 * 1440, 30, 600));
        ASSERT_TRUE(store.value()->flush().ok());
    }
    const PriceBook prices = a100At2Yuan();
    const ReportRequest request{kJuly1, kJuly1 + 4 * kDay, ReportGroup::DataCenter, kJuly1};
    auto trend = buildUsageTrend(path, prices, request, kDay);
    auto whole = buildUsageReport(path, prices, request);
    ASSERT_TRUE(trend.ok() && whole.ok());
    ASSERT_EQ(trend->buckets.size(), 4u);
    double cost = 0;
    for (const UsageReport &day : trend->buckets)
        cost += day.total.costCny;
    EXPECT_NEAR(cost, whole->total.costCny, 1e-9);
    EXPECT_NEAR(trend->buckets[0].total.cardHours, 2 * 12.0, 1e-9);
    EXPECT_NEAR(trend->buckets[1].total.cardHours, 2 * 24.0, 1e-9);
    EXPECT_EQ(trend->buckets[3].fromUnixS, kJuly1 + 3 * kDay);
    // Weeks start on Monday: 2026-07-01 is a Wednesday, so the first week is 5 days.
    auto weeks = buildUsageTrend(path, prices, {kJuly1, kJuly1 + 14 * kDay}, 7 * kDay);
    ASSERT_TRUE(weeks.ok());
    EXPECT_EQ(weeks->buckets[0].toUnixS, kJuly1 + 5 * kDay);
}
