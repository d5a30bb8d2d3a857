// The RoCE fabric as on-call engineers need it: host NICs joined to the leaves their
// LLDP names, leaves to spines from the fabric file, each link with its load, PFC and
// ECN/CNP rates and health, and the inconsistencies that explain a slow job before
// anyone opens a switch: a rail's NIC cabled to another rail's leaf, PFC priorities that
// differ between host and switch, a neighbour not heard from, a port two hosts claim.
// A pure function of what the agents report and the optional fabric file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/nictypes.h"
#include "fabricfile.h"

namespace meridian {

enum class SwitchTier { Leaf, Spine };

struct FabricSwitch {
    std::string name;
    std::string dataCenter;
    SwitchTier tier = SwitchTier::Leaf;
    std::optional<int> pod;
    std::optional<int> rail;  // declared, or what most of its hosts' NICs serve
    bool declared = false;    // in the fabric file
    bool seen = false;        // named by some host's LLDP
};

enum class LinkHealth { Up, Down, Flapping };

struct FabricLink {
    enum class Kind { HostToLeaf, LeafToSpine } kind = Kind::HostToLeaf;
    std::string dataCenter;
    std::string hostNode;  // host links
    std::string netdev;
    std::optional<uint32_t> rail;
    std::string leaf;
    std::string leafPort;
    std::string spine;  // uplinks
    double capacityBitsPerSecond = 0;
    std::optional<double> loadShare;  // the busier direction over the capacity
    double pfcPausesPerSecond = 0;    // rx + tx, all priorities
    double ecnPerSecond = 0;          // ECN-marked packets and CNPs
    LinkHealth health = LinkHealth::Up;
    bool stale = false;      // the neighbour was not heard from lately: drawn from memory
    bool estimated = false;  // uplink load from the hosts below, not counters
};

enum class FindingKind {
    WrongLeaf,
    PfcMismatch,
    StaleNeighbor,
    NoNeighbor,
    PortClaimedTwice,
    UnknownSwitch,
    LinkDown,
    LinkFlapping,
    PfcStorm,
};

struct FabricFinding {
    FindingKind kind;
    std::string dataCenter;
    std::string where;  // the host NIC or switch port
    std::string what;   // in English, for logs and the command line
    // The values `what` is built from, in its order, so that a window can say it in the
    // user's language (models/fabric/findingwords).
    std::vector<std::string> facts;
};

struct Fabric {
    std::vector<FabricSwitch> switches;
    std::vector<FabricLink> links;
    std::vector<FabricFinding> findings;

    const FabricSwitch *findSwitch(const std::string &name) const;
};

struct FabricOptions {
    int64_t staleAfterMs = 10 * 60'000;  // a neighbour not reported for this long is stale
    int flappingDrops = 2;               // this many link drops in ten minutes: flapping
    // Pause frames at this rate (as the agents' storm events use) are a PFC storm.
    double pfcStormPausesPerSecond = 10'000;
};

Fabric assembleFabric(const std::vector<HostNic> &nics, const FabricFile *file, int64_t nowMs,
                      const FabricOptions &options = {});

// The links from one node to another over one rail: host → leaf (→ spine → leaf) → host.
struct FabricPath {
    std::vector<size_t> links;      // indices into Fabric::links, in order
    std::vector<std::string> hops;  // node, switches, node
    std::string why;                // when there is no path
};
FabricPath pathBetween(const Fabric &fabric, const std::string &fromNode, const std::string &toNode,
                       uint32_t rail);

std::string_view findingKindName(FindingKind kind);

}  // namespace meridian
