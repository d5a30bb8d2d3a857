// Every card's utilisation at one past minute (or hour), read back from the history file
// for the fleet time machine: one indexed lookup of the time (the tables are keyed by time
// first), so any moment of the week at 6,000 cards is a few milliseconds.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace meridian {

struct FleetUtilizationAt {
    int64_t fromUnixS = 0;  // the minute's (or hour's) start
    int64_t grainS = 60;
    // Cards with a utilisation reading then, by UUID; a card not here had none.
    std::vector<std::pair<std::string, float>> cards;
};

class UsageRows;

// The minute (grainS 60) or hour (3600) holding `atUnixS`, on the file `rows` reads. A file
// that cannot be read is an error naming it.
Result<FleetUtilizationAt> readFleetUtilizationAt(UsageRows &rows, int64_t atUnixS, int64_t grainS);

}  // namespace meridian
