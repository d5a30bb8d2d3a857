#include "simnodeplan.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace meridian {

namespace {

struct DataCenter {
    const char *name;
    const char *prefix;
    double share;
};

constexpr DataCenter kDataCenters[] = {
    {"xiamen", "xm", 0.40}, {"wuhu", "wh", 0.35}, {"zhongwei", "zw", 0.25}};

// Node kinds by share of nodes; the order is how racks are filled.
constexpr std::pair<SimNodeKind, double> kMix[] = {
    {SimNodeKind::A100, 0.40},       {SimNodeKind::H100, 0.15},   {SimNodeKind::Hybrid, 0.15},
    {SimNodeKind::Ascend910B, 0.14}, {SimNodeKind::Mlu370, 0.08}, {SimNodeKind::HygonDcu, 0.08},
};

constexpr int kNodesPerRack = 4;
constexpr int kRacksPerPod = 8;

SimNodeKind kindAt(int index, int total)
{
    // Deterministic spread of kinds in proportion to the mix.
    const double position = (static_cast<double>(index) + 0.5) / static_cast<double>(total);
    double cumulative = 0;
    for (const auto &[kind, share] : kMix) {
        cumulative += share;
        if (position < cumulative)
            return kind;
    }
    return SimNodeKind::A100;
}

}  // namespace

std::vector<SimNodePlan> planFleet(int nodes, uint64_t seed)
{
    std::vector<SimNodePlan> plan;
    int assigned = 0;
    for (size_t d = 0; d < std::size(kDataCenters); ++d) {
        const DataCenter &dc = kDataCenters[d];
        const int count = d + 1 == std::size(kDataCenters)
                              ? nodes - assigned
                              : static_cast<int>(nodes * dc.share + 0.5);
        for (int i = 0; i < count; ++i) {
            SimNodePlan p;
            const int rack = i / kNodesPerRack;
            p.spec.kind = kindAt(i, count);
            p.spec.seed = seed * 100'003 + static_cast<uint64_t>(assigned + i);
            p.spec.dataCenter = dc.name;
            p.spec.pod = rack / kRacksPerPod;
            p.spec.podSlot = (rack % kRacksPerPod) * kNodesPerRack + i % kNodesPerRack;
            p.rack = fmt::format("{}-r{:02}", dc.prefix, rack + 1);
            p.spec.nodeId =
                fmt::format("{}-r{:02}-n{}", dc.prefix, rack + 1, i % kNodesPerRack + 1);
            p.hostname = fmt::format("{}.{}.meridian.internal", p.spec.nodeId, dc.name);
            plan.push_back(std::move(p));
        }
        assigned += count;
    }
    return plan;
}

FabricFile railOptimisedFabric(const std::vector<SimNodePlan> &nodes)
{
    constexpr int kSpines = 4;
    constexpr int kRails = 8;
    constexpr double kHostsPerLeaf = 32;  // a pod's nodes, one NIC each per rail
    FabricFile file;
    std::map<std::string, std::set<int>> pods;
    std::vector<std::string> order;
    for (const SimNodePlan &node : nodes) {
        const std::string &dc = node.spec.dataCenter;
        if (!pods.count(dc))
            order.push_back(dc);
        pods[dc].insert(node.spec.pod);
    }
    for (const std::string &dc : order) {
        FabricDataCenter d;
        d.name = dc;
        for (int s = 1; s <= kSpines; ++s)
            d.spines.push_back(fmt::format("{}-spine{}", dc, s));
        for (int pod : pods[dc]) {
            for (int rail = 0; rail < kRails; ++rail) {
                FabricLeaf leaf;
                leaf.name = fmt::format("{}-pod{}-leaf{}", dc, pod, rail);
                leaf.pod = pod;
                leaf.rail = rail;
                leaf.pfcPriorities = std::vector<uint32_t>{3};
                leaf.uplinkGbps = kHostsPerLeaf * 400;
                d.leaves.push_back(std::move(leaf));
            }
        }
        file.dataCenters.push_back(std::move(d));
    }
    return file;
}

}  // namespace meridian
