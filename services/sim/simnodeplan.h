// The shape of a simulated fleet: which nodes exist, where, and of what kind. Pure and
// seeded, so the same options always give the same fleet.
#pragma once

#include <string>
#include <vector>

#include "fabric/fabricfile.h"
#include "telemetry/simcollector.h"

namespace meridian {

struct SimNodePlan {
    SimNodeSpec spec;
    std::string rack;
    std::string hostname;
};

// Xiamen, Wuhu and Zhongwei with the believable mix: 8×A100, 8×H100, 8×Ascend 910B,
// hybrid 4 A100 + 4 910B, MLU370 and DCU nodes (about 35-40% of cards domestic).
std::vector<SimNodePlan> planFleet(int nodes, uint64_t seed);

// The fleet's rail-optimised fabric as a fabric file: per data center four spines and one
// leaf per pod and rail, PFC on priority 3, non-blocking uplinks.
FabricFile railOptimisedFabric(const std::vector<SimNodePlan> &nodes);

// Nodes for a `cards` target: 8 cards a node, rounded up.
inline int nodesForCards(int cards)
{
    return (cards + 7) / 8;
}

}  // namespace meridian
