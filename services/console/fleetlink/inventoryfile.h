// The console's inventory: data centers, their agents, and how to reach them.
//   capacity_pool: 127.0.0.1:40000          # optional
//   scaling_controller: scaled.xm:50081      # optional: a headless autoscaler to show
//   tls: {ca_file: ca.crt, cert_file: console.crt, key_file: console.key}   # optional
//   token_file: ~/.config/meridian/token      # optional
//   data_centers:
//     - name: xiamen
//       agents:
//         - {node: xm-r01-n1, address: 10.1.0.11:50051}
//       prometheus: {url: https://prom.xm:9090, token_file: prom.token}   # optional
//   prometheus: {url: http://vm:8428, scrape_interval_s: 15}   # optional, the whole fleet
// Errors name the file, the line and the problem.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "wire/security.h"

namespace meridian {

struct InventoryAgent {
    std::string nodeHint;  // the node id the file expects; the agent's own word wins
    std::string address;
    std::string dataCenter;
};

// A Prometheus-compatible store that holds (part of) the fleet's readings.
struct StoreSource {
    std::string url;
    std::string dataCenter;  // for series without a `dc` label; empty: from the labels
    std::string bearerToken;
    std::string basicUser;
    std::string basicPassword;
    std::string caFile;
    int scrapeIntervalS = 15;
};

struct FleetInventory {
    std::vector<InventoryAgent> agents;
    std::vector<StoreSource> stores;
    std::string capacityPool;
    // meridian-scaled's address: the console shows (and approves) its plans instead of
    // running an autoscaler of its own.
    std::string scalingController;
    ClientSecurity security;
};

Result<FleetInventory> loadInventory(const std::string &path);

}  // namespace meridian
