// What agents cannot see of the fabric: its switches, their tiers and PFC settings, and
// the leaf-to-spine uplinks, written by the network team (or by meridian-sim for its
// fleet). Optional: without it the fabric is drawn from what the hosts' LLDP says.
//   data_centers:
//     - name: xiamen
//       spines: [xm-spine1, xm-spine2]
//       leaves:
//         - {name: xiamen-pod0-leaf0, pod: 0, rail: 0, pfc_priorities: [3],
//            uplink_gbps: 1600}        # to every spine unless `spines:` names some
// Errors name the file and the line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct FabricLeaf {
    std::string name;
    std::optional<int> pod;
    std::optional<int> rail;  // rail-optimised: the GPU/NPU index its hosts' NICs serve
    std::optional<std::vector<uint32_t>> pfcPriorities;
    double uplinkGbps = 0;            // all its uplinks together
    std::vector<std::string> spines;  // empty: every spine of its data center
};

struct FabricDataCenter {
    std::string name;
    std::vector<std::string> spines;
    std::vector<FabricLeaf> leaves;
};

struct FabricFile {
    std::vector<FabricDataCenter> dataCenters;
    const FabricLeaf *leaf(const std::string &name, std::string *dataCenter = nullptr) const;
};

Result<FabricFile> loadFabricFile(const std::string &path);
// The same text from memory (the simulator's own fabric, tests); `name` names it in errors.
Result<FabricFile> parseFabricFile(const std::string &text, const std::string &name);
std::string fabricFileToYaml(const FabricFile &file);

}  // namespace meridian
