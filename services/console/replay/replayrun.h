// One replay of a trace in virtual time, as every row of an evaluation runs it: the trace
// profiled and scaled so its busiest minute needs the asked peak, simulated replicas
// serving it under an autoscaler that decides every fifteen seconds, and the figures of
// the run. evaluation.cpp sets the rows beside each other; a policy search replays
// candidates the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "evaluationrun.h"
#include "replayscalers.h"
#include "requestsource.h"

namespace meridian {

// What one pass over a trace learns: enough to size replicas and scale the load.
struct TraceProfile {
    int64_t requests = 0;
    double meanInputTokens = 0;
    double meanOutputTokens = 0;
    std::vector<double> rps;  // per minute
    double durationS = 0;
};

Result<TraceProfile> profileTrace(RequestSource &source, const std::string &name);

// What one replica sustains inside the objective on the profile's mix of prompt and
// output lengths.
double sustainedReplicaRps(const TraceProfile &profile, const EvaluationOptions &options);

// Replicas that serve `rps` at `occupancy` of what one sustains; at least one.
int replicasAtOccupancy(double rps, double replicaRps, double occupancy);

// A minute whose load steps up: when, and the replicas the new load needs.
struct LoadStep {
    double startS;
    int needed;  // replicas the new load needs
};

// Everything a replay needs besides the autoscaler.
struct Replay {
    RequestSource &requests;
    double durationS;
    const EvaluationOptions &options;
    double replicaRps;
    int localReplicas;
    const std::vector<LoadStep> &steps;
    double startRps = 0;  // the first minutes' load: what the service ran at before
};

// `scaler` deciding every interval over the whole trace, from `initialReplicas` warm;
// a scale-down lets rented replicas go in `order`.
EvaluationResult simulate(const std::string &name, Autoscaler &scaler, const Replay &replay,
                          int initialReplicas, ReleaseOrder order);

// Meridian's policy replayed as the live controller runs it, under `config`; told the
// trace's load where `told` says.
EvaluationResult replayMeridian(const std::string &name, const Replay &replay, int initial,
                                const ScalingPolicyConfig &config, ToldLoad told = {});

// The trace scaled for a replay, with what every autoscaler's replay of it shares.
struct ScaledTrace {
    std::unique_ptr<RequestSource> trace;
    double durationS = 0;
    double startRps = 0;  // the first minutes' load, which the starting replicas serve
    int initial = 0;      // replicas at the start, at the policy's target occupancy
    std::vector<LoadStep> steps;
};

// Scales the trace so its busiest minute needs peakCards, and fills in `run` what that
// says: a replica's rate, the scale factor, each minute's load, the owned replicas.
Result<ScaledTrace> scaleTrace(RequestSource &original, const std::string &name,
                               const EvaluationOptions &options, EvaluationRun &run);

}  // namespace meridian
