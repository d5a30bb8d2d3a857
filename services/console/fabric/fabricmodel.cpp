#include "fabricmodel.h"

#include <fmt/format.h>

#include <map>

namespace meridian {

std::string_view findingKindName(FindingKind kind)
{
    switch (kind) {
    case FindingKind::WrongLeaf: return "wrong leaf";
    case FindingKind::PfcMismatch: return "PFC mismatch";
    case FindingKind::StaleNeighbor: return "stale neighbour";
    case FindingKind::NoNeighbor: return "no neighbour";
    case FindingKind::PortClaimedTwice: return "port claimed twice";
    case FindingKind::UnknownSwitch: return "unknown switch";
    case FindingKind::LinkDown: return "link down";
    case FindingKind::LinkFlapping: return "link flapping";
    case FindingKind::PfcStorm: return "PFC storm";
    }
    return "finding";
}

const FabricSwitch *Fabric::findSwitch(const std::string &name) const
{
    for (const FabricSwitch &s : switches) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

FabricPath pathBetween(const Fabric &fabric, const std::string &fromNode, const std::string &toNode,
                       uint32_t rail)
{
    FabricPath path;
    const auto hostLink = [&](const std::string &node) -> std::optional<size_t> {
        for (size_t i = 0; i < fabric.links.size(); ++i) {
            const FabricLink &l = fabric.links[i];
            if (l.kind == FabricLink::Kind::HostToLeaf && l.hostNode == node && l.rail == rail)
                return i;
        }
        return std::nullopt;
    };
    const auto from = hostLink(fromNode);
    const auto to = hostLink(toNode);
    if (!from || !to) {
        path.why =
            fmt::format("{} has no rail {} NIC with a known leaf", !from ? fromNode : toNode, rail);
        return path;
    }
    const std::string &leafA = fabric.links[*from].leaf;
    const std::string &leafB = fabric.links[*to].leaf;
    if (leafA == leafB) {
        path.links = {*from, *to};
        path.hops = {fromNode, leafA, toNode};
        return path;
    }
    // Through the first spine both leaves reach.
    std::map<std::string, size_t> upA;
    for (size_t i = 0; i < fabric.links.size(); ++i) {
        const FabricLink &l = fabric.links[i];
        if (l.kind == FabricLink::Kind::LeafToSpine && l.leaf == leafA)
            upA[l.spine] = i;
    }
    for (size_t i = 0; i < fabric.links.size(); ++i) {
        const FabricLink &l = fabric.links[i];
        if (l.kind == FabricLink::Kind::LeafToSpine && l.leaf == leafB && upA.count(l.spine)) {
            path.links = {*from, upA[l.spine], i, *to};
            path.hops = {fromNode, leafA, l.spine, leafB, toNode};
            return path;
        }
    }
    path.why = fmt::format("{} and {} share no spine the fabric file names", leafA, leafB);
    return path;
}

}  // namespace meridian
