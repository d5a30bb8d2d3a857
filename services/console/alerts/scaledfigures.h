// meridian-scaled's /metrics as a watcher reads them: each service's latency against its
// objective and the plan steps waiting for approval (the alerts people act on), and when
// the controller's last pass ran. Read as coming from a stranger: a line that is not the
// exposition format, or a value that is not a number, refuses the whole answer by line.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "alertengine.h"
#include "core/result.h"

namespace meridian {

struct ScaledFigures {
    std::vector<ServiceObservation> services;
    int64_t lastPassMs = 0;  // 0: not said
};

Result<ScaledFigures> parseScaledMetrics(std::string_view text);

}  // namespace meridian
