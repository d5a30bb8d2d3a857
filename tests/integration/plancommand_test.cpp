// `meridian plan`, the program, as a manager and a script run it: the plan of a real
// ServeGen trace as JSON (its pick keeps the objective and is the cheapest of the front
// that does), the backtest as CSV, and each mistake in the asking or the files named with
// its exit status.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "history/historyschema.h"
#include "sqlite/sqlitefile.h"
#include "testsupport.h"

namespace {

struct Ran {
    int status = -1;
    std::string out;
    std::string err;
};

Ran runPlan(const std::string &arguments)
{
    meridian::test::TempDir dir;
    const std::string command = std::string(MERIDIAN_CONSOLE_BIN) + " plan " + arguments + " > " +
                                dir.file("out") + " 2> " + dir.file("err");
    const int raw = std::system(command.c_str());
    Ran ran;
    ran.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    ran.out = meridian::test::readFile(dir.file("out"));
    ran.err = meridian::test::readFile(dir.file("err"));
    return ran;
}

const std::string kLarge = meridian::test::realData("traces/servegen_m-large_agg_rate_10min.csv");

}  // namespace

TEST(PlanCommand, AServeGenTracesPlanAsJsonKeepsTheObjectiveAtTheFrontsCheapest)
{
    const Ran ran = runPlan("--demand " + kLarge + " --format json");
    ASSERT_EQ(ran.status, 0) << ran.err;
    const auto plan = nlohmann::json::parse(ran.out);
    ASSERT_TRUE(plan.contains("recommended")) << ran.out;
    const auto &pick = plan["recommended"];
    EXPECT_GE(pick["inside_share"].get<double>(), 0.99);
    if (pick["owned_cards"].get<int>() > 0) {
        EXPECT_GE(pick["owned_busy_share"].get<double>(), 0.75);
        EXPECT_TRUE(plan.contains("payback_months"));
    }
    double cheapestKeeping = 1e18;
    for (const auto &mix : plan["front"]) {
        if (mix["inside_share"].get<double>() >= 0.99)
            cheapestKeeping = std::min(cheapestKeeping, mix["monthly_cny"].get<double>());
    }
    EXPECT_DOUBLE_EQ(pick["monthly_cny"].get<double>(), cheapestKeeping);
    EXPECT_EQ(plan["by_card"].size(), 5u) << "A100, H100, 910B, MLU370, DCU";
    EXPECT_EQ(plan["rules"].size(), 3u);
    EXPECT_EQ(plan["weeks_seen"].get<int>(), 2);
}

TEST(PlanCommand, TheBacktestAsCsvHasThePlanHindsightAndTheRules)
{
    const Ran ran = runPlan("--demand " + kLarge + " --backtest --format csv");
    ASSERT_EQ(ran.status, 0) << ran.err;
    EXPECT_EQ(ran.out.rfind("row,model,owned_cards,", 0), 0u) << ran.out;
    for (const char *row :
         {"\nplan,", "\nhindsight,", "\nall hourly,", "\nown the peak,", "\ncontract p50,"})
        EXPECT_NE(ran.out.find(row), std::string::npos) << row << " in " << ran.out;
}

TEST(PlanCommand, APdfForTheBudgetWithoutADisplay)
{
    meridian::test::TempDir dir;
    const Ran ran = runPlan("--demand " + kLarge + " --format pdf -o " + dir.file("plan.pdf"));
    ASSERT_EQ(ran.status, 0) << ran.err;
    EXPECT_EQ(meridian::test::readFile(dir.file("plan.pdf")).rfind("%PDF", 0), 0u);
    EXPECT_EQ(runPlan("--demand " + kLarge + " --format pdf").status, 2) << "a PDF needs -o";
}

