#include "replicametrics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace meridian {

namespace {

struct EngineNames {
    std::vector<std::string_view> waiting;
    std::vector<std::string_view> running;
    std::vector<std::string_view> kvCache;
    std::string_view ttftHistogram;  // empty: the engine has none
    std::vector<std::string_view> finished;
    std::string_view queueTimeHistogram = {};  // time waiting before a batch; empty: none
};

const EngineNames &namesOf(ServingEngine engine)
{
    static const EngineNames vllm{{"vllm:num_requests_waiting"},
                                  {"vllm:num_requests_running"},
                                  {"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"},
                                  "vllm:time_to_first_token_seconds",
                                  {"vllm:request_success_total"},
                                  "vllm:request_queue_time_seconds"};
    static const EngineNames mindie{{"num_requests_waiting"},
                                    {"num_requests_running"},
                                    {"npu_cache_usage_perc"},
                                    "time_to_first_token_seconds",
                                    {"request_success_total"}};
    static const EngineNames tgi{
        {"tgi_queue_size"}, {"tgi_batch_current_size"}, {}, {}, {"tgi_request_success"}};
    static const EngineNames llamacpp{{"llamacpp:requests_deferred"},
                                      {"llamacpp:requests_processing"},
                                      {"llamacpp:kv_cache_usage_ratio"},
                                      {},
                                      {"llamacpp:requests_total"}};
    switch (engine) {
    case ServingEngine::Vllm: return vllm;
    case ServingEngine::MindIe: return mindie;
    case ServingEngine::Tgi: return tgi;
    case ServingEngine::LlamaCpp: return llamacpp;
    }
    return vllm;
}

// A cumulative histogram's buckets, summed over its series: (le, count) by le.
std::vector<std::pair<double, double>> bucketsOf(const std::vector<ExpositionSample> &samples,
                                                 std::string_view histogram)
{
    if (histogram.empty())
        return {};
    const std::string bucket = std::string(histogram) + "_bucket";
    std::map<double, double> byLe;
    for (const ExpositionSample &s : samples) {
        if (s.name != bucket)
            continue;
        const std::string le(s.label("le"));
        char *end = nullptr;
        const double bound = le == "+Inf" ? INFINITY : std::strtod(le.c_str(), &end);
        if (le.empty() || (le != "+Inf" && end != le.c_str() + le.size()))
            continue;
        byLe[bound] += s.value;
    }
    return {byLe.begin(), byLe.end()};
}

// The sum over every series of the first name present.
std::optional<double> summed(const std::vector<ExpositionSample> &samples,
                             const std::vector<std::string_view> &names)
{
    for (std::string_view name : names) {
        std::optional<double> total;
        for (const ExpositionSample &s : samples) {
            if (s.name == name && std::isfinite(s.value))
                total = total.value_or(0) + s.value;
        }
        if (total)
            return total;
    }
    return std::nullopt;
}

}  // namespace

ReplicaScrape readReplicaScrape(const std::vector<ExpositionSample> &samples, ServingEngine engine)
{
    const EngineNames &names = namesOf(engine);
    ReplicaScrape scrape;
    scrape.waiting = summed(samples, names.waiting);
    scrape.running = summed(samples, names.running);
    scrape.kvCacheUsed = summed(samples, names.kvCache);
    scrape.finishedRequests = summed(samples, names.finished);
    scrape.ttftBuckets = bucketsOf(samples, names.ttftHistogram);
    scrape.queueTimeBuckets = bucketsOf(samples, names.queueTimeHistogram);
    return scrape;
}

std::optional<double> histogramQuantile(double q,
                                        const std::vector<std::pair<double, double>> &before,
                                        const std::vector<std::pair<double, double>> &after)
{
    if (after.empty())
        return std::nullopt;
    std::vector<std::pair<double, double>> grown;
    for (const auto &[le, count] : after) {
        double earlier = 0;
        for (const auto &[l, c] : before) {
            if (l == le)
                earlier = c;
        }
        grown.emplace_back(le, std::max(0.0, count - earlier));
    }
    const double total = grown.back().second;
    if (!(total > 0))
        return std::nullopt;
    const double rank = q * total;
    double lower = 0, below = 0;
    for (const auto &[le, count] : grown) {
        if (count >= rank) {
            if (std::isinf(le))
                return lower;  // in the open bucket: its lower bound, as Prometheus says
            const double inBucket = count - below;
            return inBucket > 0 ? lower + (le - lower) * (rank - below) / inBucket : le;
        }
        lower = le;
        below = count;
    }
    return lower;
}

ReplicaSignals ReplicaSignalsTracker::update(const ReplicaScrape &scrape, int64_t atUnixMs)
{
    ReplicaSignals signals;
    if (scrape.waiting)
        signals.waitingRequests = static_cast<uint32_t>(std::max(0.0, *scrape.waiting));
    if (scrape.running)
        signals.runningRequests = static_cast<uint32_t>(std::max(0.0, *scrape.running));
    signals.kvCacheUsedRatio = scrape.kvCacheUsed;
    if (m_previous && atUnixMs > m_previousMs) {
        const bool restarted = scrape.finishedRequests && m_previous->finishedRequests &&
                               *scrape.finishedRequests < *m_previous->finishedRequests;
        if (!restarted) {
            const double seconds = (atUnixMs - m_previousMs) / 1000.0;
            if (scrape.finishedRequests && m_previous->finishedRequests)
                signals.requestsPerSecond =
                    (*scrape.finishedRequests - *m_previous->finishedRequests) / seconds;
            signals.ttftP95Seconds =
                histogramQuantile(0.95, m_previous->ttftBuckets, scrape.ttftBuckets);
            signals.ttftP50Seconds =
                histogramQuantile(0.5, m_previous->ttftBuckets, scrape.ttftBuckets);
            signals.queueDelayP95Seconds =
                histogramQuantile(0.95, m_previous->queueTimeBuckets, scrape.queueTimeBuckets);
        }
    }
    m_previous = scrape;
    m_previousMs = atUnixMs;
    return signals;
}

}  // namespace meridian
