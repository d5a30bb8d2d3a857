// What a serving replica says about itself, read from its own Prometheus metrics: the
// requests waiting and running, KV-cache use, and TTFT from its histogram. Each engine
// names these differently:
//   vLLM     vllm:num_requests_waiting, vllm:num_requests_running,
//            vllm:kv_cache_usage_perc (vllm:gpu_cache_usage_perc before v0.10),
//            vllm:time_to_first_token_seconds (histogram), vllm:request_success_total
//   MindIE   num_requests_waiting, num_requests_running, npu_cache_usage_perc,
//            time_to_first_token_seconds, request_success_total
//   TGI      tgi_queue_size, tgi_batch_current_size, tgi_request_count (no TTFT
//            histogram: TGI's latency histograms are per phase, not to the first token)
//   llama.cpp llamacpp:requests_deferred, llamacpp:requests_processing,
//            llamacpp:kv_cache_usage_ratio, llamacpp:requests_total... (no TTFT)
// Series of one name are summed (vLLM labels by model and engine). The TTFT p95 and
// the request rate are over the interval between two scrapes, from the histogram's and
// the counter's growth, as Prometheus's histogram_quantile and rate() would give them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/nodetypes.h"
#include "core/servingcommand.h"
#include "telemetry/expositionreader.h"

namespace meridian {

struct ReplicaScrape {
    std::optional<double> waiting;
    std::optional<double> running;
    std::optional<double> kvCacheUsed;                        // 0..1
    std::vector<std::pair<double, double>> ttftBuckets;       // (le, cumulative count), by le
    std::vector<std::pair<double, double>> queueTimeBuckets;  // likewise, waiting for a batch
    std::optional<double> finishedRequests;                   // a counter
};

ReplicaScrape readReplicaScrape(const std::vector<ExpositionSample> &samples, ServingEngine engine);

// The q-quantile (0..1) of the observations between two cumulative histograms, with
// Prometheus's linear interpolation inside a bucket; nothing observed: no value.
std::optional<double> histogramQuantile(double q,
                                        const std::vector<std::pair<double, double>> &before,
                                        const std::vector<std::pair<double, double>> &after);

// One replica's signals from scrape to scrape.
class ReplicaSignalsTracker {
public:
    // Signals for the interval since the previous scrape (rates and TTFT need two; a
    // counter that went backwards means the replica restarted and starts over).
    ReplicaSignals update(const ReplicaScrape &scrape, int64_t atUnixMs);

private:
    std::optional<ReplicaScrape> m_previous;
    int64_t m_previousMs = 0;
};

}  // namespace meridian
