// `meridian-sim evaluate`: a request trace through simulated replicas and the scaling
// policy in virtual time, beside the baselines; a table on stdout, JSON and the p95 TTFT
// of every minute on request. The trace is streamed, so a fortnight of traffic fits.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/result.h"

namespace meridian {

struct EvaluationOptions;
struct EvaluationRun;
class RequestSource;

struct EvaluateCommand {
    std::string trace;
    double peakCards = 64;
    double localCards = -1;  // -1: half the peak
    double hours = 0;        // 0: the whole trace
    std::string json;
    std::string minutes;   // CSV: per minute, each autoscaler's p95 TTFT
    std::string timeline;  // CSV: per minute, Meridian's load, orders, start-ups and queue
    std::string policy;    // a policy file; empty: the defaults
    std::string schedule;  // FILE[:COLUMN]: replicas by minute, replayed as a row
    std::string shape;     // laid over the trace (scaling/shapefamily.h parseShape); empty: none
    uint64_t seed = 1;
    int seeds = 3;                     // the figures are the median over seeds seed, seed + 1, …
    int standbyNodes = 0;              // > 0: a row of Meridian with this many warm standby nodes
    std::optional<double> toldAheadS;  // how far ahead "meridian told" knows the load
};

int runEvaluate(const EvaluateCommand &command);

// The replay's options from the command line (the policy and schedule files read), or
// what is wrong with them, naming the option.
Result<EvaluationOptions> evaluationOptionsOf(const EvaluateCommand &command);

// A replay of one seed's trace (evaluateScaling, replayPolicies).
using ReplayOfTrace = std::function<Result<EvaluationRun>(
    RequestSource &trace, const std::string &name, const EvaluationOptions &options)>;

// The replay once per seed (the trace opened with it, so ServeGen's arrivals are drawn
// with it too), and the median of each figure over them.
Result<EvaluationRun> medianOfSeeds(const EvaluateCommand &command, EvaluationOptions options,
                                    const ReplayOfTrace &replay);

}  // namespace meridian
