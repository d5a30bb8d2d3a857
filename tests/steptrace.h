// A crafted load step for the replay's cases: steady load at `low` requests a second that
// jumps to `high` for the middle of three phases, each an hour unless `phaseMinutes`
// says otherwise. Prompts of `inputTokens`, answers of 120.
#pragma once

#include "replay/requesttrace.h"

namespace meridian::test {

inline RequestTrace stepTrace(int low, int high, int inputTokens = 800, int phaseMinutes = 60)
{
    RequestTrace trace;
    trace.name = "step";
    const int phaseS = 60 * phaseMinutes;
    for (int s = 0; s < 3 * phaseS; ++s) {
        const int rate = s >= phaseS && s < 2 * phaseS ? high : low;
        for (int i = 0; i < rate; ++i)
            trace.requests.push_back({s + i / static_cast<double>(rate), inputTokens, 120, {}});
    }
    trace.durationS = 3 * phaseS;
    return trace;
}

}  // namespace meridian::test
