// The fleet's and each data center's utilisation hour by hour over a day or a week, read
// from the history file's hourly roll-ups, for the Fleet utilisation view. An hour with
// nothing recorded has no point, so it is drawn as a gap, never as idle.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct FleetUsagePoint {
    int64_t hourUnixS = 0;
    int cards = 0;  // that reported in the hour
    double cardHours = 0;
    double busyCardHours = 0;
    double utilizationSeconds = 0;  // seconds with a utilisation reading
    double utilizationPercentSeconds = 0;

    std::optional<double> meanUtilizationPercent() const;
    double busyPercent() const { return cardHours > 0 ? 100 * busyCardHours / cardHours : 0; }
};

struct FleetUsageSeries {
    int64_t fromUnixS = 0;
    int64_t toUnixS = 0;
    std::vector<FleetUsagePoint> fleet;                               // hours with data, in order
    std::map<std::string, std::vector<FleetUsagePoint>> dataCenters;  // by configured name

    // Over the whole window (the hours with data), fleet-wide or for one data center.
    static FleetUsagePoint total(const std::vector<FleetUsagePoint> &hours);
};

// [fromUnixS, toUnixS), whole hours; an error names the file.
Result<FleetUsageSeries> readFleetUsageByHour(const std::string &historyFile, int64_t fromUnixS,
                                              int64_t toUnixS);

}  // namespace meridian
