#include "scalingpolicy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/yamlfile.h"

namespace meridian {

namespace {

// Replicas that serve `rps` at the target occupancy: closer to full where the daily shape
// says what is coming, since the headroom is there to cover what a reaction is late for.
int replicasFor(double rps, const PolicyInput &in, const ScalingPolicyConfig &config)
{
    const double occupancy =
        in.forecastRps ? config.targetOccupancyWithForecast : config.targetOccupancy;
    const double perReplica = std::max(1e-9, in.replicaRps * occupancy);
    return static_cast<int>(std::ceil(std::max(0.0, rps) / perReplica - 1e-9));
}

// How long the queue may take to drain. While replicas are starting, the queue that
// builds up waiting for them is theirs to drain: counting it again as demand would
// order capacity for a backlog that is already being answered (a cascade).
double drainSeconds(const PolicyInput &in, const ScalingPolicyConfig &config)
{
    return in.startingReplicas > 0 ? config.queueDrainWhileStartingSeconds
                                   : config.queueDrainSeconds;
}

// How long capacity ordered now takes to serve: a queue gone by then is not worth ordering
// for.
double leadSeconds(const ScalingPolicyConfig &config)
{
    return static_cast<double>(config.forecastLeadMs) / 1000;
}

// How fast the queue is draining: as seen since the sample before (0 where it held or
// grew), since while a rise still climbs the replicas serve less than their nominal rate
// says. Where replicas came up since, the queue has not had a pass to show them yet:
// their nominal spare rate counts, for that one pass.
double queueDrainRps(const PolicyInput &in)
{
    if (in.history.size() < 2)
        return 0;
    const ServiceSignals &newest = in.history.back();
    const ServiceSignals &before = in.history[in.history.size() - 2];
    const double seconds = static_cast<double>(newest.atMs - before.atMs) / 1000;
    if (seconds <= 0)
        return 0;
    const double seen = (before.waitingRequests - newest.waitingRequests) / seconds;
    const double spare = newest.servingReplicas > before.servingReplicas
                             ? newest.servingReplicas * in.replicaRps - newest.arrivalRps
                             : 0;
    return std::max({0.0, seen, spare});
}

// The part of the newest queue still there when capacity ordered now could serve, at the
// pace it is draining. Ordering for the whole backlog after a rise has been answered
// brings capacity up to an empty queue, and keeps it its paid hour.
double backlogLeftAtLead(const PolicyInput &in, const ScalingPolicyConfig &config)
{
    if (in.history.empty())
        return 0;
    return std::max(0.0,
                    in.history.back().waitingRequests - queueDrainRps(in) * leadSeconds(config));
}

// The latency guard's test: the newest p95 past its share of the objective, with a queue
// that will still be there when more capacity could serve. One draining fast enough to
// be gone by then is not a risk: its p95 is of requests that waited through a rise
// already answered.
bool latencyAtRisk(const PolicyInput &in, const ScalingPolicyConfig &config)
{
    if (in.history.empty() || !in.history.back().latencyP95Seconds)
        return false;
    return *in.history.back().latencyP95Seconds >
               config.latencyGuard * in.latencyObjectiveSeconds &&
           backlogLeftAtLead(in, config) > 0;
}

// Why a queue orders nothing, for whoever wonders why a service with a backlog holds.
std::string backlogDrainingWhy(const PolicyInput &in, const ScalingPolicyConfig &config)
{
    if (in.history.empty() || in.history.back().waitingRequests <= 0 ||
        backlogLeftAtLead(in, config) > 0)
        return {};
    const double waiting = in.history.back().waitingRequests;
    const double drainRps = queueDrainRps(in);
    return fmt::format(
        "{:.0f} waiting, going down {:.1f} req/s: gone in {:.0f} s, before "
        "capacity ordered now could serve ({:.0f} s)",
        waiting, drainRps, waiting / drainRps, leadSeconds(config));
}

// Keeps a decision within the service's bounds, and says so where they held it.
void holdToBounds(ScalingDecision &d, const PolicyInput &in)
{
    d.neededReplicas = std::clamp(d.neededReplicas, in.minReplicas, in.maxReplicas);
    const int bounded = std::clamp(d.desiredReplicas, in.minReplicas, in.maxReplicas);
    if (bounded != d.desiredReplicas) {
        d.why += fmt::format("{}held to {} by min {} / max {}", d.why.empty() ? "" : "; ", bounded,
                             in.minReplicas, in.maxReplicas);
        d.desiredReplicas = bounded;
        d.reason = ScalingReason::Bounds;
    }
}

// Demand of one sample: its arrivals plus its queue, drained in time.
double demandOf(const ServiceSignals &s, double drainS)
{
    return s.arrivalRps + s.waitingRequests / drainS;
}

// A window's demand: its mean arrivals, and the rate at which what of the newest queue new
// capacity would still find must drain.
struct Demand {
    double arrivals = 0;
    double queueRps = 0;
    double total() const { return arrivals + queueRps; }
};

// Mean arrivals over the samples younger than `windowMs` (the newest always counts), and
// the newest queue's drain.
Demand windowDemand(const PolicyInput &in, int64_t windowMs, const ScalingPolicyConfig &config)
{
    double sum = 0;
    int count = 0;
    for (auto it = in.history.rbegin(); it != in.history.rend(); ++it) {
        if (count > 0 && in.nowMs - it->atMs >= windowMs)
            break;
        sum += it->arrivalRps;
        ++count;
    }
    return {count > 0 ? sum / count : 0, backlogLeftAtLead(in, config) / drainSeconds(in, config)};
}

// Replicas for a window's demand. With capacity already on its way, the queue is the
// backlog that capacity was ordered to drain: the arrivals at the target occupancy, and
// the arrivals plus the queue's drain at a replica's full rate, since the headroom the
// occupancy leaves is what drains it once that capacity serves (counting the queue on top
// of it ordered a step's capacity for its backlog twice). With nothing on its way, the
// queue is demand like the arrivals.
int replicasForDemand(const Demand &demand, const PolicyInput &in,
                      const ScalingPolicyConfig &config)
{
    if (in.startingReplicas == 0)
        return replicasFor(demand.total(), in, config);
    const int atFullRate = static_cast<int>(
        std::ceil(std::max(0.0, demand.total()) / std::max(1e-9, in.replicaRps) - 1e-9));
    return std::max(replicasFor(demand.arrivals, in, config), atFullRate);
}

// The highest single-sample demand within the window.
double peakDemand(const PolicyInput &in, int64_t windowMs, const ScalingPolicyConfig &config)
{
    double peak = 0;
    for (auto it = in.history.rbegin(); it != in.history.rend(); ++it) {
        if (it != in.history.rbegin() && in.nowMs - it->atMs >= windowMs)
            break;
        peak = std::max(peak, demandOf(*it, drainSeconds(in, config)));
    }
    return peak;
}

// The replicas the surge cover holds: its multiple of the usual load at full rate (the
// cover serves only when the surge comes, and a replica's rate already keeps its queue
// inside the objective).
int coverReplicas(const PolicyInput &in, const ScalingPolicyConfig &config)
{
    if (config.surgeCover <= 1 || !in.usualRps)
        return 0;
    const double rps = config.surgeCover * *in.usualRps;
    return static_cast<int>(std::ceil(rps / std::max(1e-9, in.replicaRps) - 1e-9));
}

struct PolicyField {
    const char *key;
    double *value;
    double low, high;
};

// Each key of the policy file into its field, checked against the field's range;
// forecast_orders_ahead is the one yes-or-no. An unknown key is an error, named.
Status readPolicyFields(const std::string &path, const YAML::Node &root,
                        const std::vector<PolicyField> &fields, bool &ordersAhead)
{
    try {
        for (const auto &entry : root) {
            const std::string key = entry.first.as<std::string>();
            if (key == "forecast_orders_ahead") {
                ordersAhead = yamlScalar<bool>(entry.second, key);
                continue;
            }
            const PolicyField *field = nullptr;
            for (const PolicyField &f : fields) {
                if (key == f.key)
                    field = &f;
            }
            if (!field)
                return yamlError(path, entry.first, "unknown policy key " + key);
            const double value = yamlScalar<double>(entry.second, key);
            if (!(value >= field->low && value <= field->high))
                return yamlError(path, entry.second,
                                 fmt::format("{} must be {}..{}", key, field->low, field->high));
            *field->value = value;
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    return {};
}

// What the windows, the forecast and the surge cover each need, and what is there.
struct Needs {
    int current = 0;
    int stable = 0;
    int forecast = 0;
    int cover = 0;
};

// No rise to answer: more replicas where latency is at risk and none is coming, or fewer
// where the quiet has lasted, step by step, never right after a rise.
void guardOrShed(ScalingDecision &d, const PolicyInput &in, const ScalingPolicyConfig &config,
                 const Needs &n)
{
    const ServiceSignals *newest = in.history.empty() ? nullptr : &in.history.back();
    const bool atRisk = latencyAtRisk(in, config);
    // Capacity already on its way answers the risk; ordering more would cascade.
    if (atRisk && in.startingReplicas == 0) {
        const int more = std::max(1, static_cast<int>(std::ceil(n.current * 0.2)));
        d = {n.current + more, n.current + more, ScalingReason::LatencyGuard,
             fmt::format("latency p95 {:.1f} s against {:.1f} s with {:.0f} waiting",
                         *newest->latencyP95Seconds, in.latencyObjectiveSeconds,
                         newest->waitingRequests)};
    } else if (!atRisk) {
        const double downDemand = peakDemand(in, config.scaleDownWindowMs, config);
        const int downNeed =
            std::max({n.stable, replicasFor(downDemand, in, config), n.forecast, n.cover});
        const bool recentlyUp =
            in.lastScaleUpMs && in.nowMs - *in.lastScaleUpMs < config.noReversalMs;
        const bool spare = downNeed <= n.current * (1 - config.downHysteresis);
        if (downNeed < n.current && spare && !recentlyUp) {
            const int step = std::max(1, static_cast<int>(n.current * config.maxDownFraction));
            const int target = std::max(downNeed, n.current - step);
            d = {target, downNeed, ScalingReason::Down,
                 fmt::format("at most {:.2f} req/s in {} s needs {} replicas, {} there", downDemand,
                             config.scaleDownWindowMs / 1000, downNeed, n.current)};
        }
    }
}

}  // namespace

Result<ScalingPolicyConfig> loadScalingPolicy(const std::string &path)
{
    auto loaded = loadYamlFile(path);
    if (!loaded)
        return loaded.error();
    const YAML::Node root = loaded.value();
    if (!root.IsMap())
        return yamlError(path, root, "expected keys such as target_occupancy: 0.8");
    ScalingPolicyConfig c;
    double panicS = c.panicWindowMs / 1000.0, stableS = c.stableWindowMs / 1000.0,
           downS = c.scaleDownWindowMs / 1000.0, reversalS = c.noReversalMs / 1000.0,
           forecastDays = c.forecastDays, leadS = c.forecastLeadMs / 1000.0,
           surgeBaseS = c.surgeBaseWindowMs / 1000.0;
    const std::vector<PolicyField> fields = {
        {"target_occupancy", &c.targetOccupancy, 0.1, 1.0},
        {"target_occupancy_with_forecast", &c.targetOccupancyWithForecast, 0.1, 1.0},
        {"panic_window_seconds", &panicS, 1, 600},
        {"panic_factor", &c.panicFactor, 1.0, 10},
        {"stable_window_seconds", &stableS, 1, 3600},
        {"scale_down_window_seconds", &downS, 0, 86400},
        {"no_reversal_seconds", &reversalS, 0, 86400},
        {"max_down_fraction", &c.maxDownFraction, 0.01, 1},
        {"latency_guard", &c.latencyGuard, 0.1, 1},
        {"queue_drain_seconds", &c.queueDrainSeconds, 1, 3600},
        {"queue_drain_while_starting_seconds", &c.queueDrainWhileStartingSeconds, 1, 3600},
        {"up_headroom", &c.upHeadroom, 0, 1},
        {"down_hysteresis", &c.downHysteresis, 0, 0.9},
        {"forecast_days", &forecastDays, 0, 28},
        {"forecast_lead_seconds", &leadS, 0, 7200},
        {"surge_cover", &c.surgeCover, 1, 10},
        {"surge_base_window_seconds", &surgeBaseS, 60, 86400},
    };
    if (Status read = readPolicyFields(path, root, fields, c.forecastOrdersAhead); !read)
        return read.error();
    c.panicWindowMs = static_cast<int64_t>(panicS * 1000);
    c.stableWindowMs = static_cast<int64_t>(stableS * 1000);
    c.scaleDownWindowMs = static_cast<int64_t>(downS * 1000);
    c.noReversalMs = static_cast<int64_t>(reversalS * 1000);
    c.forecastDays = static_cast<int>(forecastDays);
    c.forecastLeadMs = static_cast<int64_t>(leadS * 1000);
    c.surgeBaseWindowMs = static_cast<int64_t>(surgeBaseS * 1000);
    return c;
}

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
    ScalingDecision d{current, current, ScalingReason::Hold, {}};
    const Demand shortParts = windowDemand(in, config.panicWindowMs, config);
    const Demand stableParts = windowDemand(in, config.stableWindowMs, config);
    const double shortDemand = shortParts.total();
    const double stableDemand = stableParts.total();
    const int shortNeed = replicasForDemand(shortParts, in, config);
    const int stableNeed = replicasForDemand(stableParts, in, config);
    const int forecastNeed = in.forecastRps ? replicasFor(*in.forecastRps, in, config) : 0;
    const int coverNeed = coverReplicas(in, config);

    if (shortNeed > current && shortNeed >= config.panicFactor * current) {
        d = {shortNeed, shortNeed, ScalingReason::Panic,
             fmt::format("burst: {:.2f} req/s over {} s needs {} replicas, {} there or starting",
                         shortDemand, config.panicWindowMs / 1000, shortNeed, current)};
    } else if (stableNeed > current) {
        // The stable window confirms the rise; the order is sized on the load as it now
        // is, since a step under the panic factor would otherwise be ordered a replica at
        // a time while the window's mean catches up, each order a lease of its own.
        const int ordered =
            static_cast<int>(std::ceil(std::max(stableNeed, shortNeed) * (1 + config.upHeadroom)));
        d = {ordered, ordered, ScalingReason::Up,
             fmt::format("{:.2f} req/s over {} s needs {} replicas, {} there or starting",
                         stableDemand, config.stableWindowMs / 1000, stableNeed, current)};
        if (shortNeed > stableNeed)
            d.why += fmt::format("; {:.2f} req/s over the last {} s needs {}", shortDemand,
                                 config.panicWindowMs / 1000, shortNeed);
    } else if (coverNeed > current) {
        // Warm before the surge comes: a lease and a cold start take minutes.
        d = {coverNeed, coverNeed, ScalingReason::Up,
             fmt::format("surge cover: {} replicas hold {:g}× the usual {:.2f} req/s, {} there "
                         "or starting",
                         coverNeed, config.surgeCover, in.usualRps.value_or(0), current)};
    } else if (config.forecastOrdersAhead && forecastNeed > current) {
        // Started now, the capacity is ready when the forecast says the demand comes.
        d = {forecastNeed, forecastNeed, ScalingReason::Up,
             fmt::format("the forecast needs {} replicas within the next {} s, {} there or "
                         "starting: ordered ahead",
                         forecastNeed, config.forecastLeadMs / 1000, current)};
    } else {
        guardOrShed(d, in, config, {current, stableNeed, forecastNeed, coverNeed});
    }
    if (in.forecastRps && d.reason != ScalingReason::Hold &&
        d.reason != ScalingReason::LatencyGuard)
        d.why += fmt::format(" (sized at {:.0f}% occupancy while the daily shape forecasts)",
                             100 * config.targetOccupancyWithForecast);
    if (d.reason == ScalingReason::Hold)
        d.why = backlogDrainingWhy(in, config);
    holdToBounds(d, in);
    return d;
}

bool readsDemandMinutes(const ScalingPolicyConfig &config)
{
    return config.forecastDays > 0 || config.surgeCover > 1;
}

void forgetOldSignals(std::vector<ServiceSignals> &history, int64_t nowMs,
                      const ScalingPolicyConfig &config)
{
    const int64_t keptMs = std::max(config.scaleDownWindowMs, config.stableWindowMs) + 60'000;
    std::erase_if(history, [&](const ServiceSignals &s) { return nowMs - s.atMs > keptMs; });
}

Result<std::map<std::string, ScalingPolicyConfig>> loadServicePolicies(
    const std::vector<InferenceService> &services)
{
    std::map<std::string, ScalingPolicyConfig> policies;
    for (const InferenceService &service : services) {
        if (service.policyFile.empty())
            continue;
        auto policy = loadScalingPolicy(service.policyFile);
        if (!policy)
            return Error{fmt::format("service {}: {}", service.name, policy.error().message)};
        policies[service.name] = policy.value();
    }
    return policies;
}

}  // namespace meridian
