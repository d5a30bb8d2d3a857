// The history file's budgets: usage rows written per second (a back-fill and the live
// minute-by-minute flow), a month's report over 6,000 cards, bytes per card-month, and
// how long a scaling-journal step waits for the one writer thread while a back-fill runs.
//   history_bench [DIR]   (default: a fresh directory under /tmp)
#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "autoscaler/scalingjournal.h"
#include "cost/reportloader.h"
#include "cost/usagereport.h"
#include "history/cardusageseries.h"
#include "history/fleetusageseries.h"
#include "history/historystore.h"

using namespace meridian;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kNodes = 750;  // × 8 cards = 6,000
constexpr int kCards = 8;
constexpr int64_t kJuly1 = 1'782'864'000;  // 2026-07-01T00:00:00Z
constexpr int64_t kDay = 86400;

UsageBatch nodeMinutes(int node, int64_t firstMinute, int minutes, int strideMinutes = 1)
{
    UsageBatch batch;
    batch.node.nodeId = "n" + std::to_string(node);
    batch.node.dataCenter = node % 3 == 0 ? "xiamen" : node % 3 == 1 ? "wuhu" : "zhongwei";
    batch.node.rack = "r" + std::to_string(node / 16);
    batch.node.hostname = batch.node.nodeId;
    for (int c = 0; c < kCards; ++c) {
        CardInfo info;
        info.index = static_cast<uint32_t>(c);
        info.uuid = batch.node.nodeId + "-" + std::to_string(c);
        info.vendor = node % 2 ? Vendor::Nvidia : Vendor::Huawei;
        info.model = node % 2 ? "A100-SXM4-80GB" : "Ascend 910B";
        batch.node.cards.push_back(info);
        for (int m = 0; m < minutes; ++m) {
            const double busy = (node * 7 + c * 13 + m) % 61;
            batch.minutes.push_back({firstMinute + int64_t{m} * strideMinutes * 60, info.index,
                                     info.uuid, 60, busy, busy / 60 * 100, 18'000.0,
                                     c < 4 ? "chat-support" : ""});
        }
    }
    return batch;
}

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

void writeThroughput(const std::string &dir)
{
    {
        auto store = HistoryStore::open(dir + "/backfill.db");
        const auto start = Clock::now();
        for (int node = 0; node < kNodes; ++node)  // one hour missed by every node
            store.value()->submit(nodeMinutes(node, kJuly1, 60));
        if (!store.value()->flush().ok())
            std::printf("write failed\n");
        const double rows = kNodes * kCards * 60.0;
        std::printf("back-fill, 1 h of 6,000 cards: %.0f rows in %.2f s = %.0f rows/s\n", rows,
                    seconds(start), rows / seconds(start));
    }
    {
        auto store = HistoryStore::open(dir + "/live.db");
        const auto start = Clock::now();
        for (int minute = 0; minute < 30; ++minute) {  // each agent's minute as it comes
            for (int node = 0; node < kNodes; ++node)
                store.value()->submit(nodeMinutes(node, kJuly1 + minute * 60, 1));
        }
        if (!store.value()->flush().ok())
            std::printf("write failed\n");
        const double rows = kNodes * kCards * 30.0;
        std::printf(
            "live, 30 minutes of 6,000 cards one node at a time: %.0f rows in %.2f s "
            "= %.0f rows/s\n",
            rows, seconds(start), rows / seconds(start));
    }
}

