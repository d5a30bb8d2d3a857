// A replica's own metrics, read as its engine writes them: the exposition format with
// labels, escapes and NaN; vLLM's names summed over its engines; the TTFT p95 of an
// interval from the histogram's growth; a restarted replica starts its rates over; and
// a /metrics that is not metrics is refused with its line.
#include <gtest/gtest.h>

#include <cmath>

#include "replicas/replicametrics.h"
#include "telemetry/expositionreader.h"

using namespace meridian;

namespace {

// In the shape vLLM 0.10 writes (two engine cores of one model).
std::string vllmScrape(double ttftUnderHalf, double ttftUnderTwo, double ttftAll, double finished)
{
    return "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.\n"
           "# TYPE vllm:num_requests_waiting gauge\n"
           "vllm:num_requests_waiting{engine=\"0\",model_name=\"qwen\"} 3.0\n"
           "vllm:num_requests_waiting{engine=\"1\",model_name=\"qwen\"} 2.0\n"
           "vllm:num_requests_running{engine=\"0\",model_name=\"qwen\"} 16.0\n"
           "vllm:num_requests_running{engine=\"1\",model_name=\"qwen\"} 15.0\n"
           "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"qwen\"} 0.42\n"
           "# TYPE vllm:time_to_first_token_seconds histogram\n"
           "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.5\",model_name=\"qwen\"} " +
           std::to_string(ttftUnderHalf) +
           "\n"
           "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"2.0\",model_name=\"qwen\"} " +
           std::to_string(ttftUnderTwo) +
           "\n"
           "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"qwen\"}"
           " " +
           std::to_string(ttftAll) +
           "\n"
           "vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"qwen\"} " +
           std::to_string(ttftAll) +
           "\n"
           "vllm:request_success_total{engine=\"0\",finished_reason=\"stop\",model_name=\"qwen\"}"
           " " +
           std::to_string(finished) + "\n";
}

ReplicaScrape scrape(const std::string &text, ServingEngine engine = ServingEngine::Vllm)
{
    auto samples = readExposition(text, "replica");
    EXPECT_TRUE(samples.ok()) << samples.error().message;
    return samples.ok() ? readReplicaScrape(*samples, engine) : ReplicaScrape{};
}

}  // namespace

TEST(ExpositionReader, SamplesLabelsEscapesAndSpecialValues)
{
    auto samples = readExposition(
        "# TYPE a counter\n"
        "a_total 12 1700000000000\n"
        "b{path=\"C:\\\\x\",msg=\"say \\\"hi\\\"\\n\"} NaN\n"
        "c{le=\"+Inf\"} +Inf\n"
        "d 1.5e+06\n"
        "# EOF\n",
        "scrape");
    ASSERT_TRUE(samples.ok()) << samples.error().message;
    ASSERT_EQ(samples->size(), 4u);
    EXPECT_EQ((*samples)[0].name, "a_total");
    EXPECT_EQ((*samples)[0].value, 12);
    EXPECT_EQ((*samples)[1].label("path"), "C:\\x");
    EXPECT_EQ((*samples)[1].label("msg"), "say \"hi\"\n");
    EXPECT_TRUE(std::isnan((*samples)[1].value));
    EXPECT_TRUE(std::isinf((*samples)[2].value));
    EXPECT_EQ((*samples)[3].value, 1.5e6);
}

TEST(ExpositionReader, WhatIsNotMetricsIsNamedByLine)
{
    auto html = readExposition("# ok\n<html><body>502 Bad Gateway</body></html>\n",
                               "http://127.0.0.1:8000/metrics");
    ASSERT_FALSE(html.ok());
    EXPECT_EQ(html.error().message.rfind("http://127.0.0.1:8000/metrics:2: not a metric", 0), 0u)
        << html.error().message;
    auto word = readExposition("vllm:num_requests_waiting lots\n", "r");
    ASSERT_FALSE(word.ok());
    EXPECT_NE(word.error().message.find("r:1: vllm:num_requests_waiting: 'lots'"),
              std::string::npos);
    EXPECT_FALSE(readExposition("x{le=\"0.5} 1\n", "r").ok());  // label never closed
}

