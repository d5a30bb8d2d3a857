// A request trace held whole in memory: for tests and short traces. Replays read the
// file as they go instead (tracefile.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "requestsource.h"

namespace meridian {

struct RequestTrace {
    std::string name;
    std::vector<TraceRequest> requests;  // by arrival
    double durationS = 0;
};

// Reads any of the trace formats (tracefile.h); errors name the file and line. At most
// 50 million requests are held: a longer trace is refused, to be replayed in part or
// streamed. `maxSeconds` > 0 ends the trace there.
Result<RequestTrace> loadRequestTrace(const std::string &path, double maxSeconds = 0,
                                      uint64_t seed = 1);

// The same trace with its arrival rate multiplied by `factor` (> 0), as ScaledSource does.
RequestTrace scaleTrace(const RequestTrace &trace, double factor, uint64_t seed = 1);

}  // namespace meridian
