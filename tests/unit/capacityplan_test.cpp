// The capacity plan: one mix judged by hand, the forecast of a week, the search's front
// and its pick, bad cost and demand files named, the demand a controller records (its
// hours kept beside its minutes) read back, and the backtest on the three 14-day
// ServeGen traces (planned from days 1-7, judged on days 8-14) against the mix cheapest
// in hindsight and the simple rules; then the same weeks with ×1.5 and a growing trend
// laid over the week judged.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <random>

#include "autoscaler/scalingjournal.h"
#include "history/historyschema.h"
#include "plan/capacityplanner.h"
#include "plan/demandseries.h"
#include "plan/recordeddemand.h"
#include "sqlite/sqlitefile.h"
#include "testsupport.h"

using namespace meridian;

namespace {

// ServeGen's rate scaled so its busiest minute needs `peakReplicas` A100 replicas.
std::vector<double> serviceNeed(const std::string &trace, double peakReplicas)
{
    auto series = readDemandSeries(test::realData("traces/" + trace));
    EXPECT_TRUE(series.ok()) << series.error().message;
    return replicasAtPeak(series.value().rps, peakReplicas * 4, 4);
}

const BacktestRow &rowNamed(const Backtest &b, const std::string &name)
{
    return *std::find_if(b.rows.begin(), b.rows.end(),
                         [&](const BacktestRow &r) { return r.name == name; });
}

CardCost a100()
{
    return defaultCardCosts().front();
}

}  // namespace

TEST(MixJudge, OwnedServeAllTheTimeRentedComeALagLaterAndArePaidByTheStartedHour)
{
    // An hour at 2 replicas, then 30 minutes at 5, then an hour at 2 again.
    std::vector<double> need(60, 2.0);
    need.insert(need.end(), 30, 5.0);
    need.insert(need.end(), 60, 2.0);
    PlanModel model;              // 4 cards a replica, a 4-minute lag
    model.rentAtOccupancy = 1.0;  // rented for the demand at a replica's full rate
    const CardCost card = a100();
    const MixOutcome o = judgeMix(need, card, {0, 2, 0, 1.0}, model);
    // Three rented from minute 60, serving from 64: 4 minutes × 3 replicas missed of 3/5.
    EXPECT_NEAR(o.withinObjectiveShare, 1 - (4 * 3.0) / (120 * 2 + 30 * 5), 1e-9);
    // Held past the step down to the end of their paid hour: one hour each.
    EXPECT_NEAR(o.rentedCardHours, 3 * 4 * 1.0, 1e-9);
    EXPECT_NEAR(o.ownedCardHours, 2 * 4 * 2.5, 1e-9);
    EXPECT_NEAR(o.ownedUtilization, 1.0, 1e-9) << "two owned, always two busy";
    EXPECT_NEAR(o.costCny, 20 * card.ownedCnyPerHour() + 12 * card.cloudCnyPerHour, 1e-6);
    // Contracted instead of owned: the same service, the contract's price.
    const MixOutcome contracted = judgeMix(need, card, {0, 0, 2, 1.0}, model);
    EXPECT_EQ(contracted.withinObjectiveShare, o.withinObjectiveShare);
    EXPECT_NEAR(contracted.costCny, 20 * card.contractCnyPerHour() + 12 * card.cloudCnyPerHour,
                1e-6);
    // A rented replica still needed past its hour is paid another.
    std::vector<double> longer(60, 2.0);
    longer.insert(longer.end(), 90, 5.0);
    EXPECT_NEAR(judgeMix(longer, card, {0, 2, 0, 1.0}, model).rentedCardHours, 3 * 4 * 2.0, 1e-9);
    // As the controller rents, at 80% of a replica's rate: 2 / 0.8 needs one rented from
    // the start (held all 150 minutes: 3 paid hours), 5 / 0.8 four more for an hour each.
    model.rentAtOccupancy = 0.8;
    EXPECT_NEAR(judgeMix(need, card, {0, 2, 0, 1.0}, model).rentedCardHours, (3 + 4) * 4.0, 1e-9);
}

