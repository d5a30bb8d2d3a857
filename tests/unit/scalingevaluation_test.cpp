// The evaluation's inputs and its verdicts: every real trace reads, broken ones are named
// by line, scaling keeps the shape, and on a crafted load step the policy decides within
// the minute and beats the utilisation-driven baseline on the same simulated replicas.
#include <gtest/gtest.h>

#include <fstream>

#include "scaling/evaluation.h"
#include "scaling/requesttrace.h"
#include "testsupport.h"

using namespace meridian;

TEST(RequestTrace, EveryRealTraceReads)
{
    MERIDIAN_REQUIRE_REAL_DATA();
    auto conv = loadRequestTrace(test::realData("traces/azure_llm_2023_conv.csv"));
    ASSERT_TRUE(conv.ok()) << conv.error().message;
    EXPECT_EQ(conv->requests.size(), 19'366u);  // as SOURCES.md counts them
    EXPECT_NEAR(conv->durationS, 3'502, 2);
    EXPECT_EQ(conv->requests.front().inputTokens, 374);
    auto mooncake = loadRequestTrace(test::realData("traces/mooncake_conversation_trace.jsonl"));
    ASSERT_TRUE(mooncake.ok()) << mooncake.error().message;
    EXPECT_EQ(mooncake->requests.size(), 12'031u);
    EXPECT_EQ(mooncake->requests.front().inputTokens, 6'758);
    // ServeGen rates become Poisson arrivals: the first hour of m-large averages 205.5/s.
    auto servegen =
        loadRequestTrace(test::realData("traces/servegen_m-large_agg_rate_10min.csv"), 3600);
    ASSERT_TRUE(servegen.ok()) << servegen.error().message;
    EXPECT_NEAR(servegen->requests.size() / 3600.0, 205.5, 3.0);  // the first six windows
    const RequestTrace doubled = scaleTrace(conv.value(), 2.0);
    EXPECT_EQ(doubled.requests.size(), 2 * conv->requests.size());
}

TEST(RequestTrace, BrokenTracesAreNamedByLine)
{
    test::TempDir dir;
    const std::string azure = dir.file("azure.csv");
    std::ofstream(azure) << "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                            "2023-11-16 18:15:46.6805900,374,44\n"
                            "2023-11-16 18:15:50.99,lots,109\n";
    auto bad = loadRequestTrace(azure);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(azure + ":3"), std::string::npos) << bad.error().message;
    const std::string jsonl = dir.file("mooncake.jsonl");
    std::ofstream(jsonl) << R"({"timestamp": 0, "input_length": 10, "output_length": 5})"
                            "\n"
                         << R"({"timestamp": 3, "input_length": -1, "output_length": 5})"
                            "\n";
    auto negative = loadRequestTrace(jsonl);
    ASSERT_FALSE(negative.ok());
    EXPECT_NE(negative.error().message.find(jsonl + ":2"), std::string::npos);
    const std::string other = dir.file("other.txt");
    std::ofstream(other) << "hello\n";
    EXPECT_NE(loadRequestTrace(other).error().message.find("not an Azure, Mooncake or ServeGen"),
              std::string::npos);
    std::ofstream(dir.file("empty.csv")) << "window_start_s,total_rate_rps\n";
    EXPECT_FALSE(loadRequestTrace(dir.file("empty.csv")).ok());
}

TEST(ScalingEvaluation, ALoadStepIsAnsweredWithinTheMinuteAndBeatsTheUtilisationRule)
{
    // Two hours of steady load that triples for an hour in the middle: 10 req/s, 30, 10.
    RequestTrace trace;
    trace.name = "step";
    for (int s = 0; s < 3 * 3600; ++s) {
        const int rate = s >= 3600 && s < 7200 ? 30 : 10;
        for (int i = 0; i < rate; ++i)
            trace.requests.push_back({s + i / static_cast<double>(rate), 800, 120});
    }
    trace.durationS = 3 * 3600;
    EvaluationOptions options;
    options.peakCards = 64;
    const EvaluationRun run = evaluateScaling(trace, options);
    ASSERT_EQ(run.results.size(), 6u);
    const EvaluationResult &meridian = run.results[0];
    const EvaluationResult &hpa = run.results[3];
    const EvaluationResult &oracle = run.results.back();
    ASSERT_EQ(meridian.autoscaler, "meridian");
    ASSERT_EQ(hpa.autoscaler, "hpa-style");
    EXPECT_GE(meridian.loadSteps, 1);
    EXPECT_LE(meridian.stepDecisionS, 60) << "a decision within the minute";
    // The minutes the new replicas take to provision and load are lost to any reactive
    // rule (docs/PERFORMANCE.md); the utilisation rule loses far more, and pays more.
    EXPECT_GE(meridian.withinSloShare, 0.9);
    EXPECT_GT(meridian.withinSloShare, hpa.withinSloShare + 0.05);
    EXPECT_LT(meridian.rentedCardHours, hpa.rentedCardHours);
    EXPECT_LT(meridian.rentedCardHours, run.results[4].rentedCardHours);  // knative-style
    EXPECT_LE(meridian.scaleActions, 10);
    EXPECT_GE(meridian.rentedCardHours, oracle.rentedCardHours) << "nobody beats foresight";
    const std::string table = evaluationTable(run);
    EXPECT_NE(table.find("knative-style"), std::string::npos);
    EXPECT_NE(evaluationJson(run).find("\"within_slo_share\""), std::string::npos);
}
