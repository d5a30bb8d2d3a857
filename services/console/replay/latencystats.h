// Latency figures of a replay that may run to hundreds of millions of requests, in
// bounded memory: percentiles over all requests from a log-bucketed histogram (each
// bucket 1% wide, so a percentile is exact to 1%), and the p95 of every minute exactly,
// from the minute's own values, kept only until every request of that minute has its
// answer.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace meridian {

class LatencyHistogram {
public:
    void add(double seconds);
    // The value below which the share `p` (0..1) of the values lie, to 1%; 0 when empty.
    double percentile(double p) const;
    int64_t count() const { return m_count; }

private:
    std::vector<int64_t> m_buckets;
    int64_t m_count = 0;
};

class MinuteLatency {
public:
    // A request that arrived in `minute` waits for its answer.
    void arrived(int64_t minute);
    void answered(int64_t minute, double seconds);
    // Minutes before `minute` whose requests are all answered are final.
    void closeBefore(int64_t minute);
    // Closes the rest (call once every request is answered, or counted as never).
    void closeAll();

    // Per minute from the first: its p95, or a negative value when nothing arrived in it.
    const std::vector<float> &p95ByMinute() const { return m_p95; }

private:
    struct Open {
        std::vector<float> values;
        int64_t waiting = 0;
    };
    void close(int64_t minute, Open &open);

    std::map<int64_t, Open> m_open;
    std::vector<float> m_p95;
};

}  // namespace meridian
