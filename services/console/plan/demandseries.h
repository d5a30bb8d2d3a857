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

// The minutes [fromMinute, fromMinute + minutes) of `series` (fewer at its end).
std::vector<double> minutesOf(const std::vector<double> &series, size_t fromMinute, size_t minutes);

}  // namespace meridian