// A step journalled and moved on (two durable writes), as a scale-up does, timed 200
// times: on an idle file, then while a back-fill of three hours of 6,000 cards streams in.
// The journal's work runs on the writer thread ahead of queued batches, so it waits for
// at most the transaction in progress.
void journalDuringBackfill(const std::string &dir)
{
    const auto timeSteps = [](ScalingJournal &journal, const std::string &tag) {
        std::vector<double> ms;
        for (int i = 0; i < 200; ++i) {
            JournalStep step;
            step.service = "chat";
            step.idempotencyKey = tag + "-" + std::to_string(i);
            step.offerId = "cn-south-910b";
            const auto start = Clock::now();
            auto id = journal.addStep(step, "bench", "load", 0);
            if (!id || !journal.moveStep(*id, StepState::Leasing, "", "", 1))
                std::printf("journal write failed\n");
            ms.push_back(seconds(start) * 1000);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        std::sort(ms.begin(), ms.end());
        return std::array{ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back()};
    };
    auto store = HistoryStore::open(dir + "/journal.db");
    auto journal = ScalingJournal::onWriter(*store.value());
    const auto idle = timeSteps(*journal, "idle");
    std::thread backfill([&] {
        for (int hour = 0; hour < 3; ++hour) {
            for (int node = 0; node < kNodes; ++node)
                store.value()->submit(nodeMinutes(node, kJuly1 + hour * 3600, 60));
        }
    });
    const auto busy = timeSteps(*journal, "busy");
    backfill.join();
    if (!store.value()->flush().ok())
        std::printf("write failed\n");
    std::printf("journal step (write + move), idle file: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
                idle[0], idle[1], idle[2]);
    std::printf("journal step during a back-fill:      p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
                busy[0], busy[1], busy[2]);
}

void monthReport(const std::string &dir)
{
    const std::string path = dir + "/month.db";
    {
        // A month of 6,000 cards, one sampled minute per card-hour: the roll-ups get every
        // hour and day row a full month has; the minutes are thinned to keep set-up short.
        auto store = HistoryStore::open(path);
        const auto start = Clock::now();
        for (int node = 0; node < kNodes; ++node)
            store.value()->submit(nodeMinutes(node, kJuly1, 31 * 24, 60));
        if (!store.value()->flush().ok())
            std::printf("write failed\n");
        std::printf("set-up: a month of 6,000 cards written in %.1f s\n", seconds(start));
    }
    PriceBook prices;
    prices.addRule({"", Vendor::Huawei, "", 1.2, kJuly1 - 365 * kDay, {}});
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "", 2.0, kJuly1 - 365 * kDay, {}});
    prices.addRule({"A100-SXM4-80GB", Vendor::Unknown, "xiamen", 2.1, kJuly1 + 15 * kDay, {}});
    prices.addContract({"acme", "wuhu", "", "", kJuly1 - 100 * kDay, kJuly1 + 200 * kDay, 10});
    const auto run = [&](const char *what, ReportRequest request) {
        double best = 1e9;
        UsageReport report;
        for (int i = 0; i < 5; ++i) {
            const auto start = Clock::now();
            auto built = buildUsageReport(path, prices, request);
            best = std::min(best, seconds(start));
            report = std::move(built).value();
        }
        std::printf("%s: %.0f ms (best of 5), %d cards, %.0f card-hours, %.0f CNY\n", what,
                    best * 1000, report.total.cards, report.total.cardHours, report.total.costCny);
    };
    run("July by data center", {kJuly1, kJuly1 + 31 * kDay, ReportGroup::DataCenter, kJuly1});
    run("July by node", {kJuly1, kJuly1 + 31 * kDay, ReportGroup::Node, kJuly1});
    run("July by service", {kJuly1, kJuly1 + 31 * kDay, ReportGroup::Service, kJuly1});
    run("1st 10:30 to 31st 15:45 by model (hour and minute edges)",
        {kJuly1 + 37'800, kJuly1 + 30 * kDay + 56'700, ReportGroup::Model, kJuly1});
    const auto start = Clock::now();
    auto trend = buildUsageTrend(path, prices, {kJuly1, kJuly1 + 31 * kDay}, kDay);
    std::printf("July as a daily trend (31 reports): %.0f ms\n", seconds(start) * 1000);
}

// July with five days missing for every node (the console was off): the report the
// Reports window asks for (the month, its daily trend and the month before) and its
// coverage.
void monthReportWithGaps(const std::string &dir)
{
    const std::string path = dir + "/gaps.db";
    {
        auto store = HistoryStore::open(path);
        for (int node = 0; node < kNodes; ++node) {
            store.value()->submit(nodeMinutes(node, kJuly1, 9 * 24, 60));
            store.value()->submit(nodeMinutes(node, kJuly1 + 14 * kDay, 17 * 24, 60));
        }
        if (!store.value()->flush().ok())
            std::printf("write failed\n");
    }
    PriceBook prices;
    prices.addRule({"", Vendor::Unknown, "", 2.0, kJuly1 - 365 * kDay, {}});
    double best = 1e9;
    LoadedReport loaded;
    for (int i = 0; i < 5; ++i) {
        const auto start = Clock::now();
        loaded =
            loadReport(path, prices,
                       {{kJuly1, kJuly1 + 31 * kDay, ReportGroup::DataCenter, kJuly1 + 31 * kDay},
                        kDay,
                        true});
        best = std::min(best, seconds(start));
    }
    const UsageReport &report = loaded.report.value();
    int emptyDays = 0;
    for (const UsageReport &day : loaded.trend.value().buckets)
        emptyDays += day.total.cardHours == 0;
    // One sampled minute per card-hour is written (to keep set-up short), so coverage
    // reads about 1/60 of what full minutes give; the days without data are the point.
    std::printf(
        "July with 5 days missing, with its daily trend and June: %.0f ms (best of 5), "
        "%d cards, coverage %.2f%%, %d days without data\n",
        best * 1000, report.total.cards,
        report.coveragePercent(report.total.cardHours, report.total.cards).value_or(0), emptyDays);
}

