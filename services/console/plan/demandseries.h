// A service's demand, minute by minute, as the plan reads it: from ServeGen's aggregate
// rate per 10-minute window (window_start_s,total_rate_rps) or from a recorded series of
// minutes (minute_start_s,rps), plain or gzipped. Bounded like every trace (TraceLines);
// a row that is not two numbers, a negative or non-finite rate, a window out of order or
// more than a year long is refused with the file and line named.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct DemandSeries {
    std::string name;         // the file's name, for the figures
    std::vector<double> rps;  // one a minute, from the first
};

Result<DemandSeries> readDemandSeries(const std::string &path);

// `rps` as A100 replicas at their sustained rate, scaled so its busiest minute needs
// `peakCards` A100 cards: the shape is the service's, the size the one asked. Empty where
// the series holds no demand at all.
std::vector<double> replicasAtPeak(const std::vector<double> &rps, double peakCards,
                                   int cardsPerReplica);

// `rps` as A100 replicas where one sustains `replicaRps` inside the objective: a recorded
// service's own size. Empty where the series holds no demand at all.
std::vector<double> replicasAtRate(const std::vector<double> &rps, double replicaRps);

// The minutes [fromMinute, fromMinute + minutes) of `series` (fewer at its end).
std::vector<double> minutesOf(const std::vector<double> &series, size_t fromMinute, size_t minutes);

}  // namespace meridian
