// The cheapest replicas by minute for a given number of misses, billed as rented
// replicas are: per started hour, from the order, which comes a start-up ahead of
// serving. Solved exactly, by dynamic programming, for each replica above the owned ones
// in turn (the k-th keeps, in each minute it serves, what a k-th replica keeps there), and
// by bisection on what a miss is worth against a replica-hour until the misses fit the
// budget. The misses are those of each minute replayed alone (MinuteMisses): the schedule
// is then replayed whole to see what it keeps.
#pragma once

#include <cstdint>
#include <vector>

#include "minutemisses.h"

namespace meridian {

struct LeasePlan {
    std::vector<int> replicas;  // serving in each minute
    int64_t misses = 0;         // by the minutes' own counts
    double rentedReplicaHours = 0;
};

struct LeasePlanOptions {
    int ownedReplicas = 0;   // paid either way: serving every minute
    int startupMinutes = 6;  // from the order to serving: the first paid hour serves less
};

// The plan for one price of a miss (in replica-hours).
LeasePlan planLeases(const std::vector<MinuteMisses> &minutes, double missCost,
                     const LeasePlanOptions &options);
// The cheapest plan whose misses are at most `budget`, or the one with the fewest.
LeasePlan planLeasesWithin(const std::vector<MinuteMisses> &minutes, int64_t budget,
                           const LeasePlanOptions &options);

}  // namespace meridian