TEST(DemandForecast, AWeeksShapeRepeatedWithTheTrendOfTheWeeksSeen)
{
    // Four weeks, each a daily wave, each 10% (of the first) above the one before.
    std::vector<double> history;
    for (int w = 0; w < 4; ++w) {
        for (size_t m = 0; m < kMinutesAWeek; ++m)
            history.push_back((1 + 0.1 * w) * (10 + 5 * std::sin(m * 2 * M_PI / 1440)));
    }
    const DemandForecast f = forecastNextWeek(history);
    ASSERT_EQ(f.week.size(), kMinutesAWeek);
    EXPECT_EQ(f.weeksSeen, 4);
    EXPECT_NEAR(f.weeklyGrowth, 0.1 / 1.15, 1e-6) << "0.1 a week over the mean week, 1.15";
    // Week 5 is 1.4 × the first: the mean week carried two and a half weeks on.
    EXPECT_NEAR(f.week[360], 1.4 * 15, 1e-6);
    ASSERT_TRUE(f.lastWeekMiss.has_value());
    EXPECT_LT(*f.lastWeekMiss, 0.01) << "week 4 from weeks 1-3: a steady trend is foreseen";
    EXPECT_FALSE(f.unsure.empty()) << "growth of 9% a week is said";
    // Two weeks say their trend but plan on their mean: a line through two points is any.
    const DemandForecast two = forecastNextWeek(minutesOf(history, 0, 2 * kMinutesAWeek));
    EXPECT_NEAR(two.week[360], 1.05 * 15, 1e-6);
    EXPECT_NE(std::find_if(two.unsure.begin(), two.unsure.end(),
                           [](const std::string &s) { return s.find("not carried") != s.npos; }),
              two.unsure.end());

    const DemandForecast one = forecastNextWeek(minutesOf(history, 0, kMinutesAWeek));
    EXPECT_EQ(one.weeksSeen, 1);
    EXPECT_FALSE(one.lastWeekMiss.has_value());
    EXPECT_NE(std::find_if(one.unsure.begin(), one.unsure.end(),
                           [](const std::string &s) { return s.find("one week") != s.npos; }),
              one.unsure.end());
    EXPECT_TRUE(forecastNextWeek(std::vector<double>(100, 1.0)).week.empty());
}

TEST(CapacityPlan, TheFrontIsCheaperOnlyByKeepingFewerAndThePickKeepsTheObjective)
{
    const std::vector<double> need =
        minutesOf(serviceNeed("servegen_m-mid_agg_rate_10min.csv", 16), 0, kMinutesAWeek);
    PlanOptions options;
    const MixSearch search = searchMixes(need, defaultCardCosts(), options);
    ASSERT_TRUE(search.recommended.has_value());
    EXPECT_GT(search.judged, 1000u);
    const MixOutcome &pick = search.recommended->outcome;
    EXPECT_GE(pick.withinObjectiveShare, 0.99);
    if (search.recommended->mix.ownedReplicas > 0) {
        EXPECT_GE(pick.ownedUtilization, 0.75);
    }
    // Along the front each step costs more and keeps more inside.
    ASSERT_GE(search.front.size(), 2u);
    for (size_t i = 1; i < search.front.size(); ++i) {
        EXPECT_GE(search.front[i].outcome.costCny, search.front[i - 1].outcome.costCny);
        EXPECT_GT(search.front[i].outcome.withinObjectiveShare,
                  search.front[i - 1].outcome.withinObjectiveShare);
    }
    // No mix judged again by hand beats the pick at the objective.
    const CardCost &card = defaultCardCosts()[search.recommended->mix.card];
    const MixOutcome again = judgeMix(need, card, search.recommended->mix, options.model);
    EXPECT_NEAR(again.costCny, pick.costCny, 1e-6);
    EXPECT_NEAR(again.withinObjectiveShare, pick.withinObjectiveShare, 1e-12);
}

