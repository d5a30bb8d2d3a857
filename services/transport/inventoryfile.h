// The console's inventory: data centers, their agents, and how to reach them.
//   capacity_pool: 127.0.0.1:40000          # optional
//   tls: {ca_file: ca.crt, cert_file: console.crt, key_file: console.key}   # optional
//   token_file: ~/.config/meridian/token      # optional
//   data_centers:
//     - name: xiamen
//       agents:
//         - {node: xm-r01-n1, address: 10.1.0.11:50051}
// Errors name the file, the line and the problem.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "security.h"

namespace meridian {

struct InventoryAgent {
    std::string nodeHint;  // the node id the file expects; the agent's own word wins
    std::string address;
    std::string dataCenter;
};

struct FleetInventory {
    std::vector<InventoryAgent> agents;
    std::string capacityPool;
    ClientSecurity security;
};

Result<FleetInventory> loadInventory(const std::string &path);

}  // namespace meridian
