// assembleFabric: the hosts' NICs joined to the leaves their LLDP names, the fabric
// file's switches and uplinks, and the findings on the way.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "fabricmodel.h"

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

// One assembly: switches by name as they are met, then each host's link with what is
// wrong with it, then the rails the leaves serve and the uplinks above them.
class Assembly {
public:
    Assembly(const FabricFile *file, int64_t nowMs, const FabricOptions &options)
        : m_file(file), m_nowMs(nowMs), m_options(options)
    {}

    Fabric run(const std::vector<HostNic> &nics) &&
    {
        if (m_file)
            addDeclaredSwitches();
        for (const HostNic &h : nics)
            addHostLink(h);
        checkRails();
        if (m_file)
            addUplinks();
        return std::move(m_fabric);
    }

private:
    FabricSwitch &addSwitch(FabricSwitch s)
    {
        const auto it = m_switchIndex.find(s.name);
        if (it != m_switchIndex.end())
            return m_fabric.switches[it->second];
        m_switchIndex[s.name] = m_fabric.switches.size();
        m_fabric.switches.push_back(std::move(s));
        return m_fabric.switches.back();
    }

    void find(FindingKind kind, const std::string &dataCenter, std::string where, std::string what,
              std::vector<std::string> facts = {})
    {
        m_fabric.findings.push_back(
            {kind, dataCenter, std::move(where), std::move(what), std::move(facts)});
    }

    void addDeclaredSwitches()
    {
        for (const FabricDataCenter &dc : m_file->dataCenters) {
            for (const std::string &spine : dc.spines)
                addSwitch({spine, dc.name, SwitchTier::Spine, {}, {}, true, false});
            for (const FabricLeaf &leaf : dc.leaves)
                addSwitch({leaf.name, dc.name, SwitchTier::Leaf, leaf.pod, leaf.rail, true, false});
        }
    }

    // A host link, from LLDP.
    void addHostLink(const HostNic &h)
    {
        const std::string where = h.nodeId + " " + h.nic.netdev;
        if (!h.nic.neighbor || h.nic.neighbor->systemName.empty()) {
            if (h.nic.linkState == LinkState::Up)
                find(FindingKind::NoNeighbor, h.dataCenter, where,
                     "the link is up but no LLDP neighbour names its switch");
            return;
        }
        const LldpNeighbor &n = *h.nic.neighbor;
        FabricSwitch &leaf =
            addSwitch({n.systemName, h.dataCenter, SwitchTier::Leaf, {}, {}, false, false});
        leaf.seen = true;
        if (m_file && !leaf.declared && leaf.tier == SwitchTier::Leaf) {
            leaf.declared = true;  // said once per switch, not once per NIC
            find(FindingKind::UnknownSwitch, h.dataCenter, n.systemName,
                 fmt::format("{} is not in the fabric file ({} sees it)", n.systemName, where),
                 {n.systemName, where});
        }
        FabricLink link = measuredLink(h, n);
        // What is wrong with the link now comes first in the findings: it is what a slow
        // job is waiting on.
        healthFindings(link, h, where);
        neighbourFindings(link, h, where);
        if (link.rail)
            ++m_railVotes[n.systemName][static_cast<int>(*link.rail)];
        pfcFindings(h, where);
        m_fabric.links.push_back(std::move(link));
    }

    FabricLink measuredLink(const HostNic &h, const LldpNeighbor &n) const
    {
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
        link.health = h.recentLinkDrops >= m_options.flappingDrops ? LinkHealth::Flapping
                      : state == LinkState::Down                   ? LinkHealth::Down
                                                                   : LinkHealth::Up;
        link.stale = h.neighborSeenMs > 0 && m_nowMs - h.neighborSeenMs > m_options.staleAfterMs;
        return link;
    }

    void healthFindings(const FabricLink &link, const HostNic &h, const std::string &where)
    {
        if (link.health == LinkHealth::Flapping)
            find(FindingKind::LinkFlapping, h.dataCenter, where,
                 fmt::format("went down {} times in ten minutes (to {} {}): replace the cable or "
                             "transceiver",
                             h.recentLinkDrops, link.leaf, link.leafPort),
                 {std::to_string(h.recentLinkDrops), link.leaf, link.leafPort});
        else if (link.health == LinkHealth::Down)
            find(FindingKind::LinkDown, h.dataCenter, where,
                 fmt::format("down (to {} {}): its rail's traffic takes the other NICs", link.leaf,
                             link.leafPort),
                 {link.leaf, link.leafPort});
        if (link.pfcPausesPerSecond >= m_options.pfcStormPausesPerSecond)
            find(FindingKind::PfcStorm, h.dataCenter, where,
                 fmt::format("{:.0f} pause frames/s with {} {}: a stuck receiver is holding the "
                             "fabric; isolate its port",
                             link.pfcPausesPerSecond, link.leaf, link.leafPort),
                 {fmt::format("{:.0f}", link.pfcPausesPerSecond), link.leaf, link.leafPort});
    }