// The goal: planned from days 1-7, judged on days 8-14 of each ServeGen trace, the plan
// within 5% of the hindsight-best mix, ≥ 99% inside, owned cards ≥ 75% busy; and cheaper
// than each simple rule that keeps the objective as well.
TEST(CapacityPlan, OnEachServeGenTraceThePlanIsWithinFivePercentOfHindsightAndBeatsTheRules)
{
    for (const char *trace :
         {"servegen_m-large_agg_rate_10min.csv", "servegen_m-mid_agg_rate_10min.csv",
          "servegen_m-small_agg_rate_10min.csv"}) {
        const std::vector<double> need = serviceNeed(trace, 16);  // 64 A100s at the peak
        ASSERT_GE(need.size(), 2 * kMinutesAWeek) << trace;
        const auto started = std::chrono::steady_clock::now();
        const Backtest b = backtestPlan(need, 1, defaultCardCosts(), PlanOptions{});
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        ASSERT_FALSE(b.rows.empty()) << trace;
        const BacktestRow &plan = rowNamed(b, "plan");
        const BacktestRow &best = rowNamed(b, "hindsight");
        fmt::print(
            "{}: plan {:.0f} CNY ({:.4f} inside, owned {:.0f}% busy), hindsight {:.0f}; "
            "forecast missed the week by {:.1f}%; {:.1f} s\n",
            trace, plan.judged.costCny, plan.judged.withinObjectiveShare,
            plan.judged.ownedUtilization * 100, best.judged.costCny, b.judgedWeekMiss * 100,
            seconds);
        for (const BacktestRow &r : b.rows)
            fmt::print(
                "  {:>14}: card {} owned {} contract {} headroom {:.2f}: {:.0f} CNY, "
                "{:.4f} inside\n",
                r.name, r.mix.card, r.mix.ownedReplicas, r.mix.contractReplicas, r.mix.headroom,
                r.judged.costCny, r.judged.withinObjectiveShare);
        EXPECT_LE(plan.judged.costCny, best.judged.costCny * 1.05) << trace;
        EXPECT_GE(plan.judged.withinObjectiveShare, 0.99) << trace;
        if (plan.mix.ownedReplicas > 0) {
            EXPECT_GE(plan.judged.ownedUtilization, 0.75) << trace;
        }
        for (const BacktestRow &rule : b.rows) {
            if (rule.name == "plan" || rule.name == "hindsight")
                continue;
            if (rule.judged.withinObjectiveShare >= plan.judged.withinObjectiveShare - 1e-9) {
                EXPECT_LT(plan.judged.costCny, rule.judged.costCny) << trace << " " << rule.name;
            }
        }
    }
}

// The week judged is not the week planned for: ×1.5 flat, or growing 10% a day, over days
// 8-14, three seeds of noise on each. The plan keeps the objective wherever a rule does,
// and the backtest says the week surprised it.
TEST(CapacityPlan, AWeekAfterThatRunsAwayIsSaidAndThePlanKeepsTheObjectiveWhereARuleDoes)
{
    const std::vector<double> base = serviceNeed("servegen_m-large_agg_rate_10min.csv", 16);
    for (const char *overlay : {"x1.5", "growing"}) {
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            std::mt19937_64 random(seed);
            std::normal_distribution<double> noise(1.0, 0.03);
            std::vector<double> need(base.begin(), base.begin() + 2 * kMinutesAWeek);
            for (size_t m = kMinutesAWeek; m < need.size(); ++m) {
                const double day = static_cast<double>(m - kMinutesAWeek) / 1440;
                need[m] *= (overlay[0] == 'x' ? 1.5 : 1 + 0.1 * day) * noise(random);
            }
            const Backtest b = backtestPlan(need, 1, defaultCardCosts(), PlanOptions{});
            const BacktestRow &plan = rowNamed(b, "plan");
            EXPECT_NE(
                std::find_if(b.unsure.begin(), b.unsure.end(),
                             [](const std::string &s) { return s.find("plan again") != s.npos; }),
                b.unsure.end())
                << overlay << " seed " << seed;
            // Renting follows what the week brings: the objective is still kept wherever a
            // rule keeps it (owning the peak keeps more, at twice the plan's cost).
            for (const BacktestRow &rule : b.rows) {
                if (rule.name == "plan" || rule.name == "hindsight" ||
                    rule.judged.withinObjectiveShare < 0.99)
                    continue;
                EXPECT_GE(plan.judged.withinObjectiveShare, 0.99)
                    << overlay << " seed " << seed << ": " << rule.name << " keeps it";
            }
        }
    }
}