// The views that read the history file as series: the Fleet utilisation window's day and
// week (every card's hours), and one card's day (minutes) and week (hours) in its panel.
void usageSeries(const std::string &dir)
{
    const std::string path = dir + "/month.db";  // written by monthReport
    const auto best = [](auto read) {
        double fastest = 1e9;
        for (int i = 0; i < 5; ++i) {
            const auto start = Clock::now();
            if (!read())
                std::printf("read failed\n");
            fastest = std::min(fastest, seconds(start));
        }
        return fastest * 1000;
    };
    const int64_t end = kJuly1 + 31 * kDay;
    std::printf("fleet utilisation, 24 h of 6,000 cards by hour: %.0f ms (best of 5)\n",
                best([&] { return readFleetUsageByHour(path, end - kDay, end).ok(); }));
    std::printf("fleet utilisation, 7 days of 6,000 cards by hour: %.0f ms (best of 5)\n",
                best([&] { return readFleetUsageByHour(path, end - 7 * kDay, end).ok(); }));
    std::printf(
        "one card, 24 h by minute: %.1f ms; 7 days by hour: %.1f ms (best of 5)\n",
        best([&] { return readCardUsageSeries(path, "n7-3", end - kDay, end, 240).ok(); }),
        best([&] { return readCardUsageSeries(path, "n7-3", end - 7 * kDay, end, 1680).ok(); }));
}

void sizePerCardMonth(const std::string &dir)
{
    const std::string path = dir + "/size.db";
    {
        auto store = HistoryStore::open(path);
        for (int node = 0; node < 25; ++node)  // 200 cards, one full day of minutes each
            store.value()->submit(nodeMinutes(node, kJuly1, 1440));
        if (!store.value()->flush().ok())
            std::printf("write failed\n");
    }
    SQLite::Database db(path);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const auto bytes = [&](const char *tables) {
        return db
            .execAndGet(std::string("SELECT total(pgsize) FROM dbstat WHERE name IN (") + tables +
                        ")")
            .getDouble();
    };
    const double cardDays = 200;
    const double minuteBytes = bytes("'usage_minute', 'usage_minute_by_time'") / (cardDays * 1440);
    const double hourBytes = bytes("'usage_hour'") / (cardDays * 24);
    const double dayBytes = bytes("'usage_day'") / cardDays;
    std::printf("bytes per row: minute %.1f, hour %.1f, day %.1f\n", minuteBytes, hourBytes,
                dayBytes);
    const double month = 30;
    std::printf(
        "per card-month: %.2f MB while its minutes are kept, %.1f KB after (hours "
        "and days), %.2f KB after 400 days (days only)\n",
        (minuteBytes * 1440 + hourBytes * 24 + dayBytes) * month / 1e6,
        (hourBytes * 24 + dayBytes) * month / 1e3, dayBytes * month / 1e3);
    std::printf(
        "steady state for 6,000 cards (14 d minutes, 400 d hours, 1 year of days): "
        "%.1f GB\n",
        6000 * (minuteBytes * 1440 * 14 + hourBytes * 24 * 400 + dayBytes * 365) / 1e9);
}

}  // namespace

int main(int argc, char **argv)
{
    std::string dir = argc > 1 ? argv[1] : "";
    if (dir.empty()) {
        dir = (std::filesystem::temp_directory_path() / "meridian-history-bench").string();
        std::filesystem::remove_all(dir);
    }
    std::filesystem::create_directories(dir);
    writeThroughput(dir);
    journalDuringBackfill(dir);
    sizePerCardMonth(dir);
    monthReport(dir);
    usageSeries(dir);
    monthReportWithGaps(dir);
    return 0;
}