    void neighbourFindings(const FabricLink &link, const HostNic &h, const std::string &where)
    {
        if (link.stale)
            find(FindingKind::StaleNeighbor, h.dataCenter, where,
                 fmt::format("{} {} not reported for {} min; drawn as last seen", link.leaf,
                             link.leafPort, (m_nowMs - h.neighborSeenMs) / 60'000),
                 {link.leaf, link.leafPort, std::to_string((m_nowMs - h.neighborSeenMs) / 60'000)});
        if (link.leafPort.empty())
            return;
        auto [it, fresh] = m_portOwner.emplace(std::pair{link.leaf, link.leafPort}, where);
        if (!fresh)
            find(FindingKind::PortClaimedTwice, h.dataCenter, link.leaf + " " + link.leafPort,
                 fmt::format("{} {} is claimed by {} and by {}", link.leaf, link.leafPort,
                             it->second, where),
                 {link.leaf, link.leafPort, it->second, where});
    }

    // PFC: the host's priorities against the switch's (fabric file first, then what the
    // switch itself advertises over LLDP).
    void pfcFindings(const HostNic &h, const std::string &where)
    {
        const LldpNeighbor &n = *h.nic.neighbor;
        std::optional<std::vector<uint32_t>> switchPfc;
        if (const FabricLeaf *declared = m_file ? m_file->leaf(n.systemName) : nullptr)
            switchPfc = declared->pfcPriorities;
        if (!switchPfc && n.pfcPriorities)
            switchPfc = n.pfcPriorities;
        if (switchPfc && sorted(*switchPfc) != sorted(h.nic.pfcEnabledPriorities))
            find(FindingKind::PfcMismatch, h.dataCenter, where,
                 fmt::format("PFC on priorities {} on the host, {} on {} {}: pauses will not be "
                             "honoured and lossless traffic drops",
                             joined(sorted(h.nic.pfcEnabledPriorities)), joined(sorted(*switchPfc)),
                             n.systemName, n.portId),
                 {joined(sorted(h.nic.pfcEnabledPriorities)), joined(sorted(*switchPfc)),
                  n.systemName, n.portId});
    }

    // Rails: a leaf serves one rail; a NIC of another rail on it is cabled wrong.
    void checkRails()
    {
        for (FabricSwitch &s : m_fabric.switches) {
            if (s.tier == SwitchTier::Leaf && !s.rail)
                s.rail = majorityRail(m_railVotes[s.name]);
        }
        for (const FabricLink &l : m_fabric.links) {
            const FabricSwitch *leaf = m_fabric.findSwitch(l.leaf);
            if (l.kind != FabricLink::Kind::HostToLeaf || !l.rail || !leaf || !leaf->rail ||
                *leaf->rail == static_cast<int>(*l.rail))
                continue;
            find(FindingKind::WrongLeaf, l.dataCenter, l.hostNode + " " + l.netdev,
                 fmt::format("rail {} NIC is cabled to {} {}, a rail {} leaf: its traffic crosses "
                             "the spines",
                             *l.rail, l.leaf, l.leafPort, *leaf->rail),
                 {std::to_string(*l.rail), l.leaf, l.leafPort, std::to_string(*leaf->rail)});
        }
    }

    // Uplinks, from the fabric file; their load is what the hosts below send, shared out.
    void addUplinks()
    {
        std::map<std::string, double> sentBitsPerSecond;
        for (const FabricLink &l : m_fabric.links) {
            if (l.loadShare)
                sentBitsPerSecond[l.leaf] += *l.loadShare * l.capacityBitsPerSecond;
        }
        for (const FabricDataCenter &dc : m_file->dataCenters) {
            for (const FabricLeaf &leaf : dc.leaves) {
                const std::vector<std::string> &spines =
                    leaf.spines.empty() ? dc.spines : leaf.spines;
                const auto share = static_cast<double>(spines.size());
                for (const std::string &spine : spines) {
                    FabricLink up;
                    up.kind = FabricLink::Kind::LeafToSpine;
                    up.dataCenter = dc.name;
                    up.leaf = leaf.name;
                    up.spine = spine;
                    up.capacityBitsPerSecond = leaf.uplinkGbps * 1e9 / share;
                    up.estimated = true;
                    if (up.capacityBitsPerSecond > 0 && sentBitsPerSecond.count(leaf.name))
                        up.loadShare =
                            sentBitsPerSecond[leaf.name] / share / up.capacityBitsPerSecond;
                    m_fabric.links.push_back(std::move(up));
                }
            }
        }
    }

    const FabricFile *m_file;
    int64_t m_nowMs;
    const FabricOptions &m_options;
    Fabric m_fabric;
    std::map<std::string, size_t> m_switchIndex;
    std::map<std::string, std::map<int, int>> m_railVotes;  // leaf → rail → NICs
    std::map<std::pair<std::string, std::string>, std::string> m_portOwner;  // (leaf, port) → NIC
};

}  // namespace

Fabric assembleFabric(const std::vector<HostNic> &nics, const FabricFile *file, int64_t nowMs,
                      const FabricOptions &options)
{
    return Assembly(file, nowMs, options).run(nics);
}

}  // namespace meridian
