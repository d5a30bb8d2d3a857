// Which history rows answer a period: whole days from the daily roll-ups, whole hours
// from the hourly ones, the rest from minutes. Where a grain's rows are past retention,
// the next coarser grain answers, counting each of its rows in the period that holds
// the row's start (so a report stays exact to the minute for the last 14 days, to the
// hour for 400 days, and to the day beyond).
#pragma once

#include <cstdint>
#include <vector>

namespace meridian {

enum class Grain { Day, Hour, Minute };
// How long one row of the grain spans.
int64_t grainSeconds(Grain grain);

struct RollupRead {
    Grain grain = Grain::Day;
    int64_t fromUnixS = 0;  // rows whose start lies in [fromUnixS, toUnixS)
    int64_t toUnixS = 0;
    bool operator==(const RollupRead &) const = default;
};

struct KeptRange {
    int64_t minutesFromUnixS = 0;  // minute rows before this were dropped
    int64_t hoursFromUnixS = 0;    // hour rows before this were dropped
};

std::vector<RollupRead> planRollupReads(int64_t fromUnixS, int64_t toUnixS, KeptRange kept);

}  // namespace meridian
