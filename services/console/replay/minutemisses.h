// What each minute of a trace needs, measured: how many of its requests miss the
// objective with a given number of warm replicas, the minute replayed through the
// simulated replicas after the minutes just before it, served by as many as they needed
// (so batches are as busy as they are there: a long answer holds its slot for minutes),
// counting only its own requests. The exact oracle plans its schedule from these counts.
#pragma once

#include <cstdint>
#include <vector>

#include "requestsource.h"
#include "servingsim.h"

namespace meridian {

struct MinuteMisses {
    int32_t requests = 0;
    int fewest = 0;                // the fewest replicas measured
    std::vector<int32_t> byCount;  // misses with fewest, fewest + 1, …; the last is the least

    // Misses with `replicas`: all of the minute's requests below what was measured, the
    // least measured above it.
    int32_t with(int replicas) const;
    // The fewest replicas that miss no more than any count measured.
    int enough() const;
};

struct MinuteMissesOptions {
    ReplicaPerformance performance;
    double objectiveS = 5;
    double replicaRps = 1;  // a first guess at each minute's replicas: its rate over this
    int mostReplicas = 256;
    int countsBelowGuess = 5;  // measured below the first guess, where misses are spent
    int warmUpMinutes = 1;     // long enough for most answers in a batch to finish
};

// Reads `requests` once from the start, one minute at a time.
std::vector<MinuteMisses> measureMinuteMisses(RequestSource &requests,
                                              const MinuteMissesOptions &options);

}  // namespace meridian
