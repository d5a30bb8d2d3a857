// A FleetState filled by hand for model and widget tests: data centers, nodes and cards
// with chosen readings, no network.
#pragma once

#include <string>
#include <vector>

#include "fleet/fleetstate.h"

namespace meridian::test {

struct FakeNode {
    std::string dataCenter;
    std::string nodeId;
    std::string rack;
    Vendor vendor = Vendor::Nvidia;
    int cards = 8;
    double utilization = 50;  // every card of the node
    bool reports = true;      // false: the agent never answered
};

// `nodes` nodes spread over Xiamen, Wuhu and Zhongwei in turn, `perRack` to a rack
// ("xi-r0", "wu-r0", …), each node's cards at a utilisation from 0 to 99.
std::vector<FakeNode> threeDataCenters(int nodes, int perRack);

// Adds the nodes to `state` and records one telemetry batch at `nowMs` for those that report.
void fillFleet(FleetState &state, const std::vector<FakeNode> &nodes, int64_t nowMs);

}  // namespace meridian::test