TEST(CapacityPlan, BrokenDemandAndCostFilesAreRefusedWithTheirPlace)
{
    test::TempDir dir;
    const auto write = [&](const char *name, const std::string &text) {
        std::ofstream(dir.file(name)) << text;
        return dir.file(name);
    };
    const auto refused = [](const auto &result, const std::string &where) {
        ASSERT_FALSE(result.ok()) << where;
        EXPECT_NE(result.error().message.find(where), std::string::npos) << result.error().message;
    };
    refused(readDemandSeries(write("a.csv", "TIMESTAMP,ContextTokens\n")), "a.csv:1");
    refused(readDemandSeries(write("b.csv", "minute_start_s,rps\n0,1\n60,-3\n")), "b.csv:3");
    refused(readDemandSeries(write("c.csv", "minute_start_s,rps\n0,1\n600,2\n")), "c.csv:3");
    refused(readDemandSeries(write("d.csv", "minute_start_s,rps\n0,nan\n")), "d.csv:2");
    refused(readDemandSeries(write("e.csv", "minute_start_s,rps\n")), "no minutes");
    refused(readDemandSeries(dir.file("none.csv")), "none.csv");
    auto minutes = readDemandSeries(write("f.csv", "minute_start_s,rps\n0,1.5\n60,2\n"));
    ASSERT_TRUE(minutes.ok()) << minutes.error().message;
    EXPECT_EQ(minutes.value().rps, (std::vector<double>{1.5, 2}));

    refused(loadCardCosts(write("k.yaml", "cards:\n  - {model: A100-SXM4-80GB, colour: red}\n")),
            "k.yaml:2");
    refused(loadCardCosts(write("l.yaml", "cards:\n  - {model: X9, rate: 1}\n")), "l.yaml:2");
    refused(loadCardCosts(write("m.yaml",
                                "cards:\n  - {model: Ascend-910B,\n"
                                "     cloud_cny_per_hour: -1}\n")),
            "m.yaml:3");
    refused(loadCardCosts(write("n.yaml", "cards: [\n")), "n.yaml");
    auto costs = loadCardCosts(write("o.yaml",
                                     "cards:\n  - {model: A100-SXM4-80GB, "
                                     "purchase_cny: 120000}\n"
                                     "  - {model: X9, rate: 1.2, purchase_cny: 1, "
                                     "cloud_cny_per_hour: 3}\n"));
    ASSERT_TRUE(costs.ok()) << costs.error().message;
    EXPECT_EQ(costs.value().front().purchaseCny, 120'000);
    EXPECT_EQ(costs.value().back().model, "X9");
    EXPECT_EQ(costs.value().size(), defaultCardCosts().size() + 1);
}

// The demand a controller keeps: each finished minute also makes its hour's mean, written
// again when the minute is, and hours are kept 400 days while minutes go after the
// forecast's days; in the history file and in meridian-scaled's own journal alike.
TEST(RecordedDemand, EachMinuteMakesItsHourAndHoursOutliveTheMinutes)
{
    test::TempDir dir;
    const int64_t first = 1'782'864'000 / 60;  // 2026-07-01 00:00 UTC, in minutes
    for (const bool own : {false, true}) {
        const std::string file = dir.file(own ? "journal.db" : "history.db");
        auto journal = own ? ScalingJournal::openOwn(file) : ScalingJournal::open(file);
        ASSERT_TRUE(journal.ok()) << journal.error().message;
        // Two hours at 10 rps (two samples a minute), the minutes before the last hour let go.
        for (int64_t m = first; m < first + 120; ++m)
            ASSERT_TRUE(journal.value()->keepDemandMinute("chat", {m, 20, 2}, first + 60).ok());
        // The last minute comes again, fuller: its hour is made again, not added to.
        ASSERT_TRUE(
            journal.value()->keepDemandMinute("chat", {first + 119, 90, 3}, first + 60).ok());
        journal.value().reset();
        auto recorded = readRecordedDemand(file, "chat");
        ASSERT_TRUE(recorded.ok()) << recorded.error().message;
        ASSERT_EQ(recorded->series.rps.size(), 120u);
        EXPECT_EQ(recorded->firstMinute, first);
        EXPECT_EQ(recorded->gapMinutes, 0u);
        EXPECT_DOUBLE_EQ(recorded->series.rps[0], 10) << "the first hour from its mean alone";
        EXPECT_DOUBLE_EQ(recorded->series.rps[119], 30) << "a kept minute is its own";
        EXPECT_DOUBLE_EQ(recorded->series.rps[60], 10);
        // Its hour's mean: 59 minutes at 10 and one at 30.
        SQLite::Database db(file);
        EXPECT_NEAR(db.execAndGet("SELECT arrival_rps_mean FROM demand_hour WHERE hour_index = " +
                                  std::to_string(first / 60 + 1))
                        .getDouble(),
                    (59 * 10 + 30) / 60.0, 1e-9);
        EXPECT_EQ(db.execAndGet("SELECT count(*) FROM demand_minute").getInt(), 60);
        EXPECT_EQ(readRecordedDemand(file, "search").error().message.find("no demand recorded"),
                  file.size() + 2);
    }
}

TEST(RecordedDemand, AGapIsTheSameHourOfOtherWeeksAndAStrangeFileIsRefused)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    {
        auto db = openSqliteFile(file, historySchema());
        ASSERT_TRUE(db.ok()) << db.error().message;
        const int64_t hour0 = 1'782'864'000 / 3600;
        // Three weeks of hours at 5 rps, hour 7 of week 2 at 9: week 3's hour 7 is missing.
        for (int64_t h = 0; h < 3 * 168; ++h) {
            if (h == 2 * 168 + 7)
                continue;
            db.value()->exec(fmt::format("INSERT INTO demand_hour VALUES ('chat', {}, {}, 60)",
                                         hour0 + h, h == 168 + 7 ? 9.0 : 5.0));
        }
    }
    auto recorded = readRecordedDemand(file, "chat");
    ASSERT_TRUE(recorded.ok()) << recorded.error().message;
    EXPECT_EQ(recorded->gapMinutes, 60u);
    EXPECT_DOUBLE_EQ(recorded->series.rps[(2 * 168 + 7) * 60], 7) << "weeks 1 and 2: 5 and 9";

    std::ofstream(dir.file("notes.db")) << std::string(4096, 'x');
    EXPECT_FALSE(readRecordedDemand(dir.file("notes.db"), "chat").ok());
    EXPECT_NE(readRecordedDemand(dir.file("gone.db"), "chat").error().message.find("gone.db"),
              std::string::npos);
    {
        SQLite::Database newer(file, SQLite::OPEN_READWRITE);
        newer.exec("PRAGMA user_version = 99");
    }
    EXPECT_NE(readRecordedDemand(file, "chat").error().message.find("newer Meridian"),
              std::string::npos);
}

