// LLM request traces for the scaling evaluation, read from the real captures in their
// own formats: Azure LLM inference 2023 (CSV: time, prompt and output tokens), Mooncake
// (JSON lines: ms from start, input and output length) and ServeGen (aggregate request
// rate per 10-minute window, turned into Poisson arrivals with prompt and output lengths
// drawn from the Azure conversation mix, seeded, so every run is the same).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct TraceRequest {
    double arrivalS = 0;  // from the start of the trace
    int inputTokens = 0;
    int outputTokens = 0;
};

struct RequestTrace {
    std::string name;
    std::vector<TraceRequest> requests;  // by arrival
    double durationS = 0;
};

// Reads any of the three by its content; errors name the file and line. A ServeGen
// rate file is cut to `maxSeconds` (0: all of it).
Result<RequestTrace> loadRequestTrace(const std::string &path, double maxSeconds = 0,
                                      uint64_t seed = 1);

// The same trace with its arrival rate multiplied by `factor` (> 0): requests are
// repeated or dropped at random, keeping the shape over time.
RequestTrace scaleTrace(const RequestTrace &trace, double factor, uint64_t seed = 1);

}  // namespace meridian
