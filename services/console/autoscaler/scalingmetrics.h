// meridian-scaled's /metrics: what a headless controller does, for Prometheus and its
// alerts. Per service: replicas serving and starting, desired, requests waiting, p95
// TTFT against its objective, rented cards and their cost, the conditions that limit its
// scaling (as HPA's ScalingLimited), and two counters built pass by pass: passes inside
// the objective, and rented card-seconds. Thread-safe: the main loop records each new view,
// the scrape endpoint's workers render.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "scalingcontrol.h"

namespace meridian {

class ScalingMetrics {
public:
    // Takes a view once (by its pass time): counters grow by what happened since.
    void record(const ScalingView &view);
    // Prometheus text format 0.0.4.
    std::string exposition() const;

private:
    // With m_mutex held: each service's gauges, then the counters since start and the
    // conditions that limit scaling.
    void appendServiceGauges(std::string &out) const;
    void appendTotals(std::string &out) const;
    struct Totals {
        uint64_t passes = 0;  // with a latency reading
        uint64_t passesWithinObjective = 0;
        double rentedCardSeconds = 0;
        int lastRentedCards = 0;
    };
    mutable std::mutex m_mutex;
    std::vector<ServiceScalingView> m_services;
    std::map<std::string, Totals> m_totals;  // by service
    int64_t m_lastPassMs = 0;                // the view taken last
};

}  // namespace meridian
