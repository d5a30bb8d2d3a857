// How many replicas a service should have, from what it reports. A pure function of the
// signals' recent history and the capacity already there or on its way, so it is tested
// on crafted load, replayed in virtual time, and run live with the same code.
//
// Demand, not card utilisation: arrivals plus the queue that must drain (what of it the
// replicas serving will not have drained before new capacity could serve), against what
// a replica serves inside the latency objective. Fast up (a short panic window acts on a
// burst at once; a rise the stable window confirms is ordered whole, sized on the newest
// load), slow and bounded down (the highest demand of a long window bounds it,
// a fraction at a time, never soon after a scale-up). Replicas still provisioning or
// cold-starting count as capacity, so a slow start never cascades into more orders. A
// latency guard rail adds capacity when the objective is at risk although the demand
// estimate says there is enough (longer prompts than usual, a slow card). The daily
// shape keeps capacity the same time on earlier days needed soon after and, where it is
// trusted to, starts capacity a lead ahead of what it foresees.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/inferenceservice.h"
#include "core/result.h"

namespace meridian {

// One service's signals, summed over its replicas, for one decision interval.
struct ServiceSignals {
    int64_t atMs = 0;
    double arrivalRps = 0;       // requests that arrived per second in the interval
    double waitingRequests = 0;  // queued, not yet in a batch
    double runningRequests = 0;  // in a batch (prefill or decode)
    // The p95 of the latency the objective is on: queueing delay where it is known (the
    // replay), time to first token where replicas report only that (live).
    std::optional<double> latencyP95Seconds;
    int servingReplicas = 0;  // replicas that answered requests when it was taken
};

struct ScalingPolicyConfig {
    double targetOccupancy = 0.8;              // of a replica's sustainable rate
    double targetOccupancyWithForecast = 0.9;  // ... while the daily shape forecasts
    int64_t panicWindowMs = 15'000;            // demand over this acts at once when it is high
    double panicFactor = 1.3;                  // ... this many times the capacity there is
    int64_t stableWindowMs = 120'000;          // demand for ordinary scale-up is averaged over this
    int64_t scaleDownWindowMs = 600'000;       // the highest demand in it bounds a scale-down
    int64_t noReversalMs = 600'000;            // no scale-down this soon after a scale-up
    double maxDownFraction = 0.25;             // at most this share of capacity shed at once
    double latencyGuard = 0.8;                 // latency p95 above this share of the objective ...
    double queueDrainSeconds = 30;             // waiting requests should be admitted within this
    double queueDrainWhileStartingSeconds = 300;  // ... or this, while capacity is starting
    double upHeadroom = 0.0;                      // an ordinary scale-up orders this share more
    double downHysteresis = 0.0;                  // shed only when this share of capacity is spare
    // The daily shape (DailyProfile): capacity the same time on earlier days needed
    // within the lead (provisioning plus cold start) is not shed.
    int forecastDays = 7;  // 0: no forecast
    // The slowest provisioning plus cold start: how far ahead the forecast looks, and
    // how long the queue term lets the replicas serving drain a backlog before it orders
    // for what would be left (new capacity could not serve sooner).
    int64_t forecastLeadMs = 330'000;
    // Whether the forecast also starts capacity before the demand comes (ordered a lead
    // ahead), not only keeps it. Off by default: on the shared traces the median of the
    // earlier days foresees too few of the rises for the capacity it would start
    // (docs/PERFORMANCE.md); a service whose days repeat closely can turn it on.
    bool forecastOrdersAhead = false;
    // Surge cover: the capacity there (serving or starting) is kept at least this multiple
    // of the service's usual load, at a replica's full rate, so a rise up to it finds
    // replicas already warm instead of waiting minutes for a lease and a cold start. The
    // usual load is the median minute's arrivals over `surgeBaseWindowMs` (PolicyInput::
    // usualRps): a surge does not raise it until it has lasted half the window, so the
    // cover is not ordered again on top of the surge it was there for. 1: no cover. It is
    // paid for every hour it is held, surge or not: the knob that buys attainment on
    // sudden rises with card-hours (`meridian-sim tune --shapes` searches it).
    double surgeCover = 1.0;
    int64_t surgeBaseWindowMs = 3 * 3'600'000;
};

// Reads a policy file (YAML keys as in ScalingPolicyConfig, snake_case, windows in
// seconds, forecast_orders_ahead true or false); unknown keys and out-of-range values are
// named with their line.
Result<ScalingPolicyConfig> loadScalingPolicy(const std::string &path);

// Each service's own policy (`policy:` in the services file), by service name; services
// without one are not in it. The first file that does not load is the error.
Result<std::map<std::string, ScalingPolicyConfig>> loadServicePolicies(
    const std::vector<InferenceService> &services);

struct PolicyInput {
    int64_t nowMs = 0;
    std::vector<ServiceSignals> history;  // oldest first; the newest is the last
    int readyReplicas = 0;
    int startingReplicas = 0;  // ordered: provisioning, cold-starting
    int minReplicas = 0;
    int maxReplicas = 1;
    double replicaRps = 1;  // what one replica serves per second inside the objective
    double latencyObjectiveSeconds = 5;
    std::optional<int64_t> lastScaleUpMs;
    // The highest arrival rate the daily shape expects from now to the forecast lead.
    // Only the lead: capacity ordered for a peak later in the hour would be paid from now
    // for minutes it does not serve.
    std::optional<double> forecastRps;
    // The service's usual load (DailyProfile::usualRate over the surge cover's window),
    // from the minutes the controller keeps across restarts; none: no surge cover yet.
    std::optional<double> usualRps;
};

enum class ScalingReason { Hold, Up, Panic, LatencyGuard, Down, Bounds };

struct ScalingDecision {
    int desiredReplicas = 0;
    // What the demand of the scale-down window needs, without the step bound: capacity
    // paid by the hour is released down to this at the end of its hour, since keeping it
    // one more hour to shed it gradually would cost the whole hour.
    int neededReplicas = 0;
    ScalingReason reason = ScalingReason::Hold;
    std::string why;  // for the journal and the console: the numbers behind it
};

ScalingDecision decideReplicas(const PolicyInput &input, const ScalingPolicyConfig &config = {});

// Whether the policy reads the service's kept demand minutes (the daily shape's forecast,
// or the surge cover's usual load), which the controller then records and restores.
bool readsDemandMinutes(const ScalingPolicyConfig &config);

// Drops the signals older than any of the policy's windows reads (and a minute more),
// the same for the live controller and the replay.
void forgetOldSignals(std::vector<ServiceSignals> &history, int64_t nowMs,
                      const ScalingPolicyConfig &config);

std::string_view scalingReasonName(ScalingReason reason);

}  // namespace meridian