// The cost side kept in the price book is what the plan prices by; a book without one
// gives the provider's figures.
TEST(CapacityPlan, ThePriceBooksCostSideIsWhatThePlanPricesBy)
{
    test::TempDir dir;
    auto shipped = loadCardCosts(MERIDIAN_SOURCE_DIR "/resources/pricebook.yaml");
    ASSERT_TRUE(shipped.ok()) << shipped.error().message;
    ASSERT_EQ(shipped->size(), defaultCardCosts().size());
    for (size_t i = 0; i < shipped->size(); ++i) {
        EXPECT_EQ((*shipped)[i].model, defaultCardCosts()[i].model);
        EXPECT_DOUBLE_EQ((*shipped)[i].ownedCnyPerHour(), defaultCardCosts()[i].ownedCnyPerHour());
        EXPECT_DOUBLE_EQ((*shipped)[i].cloudCnyPerHour, defaultCardCosts()[i].cloudCnyPerHour);
    }
    auto cheaper = loadCardCosts(dir.write(
        "prices.yaml", "prices: []\ncard_costs:\n  - {model: Ascend-910B, purchase_cny: 60000}\n"));
    ASSERT_TRUE(cheaper.ok()) << cheaper.error().message;
    EXPECT_DOUBLE_EQ((*cheaper)[2].purchaseCny, 60'000);
    auto none = loadCardCosts(dir.write("plain.yaml", "prices: []\n"));
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->size(), defaultCardCosts().size());
}
