// One card's utilisation and power over a window, read back from the history file, for
// the card panel's longer ranges (this console keeps only 15 minutes in memory; memory
// and temperature are not in the file). Minutes where the window is a day or less
// (they are kept 14 days), hours beyond; averaged into steps, a step with nothing
// recorded as NaN, so a chart draws a gap there and not a zero.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct UsageSeriesPoint {
    int64_t timeUnixS = 0;          // the step's start
    double utilizationPercent = 0;  // NaN: nothing recorded
    double powerWatts = 0;          // NaN: nothing recorded, or no energy reading
};

// Steps of `stepS` from `fromUnixS` up to `toUnixS`. A card the file does not know yet
// (a new file, a new card) has nothing recorded in any step; a file that cannot be read is
// an error naming the file.
Result<std::vector<UsageSeriesPoint>> readCardUsageSeries(const std::string &historyFile,
                                                          const std::string &cardUuid,
                                                          int64_t fromUnixS, int64_t toUnixS,
                                                          int64_t stepS);

// Where the file's kept history begins: the start of its oldest minute, hour or day row
// (nullopt: it holds none yet). Each table is keyed by time first, so this is three
// lookups, not a scan.
Result<std::optional<int64_t>> readHistoryBeginsUnixS(const std::string &historyFile);
class UsageRows;
Result<std::optional<int64_t>> readHistoryBeginsUnixS(UsageRows &rows);

}  // namespace meridian