TEST(PlanCommand, MistakesAreNamedWithTheirExitStatus)
{
    meridian::test::TempDir dir;
    std::ofstream(dir.file("short.csv")) << "minute_start_s,rps\n0,1\n60,2\n";
    std::ofstream(dir.file("bad.yaml")) << "cards:\n  - {model: A100-SXM4-80GB, rate: -2}\n";
    Ran ran = runPlan("--demand " + dir.file("short.csv"));
    EXPECT_EQ(ran.status, 1);
    EXPECT_NE(ran.err.find("a whole week"), std::string::npos) << ran.err;
    ran = runPlan("--demand " + dir.file("short.csv") + " --backtest");
    EXPECT_EQ(ran.status, 1);
    EXPECT_NE(ran.err.find("2 whole weeks"), std::string::npos) << ran.err;
    ran = runPlan("--demand " + kLarge + " --costs " + dir.file("bad.yaml"));
    EXPECT_EQ(ran.status, 1);
    EXPECT_NE(ran.err.find("bad.yaml:2"), std::string::npos) << ran.err;
    ran = runPlan("--demand " + dir.file("none.csv"));
    EXPECT_EQ(ran.status, 1);
    EXPECT_NE(ran.err.find("none.csv"), std::string::npos) << ran.err;
    EXPECT_EQ(runPlan("--demand " + kLarge + " --format pdf").status, 2);
    EXPECT_EQ(runPlan("--demand " + kLarge + " --peak-cards 0").status, 2);
    EXPECT_EQ(runPlan("").status, 2) << "--demand is needed";
}

// What a service's controller recorded in the history file, planned as it is: sized by a
// replica's rate, two weeks of hours with a daily wave, one hour missing and said.
TEST(PlanCommand, ARecordedServicesDemandIsPlannedFromTheHistoryFile)
{
    meridian::test::TempDir dir;
    const std::string file = dir.file("history.db");
    {
        auto db = meridian::openSqliteFile(file, meridian::historySchema());
        ASSERT_TRUE(db.ok()) << db.error().message;
        SQLite::Transaction tx(*db.value());
        const int64_t hour0 = 1'782'864'000 / 3600;
        for (int64_t h = 0; h < 2 * 168; ++h) {
            if (h == 200)
                continue;
            const double rps = 20 + 15 * std::sin(h * 2 * M_PI / 24);
            db.value()->exec("INSERT INTO demand_hour VALUES ('chat', " +
                             std::to_string(hour0 + h) + ", " + std::to_string(rps) + ", 60)");
        }
        tx.commit();
    }
    const Ran ran = runPlan("--db " + file + " --service chat --replica-rps 2.5 --format json");
    ASSERT_EQ(ran.status, 0) << ran.err;
    EXPECT_NE(ran.err.find("1 hour(s) of chat's demand were not recorded"), std::string::npos)
        << ran.err;
    const auto plan = nlohmann::json::parse(ran.out);
    EXPECT_EQ(plan["service"], "chat");
    EXPECT_EQ(plan["weeks_seen"].get<int>(), 2);
    ASSERT_TRUE(plan.contains("recommended")) << ran.out;
    // At 35 rps and 2.5 a replica its peak needs 14 A100 replicas: the plan's base is no
    // bigger than that, and something is planned.
    const int base = plan["recommended"]["owned_cards"].get<int>() +
                     plan["recommended"]["contract_cards"].get<int>();
    EXPECT_LE(base, 14 * 4 * 5) << "at most the peak on the slowest model";
    EXPECT_GT(plan["recommended"]["monthly_cny"].get<double>(), 0);
    EXPECT_EQ(runPlan("--db " + file + " --format json").status, 2) << "--service is needed";
    EXPECT_EQ(runPlan("--db " + file + " --service search").status, 1);
}

// The pick held to the request-level replay over the trace's first week (32 cards at the
// peak: 7 million requests, about 17 s): both figures said, side by side.
TEST(PlanCommand, ThePickIsReplayedRequestByRequestWhenAsked)
{
    const Ran ran = runPlan("--demand " + kLarge + " --peak-cards 32 --confirm --format json");
    ASSERT_EQ(ran.status, 0) << ran.err;
    const auto plan = nlohmann::json::parse(ran.out);
    ASSERT_TRUE(plan.contains("replay_confirmation")) << ran.out;
    const auto &confirmed = plan["replay_confirmation"];
    EXPECT_GT(confirmed["requests"].get<int64_t>(), 1'000'000);
    EXPECT_GE(confirmed["replayed_inside_share"].get<double>(), 0.98);
    EXPECT_GT(confirmed["model_inside_share"].get<double>(), 0.98);
    // A plan from recorded demand has no requests to replay: said, not guessed.
    EXPECT_EQ(runPlan("--demand " + kLarge + " --replica-rps 3 --confirm").status, 1);
}
