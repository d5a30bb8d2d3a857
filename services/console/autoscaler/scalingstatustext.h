// A headless controller's view as `meridian-scaled status` prints it: the mode, when the
// last pass ran, each service's replicas (serving, starting, wanted), what it rents and
// at what cost, its latency, and the conditions that hold its scaling back.
#pragma once

#include <cstdint>
#include <string>

#include "scalingcontrol.h"

namespace meridian {

std::string scalingStatusText(const ScalingView &view, const std::string &controllerId,
                              const std::string &address, int64_t nowUnixMs);

}  // namespace meridian
