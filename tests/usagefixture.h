// Usage minutes for history and report tests: `cards` A100s of one node, each with
// `minutes` finished minutes from `firstMinute`, busy `busySeconds` of each, serving
// `service` (none when empty).
#pragma once

#include <string>

#include "history/historystore.h"

namespace meridian::test {

UsageBatch a100Minutes(const std::string &node, const std::string &dataCenter, int cards,
                       int64_t firstMinute, int minutes, double busySeconds,
                       double energyJoulesPerMinute, const std::string &service = {});

}  // namespace meridian::test
