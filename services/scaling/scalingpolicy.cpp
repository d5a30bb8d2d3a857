#include "scalingpolicy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace meridian {

namespace {

// Replicas that serve `rps` at the target occupancy.
int replicasFor(double rps, const PolicyInput &in, const ScalingPolicyConfig &config)
{
    const double perReplica = std::max(1e-9, in.replicaRps * config.targetOccupancy);
    return static_cast<int>(std::ceil(std::max(0.0, rps) / perReplica - 1e-9));
}

// Demand of one sample: its arrivals plus its queue, drained within queueDrainSeconds.
double demandOf(const ServiceSignals &s, const ScalingPolicyConfig &config)
{
    return s.arrivalRps + s.waitingRequests / config.queueDrainSeconds;
}

// Mean arrivals over the samples younger than `windowMs` (the newest always counts), plus
// the newest queue.
double windowDemand(const PolicyInput &in, int64_t windowMs, const ScalingPolicyConfig &config)
{
    double sum = 0;
    int count = 0;
    for (auto it = in.history.rbegin(); it != in.history.rend(); ++it) {
        if (count > 0 && in.nowMs - it->atMs >= windowMs)
            break;
        sum += it->arrivalRps;
        ++count;
    }
    const double arrivals = count > 0 ? sum / count : 0;
    const double queue = in.history.empty() ? 0 : in.history.back().waitingRequests;
    return arrivals + queue / config.queueDrainSeconds;
}

// The highest single-sample demand within the window.
double peakDemand(const PolicyInput &in, int64_t windowMs, const ScalingPolicyConfig &config)
{
    double peak = 0;
    for (auto it = in.history.rbegin(); it != in.history.rend(); ++it) {
        if (it != in.history.rbegin() && in.nowMs - it->atMs >= windowMs)
            break;
        peak = std::max(peak, demandOf(*it, config));
    }
    return peak;
}

}  // namespace

std::string_view scalingReasonName(ScalingReason reason)
{
    switch (reason) {
    case ScalingReason::Hold: return "hold";
    case ScalingReason::Up: return "up";
    case ScalingReason::Panic: return "panic";
    case ScalingReason::LatencyGuard: return "latency-guard";
    case ScalingReason::Down: return "down";
    case ScalingReason::Bounds: return "bounds";
    }
    return "hold";
}

ScalingDecision decideReplicas(const PolicyInput &in, const ScalingPolicyConfig &config)
{
    const int current = in.readyReplicas + in.startingReplicas;
    ScalingDecision d{current, ScalingReason::Hold, {}};
    const double shortDemand = windowDemand(in, config.panicWindowMs, config);
    const double stableDemand = windowDemand(in, config.stableWindowMs, config);
    const int shortNeed = replicasFor(shortDemand, in, config);
    const int stableNeed = replicasFor(stableDemand, in, config);

    if (shortNeed > current && shortNeed >= config.panicFactor * current) {
        d = {shortNeed, ScalingReason::Panic,
             fmt::format("burst: {:.2f} req/s over {} s needs {} replicas, {} there or starting",
                         shortDemand, config.panicWindowMs / 1000, shortNeed, current)};
    } else if (stableNeed > current) {
        d = {stableNeed, ScalingReason::Up,
             fmt::format("{:.2f} req/s over {} s needs {} replicas, {} there or starting",
                         stableDemand, config.stableWindowMs / 1000, stableNeed, current)};
    } else {
        const ServiceSignals *newest = in.history.empty() ? nullptr : &in.history.back();
        const bool atRisk =
            newest && newest->ttftP95Seconds &&
            *newest->ttftP95Seconds > config.latencyGuard * in.ttftObjectiveSeconds &&
            newest->waitingRequests > 0;
        // Capacity already on its way answers the risk; ordering more would cascade.
        if (atRisk && in.startingReplicas == 0) {
            const int more = std::max(1, static_cast<int>(std::ceil(current * 0.2)));
            d = {current + more, ScalingReason::LatencyGuard,
                 fmt::format("TTFT p95 {:.1f} s against {:.1f} s with {:.0f} waiting",
                             *newest->ttftP95Seconds, in.ttftObjectiveSeconds,
                             newest->waitingRequests)};
        } else if (!atRisk) {
            const double downDemand = peakDemand(in, config.scaleDownWindowMs, config);
            const int downNeed = std::max(stableNeed, replicasFor(downDemand, in, config));
            const bool recentlyUp =
                in.lastScaleUpMs && in.nowMs - *in.lastScaleUpMs < config.noReversalMs;
            if (downNeed < current && !recentlyUp) {
                const int step = std::max(1, static_cast<int>(current * config.maxDownFraction));
                const int target = std::max(downNeed, current - step);
                d = {target, ScalingReason::Down,
                     fmt::format("at most {:.2f} req/s in {} s needs {} replicas, {} there",
                                 downDemand, config.scaleDownWindowMs / 1000, downNeed, current)};
            }
        }
    }
    const int bounded = std::clamp(d.desiredReplicas, in.minReplicas, in.maxReplicas);
    if (bounded != d.desiredReplicas) {
        d.why +=
            fmt::format("; held to {} by min {} / max {}", bounded, in.minReplicas, in.maxReplicas);
        d.desiredReplicas = bounded;
        d.reason = ScalingReason::Bounds;
    }
    return d;
}

}  // namespace meridian
