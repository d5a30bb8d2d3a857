// The faults meridian-sim can play, by name, and scenario files that schedule them:
//   faults:
//     - {at_seconds: 30, node: xm-r01-n1, kind: xid79, card: 2}
//     - {at_seconds: 60, data_center: wuhu, kind: crash, duration_seconds: 120}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "telemetry/simcollector.h"

namespace meridian {

std::optional<FaultKind> faultKindFromName(std::string_view name);
const char *faultKindName(FaultKind kind);
std::string faultKindNames();  // for help texts and errors

// Whom a fault hits: one node, or every node of a data center (a dead data center).
struct FaultSpec {
    std::string nodeId;
    std::string dataCenter;
    FaultKind kind = FaultKind::Crash;
    std::optional<uint32_t> card;
    std::string netdev;
    int64_t durationMs = 0;  // 0: until cleared
    int delayMs = 0;         // Slow: how late every answer is
};

struct ScenarioStep {
    int64_t atMs = 0;  // after the simulator starts
    FaultSpec fault;
};

// Errors name the file and line.
Result<std::vector<ScenarioStep>> loadScenario(const std::string &path);

}  // namespace meridian
