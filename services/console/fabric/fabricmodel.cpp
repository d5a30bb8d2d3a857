#include "fabricmodel.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace meridian {

namespace {

std::string joined(const std::vector<uint32_t> &priorities)
{
    if (priorities.empty())
        return "none";
    std::string out;
    for (uint32_t p : priorities)
        out += (out.empty() ? "" : ",") + std::to_string(p);
    return out;
}

std::vector<uint32_t> sorted(std::vector<uint32_t> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

double sumOf(const std::array<std::optional<double>, kPfcPriorities> &rates)
{
    double sum = 0;
    for (const auto &r : rates)
        sum += r.value_or(0);
    return sum;
}

// The rail most of a leaf's NICs serve, when clearly most of them (and enough to say).
std::optional<int> majorityRail(const std::map<int, int> &votes)
{
    int total = 0, best = -1, bestVotes = 0;
    for (const auto &[rail, n] : votes) {
        total += n;
        if (n > bestVotes) {
            best = rail;
            bestVotes = n;
        }
    }
    if (total >= 3 && bestVotes * 10 >= total * 6)
        return best;
    return std::nullopt;
}

}  // namespace

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

Fabric assembleFabric(const std::vector<HostNic> &nics, const FabricFile *file, int64_t nowMs,
                      const FabricOptions &options)
{
    Fabric fabric;
    std::map<std::string, size_t> switchIndex;
    const auto addSwitch = [&](FabricSwitch s) -> FabricSwitch & {
        const auto it = switchIndex.find(s.name);
        if (it != switchIndex.end())
            return fabric.switches[it->second];
        switchIndex[s.name] = fabric.switches.size();
        fabric.switches.push_back(std::move(s));
        return fabric.switches.back();
    };
    if (file) {
        for (const FabricDataCenter &dc : file->dataCenters) {
            for (const std::string &spine : dc.spines)
                addSwitch({spine, dc.name, SwitchTier::Spine, {}, {}, true, false});
            for (const FabricLeaf &leaf : dc.leaves)
                addSwitch({leaf.name, dc.name, SwitchTier::Leaf, leaf.pod, leaf.rail, true, false});
        }
    }

    // Host links, from LLDP.
    std::map<std::string, std::map<int, int>> railVotes;                   // leaf → rail → NICs
    std::map<std::pair<std::string, std::string>, std::string> portOwner;  // (leaf, port) → NIC
    for (const HostNic &h : nics) {
        const std::string where = h.nodeId + " " + h.nic.netdev;
        if (!h.nic.neighbor || h.nic.neighbor->systemName.empty()) {
            if (h.nic.linkState == LinkState::Up)
                fabric.findings.push_back(
                    {FindingKind::NoNeighbor, h.dataCenter, where,
                     "the link is up but no LLDP neighbour names its switch"});
            continue;
        }
        const LldpNeighbor &n = *h.nic.neighbor;
        FabricSwitch &leaf =
            addSwitch({n.systemName, h.dataCenter, SwitchTier::Leaf, {}, {}, false, false});
        leaf.seen = true;
        if (file && !leaf.declared && leaf.tier == SwitchTier::Leaf) {
            leaf.declared = true;  // said once per switch, not once per NIC
            fabric.findings.push_back(
                {FindingKind::UnknownSwitch, h.dataCenter, n.systemName,
                 fmt::format("{} is not in the fabric file ({} sees it)", n.systemName, where)});
        }
        FabricLink link;
        link.kind = FabricLink::Kind::HostToLeaf;
        link.dataCenter = h.dataCenter;
        link.hostNode = h.nodeId;
        link.netdev = h.nic.netdev;
        link.rail = h.nic.nearestCardIndex;
        link.leaf = n.systemName;
        link.leafPort = n.portId;
        link.capacityBitsPerSecond = static_cast<double>(h.nic.speedMbps.value_or(0)) * 1e6;
        if (h.sample) {
            const NicSample &s = *h.sample;
            if (link.capacityBitsPerSecond > 0 && (s.rxBytesPerSecond || s.txBytesPerSecond))
                link.loadShare =
                    std::max(s.rxBytesPerSecond.value_or(0), s.txBytesPerSecond.value_or(0)) * 8 /
                    link.capacityBitsPerSecond;
            link.pfcPausesPerSecond = sumOf(s.rxPausePerSecond) + sumOf(s.txPausePerSecond);
            link.ecnPerSecond = s.ecnMarkedPerSecond.value_or(0) + s.cnpSentPerSecond.value_or(0) +
                                s.cnpHandledPerSecond.value_or(0);
        }
        const LinkState state = h.sample ? h.sample->counters.linkState : h.nic.linkState;
        link.health = h.recentLinkDrops >= options.flappingDrops ? LinkHealth::Flapping
                      : state == LinkState::Down                 ? LinkHealth::Down
                                                                 : LinkHealth::Up;
        // What is wrong with the link now comes first in the findings: it is what a slow
        // job is waiting on.
        if (link.health == LinkHealth::Flapping)
            fabric.findings.push_back(
                {FindingKind::LinkFlapping, h.dataCenter, where,
                 fmt::format("went down {} times in ten minutes (to {} {}): replace the cable or "
                             "transceiver",
                             h.recentLinkDrops, n.systemName, n.portId)});
        else if (link.health == LinkHealth::Down)
            fabric.findings.push_back({FindingKind::LinkDown, h.dataCenter, where,
                                       fmt::format("down (to {} {}): its rail's traffic takes "
                                                   "the other NICs",
                                                   n.systemName, n.portId)});
        if (link.pfcPausesPerSecond >= options.pfcStormPausesPerSecond)
            fabric.findings.push_back(
                {FindingKind::PfcStorm, h.dataCenter, where,
                 fmt::format("{:.0f} pause frames/s with {} {}: a stuck receiver is holding the "
                             "fabric; isolate its port",
                             link.pfcPausesPerSecond, n.systemName, n.portId)});
        link.stale = h.neighborSeenMs > 0 && nowMs - h.neighborSeenMs > options.staleAfterMs;
        if (link.stale)
            fabric.findings.push_back(
                {FindingKind::StaleNeighbor, h.dataCenter, where,
                 fmt::format("{} {} not reported for {} min; drawn as last seen", n.systemName,
                             n.portId, (nowMs - h.neighborSeenMs) / 60'000)});
        if (!n.portId.empty()) {
            auto [it, fresh] = portOwner.emplace(std::pair{n.systemName, n.portId}, where);
            if (!fresh)
                fabric.findings.push_back({FindingKind::PortClaimedTwice, h.dataCenter,
                                           n.systemName + " " + n.portId,
                                           fmt::format("{} {} is claimed by {} and by {}",
                                                       n.systemName, n.portId, it->second, where)});
        }
        if (link.rail)
            ++railVotes[n.systemName][static_cast<int>(*link.rail)];
        // PFC: the host's priorities against the switch's (fabric file first, then what
        // the switch itself advertises over LLDP).
        std::optional<std::vector<uint32_t>> switchPfc;
        if (const FabricLeaf *declared = file ? file->leaf(n.systemName) : nullptr)
            switchPfc = declared->pfcPriorities;
        if (!switchPfc && n.pfcPriorities)
            switchPfc = n.pfcPriorities;
        if (switchPfc && sorted(*switchPfc) != sorted(h.nic.pfcEnabledPriorities))
            fabric.findings.push_back(
                {FindingKind::PfcMismatch, h.dataCenter, where,
                 fmt::format("PFC on priorities {} on the host, {} on {} {}: pauses will not be "
                             "honoured and lossless traffic drops",
                             joined(sorted(h.nic.pfcEnabledPriorities)), joined(sorted(*switchPfc)),
                             n.systemName, n.portId)});
        fabric.links.push_back(std::move(link));
    }

    // Rails: a leaf serves one rail; a NIC of another rail on it is cabled wrong.
    for (FabricSwitch &s : fabric.switches) {
        if (s.tier != SwitchTier::Leaf)
            continue;
        if (!s.rail)
            s.rail = majorityRail(railVotes[s.name]);
    }
    for (const FabricLink &l : fabric.links) {
        const FabricSwitch *leaf = fabric.findSwitch(l.leaf);
        if (l.kind != FabricLink::Kind::HostToLeaf || !l.rail || !leaf || !leaf->rail ||
            *leaf->rail == static_cast<int>(*l.rail))
            continue;
        fabric.findings.push_back(
            {FindingKind::WrongLeaf, l.dataCenter, l.hostNode + " " + l.netdev,
             fmt::format("rail {} NIC is cabled to {} {}, a rail {} leaf: its traffic crosses "
                         "the spines",
                         *l.rail, l.leaf, l.leafPort, *leaf->rail)});
    }

    // Uplinks, from the fabric file; their load is what the hosts below send, shared out.
    if (file) {
        std::map<std::string, double> sentBitsPerSecond;
        for (const FabricLink &l : fabric.links) {
            if (l.loadShare)
                sentBitsPerSecond[l.leaf] += *l.loadShare * l.capacityBitsPerSecond;
        }
        for (const FabricDataCenter &dc : file->dataCenters) {
            for (const FabricLeaf &leaf : dc.leaves) {
                const std::vector<std::string> &spines =
                    leaf.spines.empty() ? dc.spines : leaf.spines;
                for (const std::string &spine : spines) {
                    FabricLink up;
                    up.kind = FabricLink::Kind::LeafToSpine;
                    up.dataCenter = dc.name;
                    up.leaf = leaf.name;
                    up.spine = spine;
                    up.capacityBitsPerSecond =
                        leaf.uplinkGbps * 1e9 / static_cast<double>(spines.size());
                    up.estimated = true;
                    if (up.capacityBitsPerSecond > 0 && sentBitsPerSecond.count(leaf.name))
                        up.loadShare = sentBitsPerSecond[leaf.name] /
                                       static_cast<double>(spines.size()) /
                                       up.capacityBitsPerSecond;
                    fabric.links.push_back(std::move(up));
                }
            }
        }
    }
    return fabric;
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
