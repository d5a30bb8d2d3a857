// What a scaling evaluation is asked and what it finds: the options, each autoscaler's
// row of figures and the run that sets them side by side. Apart from evaluation.h so a
// single replay (replayrun.h) and the evaluation that runs many read the same figures
// without including each other.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scaling/scalingpolicy.h"
#include "servingsim.h"

namespace meridian {

// The share of requests the oracle is held to keep inside the objective.
inline constexpr double kOracleTargetShare = 0.99;
// Two shares of requests inside the objective this close count as keeping as many.
inline constexpr double kSameAttainment = 0.001;
// The rows the report sets against each other, by the names the table and JSON use.
inline constexpr const char *kMeridianRow = "meridian";
inline constexpr const char *kTunedMeridianRow = "meridian tuned";
inline constexpr const char *kToldMeridianRow = "meridian told";
inline constexpr const char *kHpaRow = "hpa-style";
inline constexpr const char *kKnativeRow = "knative-style";
// A constant schedule sized on the busiest minute of the whole replayed trace: it knows the
// future, and is shown as a yardstick of foresight, never as a baseline Meridian must beat.
inline constexpr const char *kStaticPeakRow = "static peak";
// A constant schedule sized as an operator sizes one, on the busiest minute seen before the
// replayed span (EvaluationOptions::pastPeakRps): the causal static baseline.
inline constexpr const char *kStaticPastPeakRow = "static past peak";
inline constexpr const char *kStandbyMeridianRow = "meridian standby";
inline constexpr const char *kStandbyScheduleRow = "schedule standby";

// The rows replayed beside Meridian's, the static peak's and the oracle's demand ×
// headroom schedule, which every run has. Each costs replays that a family of many
// cases, or a question about one row, need not pay.
struct Yardsticks {
    // HPA-style and Knative-style, each replayed under both release orders (four replays).
    bool kubernetesBaselines = true;
    bool staticMean = true;
    bool tunedMeridian = true;  // Meridian replayed at HPA's attainment (needs HPA's row)
    bool toldMeridian = true;   // Meridian told the trace's coming load
    bool pacedOracle = true;    // the oracle held to kMostActionsPerDay changes a day
    // The oracle is the cheaper of the exact plan and the headroom schedule; false: the
    // headroom schedule alone.
    bool exactOracle = true;
    static constexpr Yardsticks none() { return {false, false, false, false, false, false}; }
};

struct EvaluationOptions {
    double peakCards = 64;   // the trace is scaled so its busiest minute needs this many
    double localCards = -1;  // owned cards the service may use; < 0: half of peakCards
    int cardsPerReplica = 4;
    // The objective, on queueing delay: time to first token less the replica's own
    // prefill of the prompt.
    double objectiveS = 5;
    double cnyPerLocalCardHour = 2.0;
    double cnyPerRentedCardHour = 2.6;
    double intervalS = 15;
    ReplicaPerformance performance;
    StartupTimes startup;
    ScalingPolicyConfig policy;
    uint64_t seed = 1;
    // > 0: Meridian is also replayed with this many warm standby nodes (StartupTimes), as
    // the row "meridian standby", their hours in its rented card-hours; so is a given
    // schedule, as "schedule standby".
    int standbyNodes = 0;
    // A schedule to replay beside the autoscalers (replicas by minute), as the row
    // "schedule"; its name is said above the table. Empty: none.
    std::vector<int> schedule;
    std::string scheduleName;
    // How far ahead "meridian told" is told the load; unset: the policy's forecast lead,
    // the longest an order takes to serve.
    std::optional<double> toldAheadS;
    // Set: the trace is replayed at this multiple of its rate instead of scaled so its
    // busiest minute needs peakCards (the cases of a shape family share one scale, so a
    // ×3 step needs three times the cards of the load before it).
    std::optional<double> scaleFactor;
    // Set: the busiest minute an operator had seen before the replayed span, in the replay's
    // requests/s; a constant schedule sized on it is replayed as "static past peak".
    std::optional<double> pastPeakRps;
    Yardsticks yardsticks;
};

// Whether a row is a baseline that could have been run without knowing the replayed load
// (static past peak, HPA-style, Knative-style): the ones a policy's dominance is judged by.
inline bool isCausalBaseline(const std::string &row)
{
    return row == kStaticPastPeakRow || row == kHpaRow || row == kKnativeRow;
}

// One minute of a replay as its last decision saw it: a scale-up's timeline.
struct MinuteState {
    float seenRps = 0;     // the arrival rate the autoscaler read
    int desired = 0;       // what it asked for
    int provisioning = 0;  // rented nodes still booting
    int coldStarting = 0;  // replicas loading weights
    int serving = 0;
    int waiting = 0;  // requests queued for a batch
};

struct EvaluationResult {
    std::string autoscaler;
    int64_t requests = 0;
    double withinSloShare = 0;   // queueing delay inside the objective
    double withinTtftShare = 0;  // plain time to first token inside it
    double queueDelayP95S = 0;
    double ttftP95S = 0;
    double ttftP99S = 0;
    double worstMinuteP95S = 0;         // of queueing delay
    double minutesMeetingSloShare = 0;  // minutes whose p95 queueing delay is inside it
    std::vector<float> minuteP95S;      // by minute of arrival; < 0: no request then
    double cachedPromptShare = 0;       // of prompt tokens, found in a prefix cache
    std::vector<int> minuteReplicas;    // what the last decision for each minute asked for
    std::vector<MinuteState> minuteStates;
    double e2eP95S = 0;
    double localCardHours = 0;
    double rentedCardHours = 0;   // standby nodes' hours included
    double standbyCardHours = 0;  // of those, standby nodes still standing by at the end
    double replicaStartS = 0;     // median, from ordering a replica to its serving
    double costCny = 0;
    double occupancy = 0;  // of ready replicas' batch slots
    int scaleActions = 0;
    int reversals = 0;  // a scale-down within ten minutes of a scale-up, or the reverse
    int loadSteps = 0;
    double stepDecisionS = 0;  // median time from a load step to the first scale-up
    double stepServingS = 0;   // median time until ready capacity covers the new load
    bool foresight = false;    // an oracle: a schedule made from the whole trace in advance
    bool toldTheLoad = false;  // Meridian's policy given the trace's coming load as forecast
    // Which rented replica a scale-down let go (Meridian and the oracle: the one whose
    // paid hour ends soonest; a baseline: whichever served it better).
    ReleaseOrder releaseOrder = ReleaseOrder::SoonestPaidHourFirst;
    // Over the seeds (medianOverSeeds): how many runs had this row, and the lowest and
    // highest share inside the objective among them.
    int runs = 1;
    double lowestWithinSloShare = 1;
    double highestWithinSloShare = 0;
};

struct EvaluationRun {
    std::string trace;
    int seeds = 1;  // the figures are the median over this many seeds
    double scaleFactor = 1;
    double replicaRps = 0;  // what one replica sustains inside the objective on this mix
    int localReplicas = 0;
    int standbyNodes = 0;          // the "meridian standby" row's
    double objectiveS = 5;         // on queueing delay
    size_t prefixCacheBlocks = 0;  // per replica
    // The oracle is the exact plan (per-minute misses, leases by dynamic programming),
    // planned for this share of the misses its target allows; or, where a schedule of
    // demand × a headroom was cheaper, that one.
    bool oracleExact = true;
    double oracleMissBudgetShare = 1;
    double oracleHeadroom = 1;      // demand × this, in replicas, is the headroom schedule
    bool oracleExactTried = false;  // both were replayed (Yardsticks::exactOracle)
    // The one of the two not taken: its share inside the objective and rented card-hours.
    double oracleOtherShare = 0;
    double oracleOtherCardHours = 0;
    double oracleTargetShare =
        kOracleTargetShare;  // what the oracle was asked to keep inside the objective
    // The paced oracle: the same foresight, changing its replicas at most this many
    // times (20 a day), at its own headroom; 0: no such row.
    int pacedOracleMaxActions = 0;
    double pacedOracleHeadroom = 1;
    // Meridian at HPA's attainment ("meridian tuned"): its target occupancies scaled by
    // this (below 1: more headroom, above: less); 1: no such row.
    double tunedOccupancyScale = 1;
    double tunedSurgeCover = 1;     // ... and its surge cover (the policy's where unchanged)
    double toldAheadS = 0;          // how far ahead "meridian told" was told the load
    std::vector<double> minuteRps;  // the scaled trace's arrivals, by minute
    std::string scheduleName;       // the "schedule" row replays it; empty: no such row
    // meridian, baselines, meridian tuned (where there is one), meridian told, paced
    // oracle, oracle
    std::vector<EvaluationResult> results;
};

// The row of that autoscaler ("meridian", kHpaRow, …); null where the run has none.
const EvaluationResult *rowNamed(const EvaluationRun &run, const std::string &name);

}  // namespace meridian