TEST(ReplicaMetrics, VllmSeriesAreSummedOverEngines)
{
    const ReplicaScrape s = scrape(vllmScrape(10, 20, 20, 100));
    EXPECT_EQ(s.waiting, 5);
    EXPECT_EQ(s.running, 31);
    EXPECT_DOUBLE_EQ(*s.kvCacheUsed, 0.42);
    ASSERT_EQ(s.ttftBuckets.size(), 3u);
    EXPECT_EQ(s.ttftBuckets.back().second, 20);
    // Older vLLM calls the KV gauge gpu_cache_usage_perc; MindIE drops the prefix.
    EXPECT_DOUBLE_EQ(*scrape("vllm:gpu_cache_usage_perc 0.7\n").kvCacheUsed, 0.7);
    const ReplicaScrape mindie =
        scrape("num_requests_waiting{model_name=\"m\"} 4\nnpu_cache_usage_perc 0.3\n",
               ServingEngine::MindIe);
    EXPECT_EQ(mindie.waiting, 4);
    EXPECT_DOUBLE_EQ(*mindie.kvCacheUsed, 0.3);
}

TEST(ReplicaMetrics, QueueingDelayComesFromVllmsQueueTimeHistogram)
{
    const auto queueTime = [](double underOne, double all) {
        return "# TYPE vllm:request_queue_time_seconds histogram\n"
               "vllm:request_queue_time_seconds_bucket{engine=\"0\",le=\"1.0\"} " +
               std::to_string(underOne) +
               "\n"
               "vllm:request_queue_time_seconds_bucket{engine=\"0\",le=\"5.0\"} " +
               std::to_string(all) +
               "\n"
               "vllm:request_queue_time_seconds_bucket{engine=\"0\",le=\"+Inf\"} " +
               std::to_string(all) + "\n";
    };
    ReplicaSignalsTracker tracker;
    tracker.update(scrape(vllmScrape(100, 100, 100, 100) + queueTime(50, 50)), 0);
    // In the interval: 10 waited under a second, 10 between 1 and 5 s.
    const ReplicaSignals s =
        tracker.update(scrape(vllmScrape(110, 120, 120, 140) + queueTime(60, 70)), 10'000);
    ASSERT_TRUE(s.queueDelayP95Seconds);
    EXPECT_NEAR(*s.queueDelayP95Seconds, 1.0 + 4.0 * 9 / 10, 1e-9);
    // An engine that does not write it has none, and its TTFT still reads.
    ReplicaSignalsTracker plain;
    plain.update(scrape(vllmScrape(100, 100, 100, 100)), 0);
    const ReplicaSignals without = plain.update(scrape(vllmScrape(110, 120, 120, 140)), 10'000);
    EXPECT_FALSE(without.queueDelayP95Seconds);
    EXPECT_TRUE(without.ttftP95Seconds);
}

TEST(ReplicaMetrics, TtftPercentileIsOfTheIntervalNotTheLifetime)
{
    // 100 fast first tokens long ago; in the interval, 10 more under 0.5 s and 10 between
    // 0.5 and 2 s: the interval's p95 lies in the upper bucket, where a lifetime
    // percentile would have said under 0.5 s.
    ReplicaSignalsTracker tracker;
    const ReplicaSignals first = tracker.update(scrape(vllmScrape(100, 100, 100, 100)), 0);
    EXPECT_FALSE(first.ttftP95Seconds) << "one scrape has no interval";
    EXPECT_EQ(first.waitingRequests, 5u);
    const ReplicaSignals second = tracker.update(scrape(vllmScrape(110, 120, 120, 140)), 10'000);
    ASSERT_TRUE(second.ttftP95Seconds);
    // rank 19 of 20: 9 into the 10 of the (0.5, 2] bucket → 0.5 + 1.5 × 9/10.
    EXPECT_NEAR(*second.ttftP95Seconds, 1.85, 1e-9);
    EXPECT_NEAR(*second.requestsPerSecond, 4.0, 1e-9);
    // The replica restarted: its counters begin again, and nothing is made up.
    const ReplicaSignals restarted = tracker.update(scrape(vllmScrape(1, 1, 1, 2)), 20'000);
    EXPECT_FALSE(restarted.ttftP95Seconds);
    EXPECT_FALSE(restarted.requestsPerSecond);
    EXPECT_EQ(restarted.runningRequests, 31u);
}
