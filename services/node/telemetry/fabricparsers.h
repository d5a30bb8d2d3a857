// Parsers for the rest of the RoCE fabric's tools, host side and switch side:
//   host:   `mlnx_qos -i DEV` (trust, DSCP→priority, PFC enabled per priority),
//           `rdma link` (port state, for flaps), `show_gids` (RoCE v1/v2 GIDs),
//           `lldpcli show neighbors` text (also on a switch: nameless neighbours, MAC
//           port ids, and the DCBX PFC TLV a switch advertises);
//   switch: SONiC `show pfc counters` (thousands separators) and `show pfcwd stats`.
// Every parser refuses hostile input with the line it stopped at.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/nictypes.h"
#include "core/result.h"
#include "nicparsers.h"

namespace meridian {

struct QosConfig {
    std::string trust;                           // "dscp" or "pcp"
    std::vector<uint32_t> pfcEnabledPriorities;  // ascending
    std::array<int, 64> dscpToPriority{};        // -1 where the dump does not say
};
// The last configuration in the text wins (scripts print it before and after a change).
Result<QosConfig> parseMlnxQos(std::string_view text);

struct RdmaLink {
    std::string device;  // mlx5_7
    uint32_t port = 1;
    std::string state;          // ACTIVE, DOWN, ...
    std::string physicalState;  // LINK_UP, POLLING, ...
    std::string netdev;         // RoCE ports name theirs
    bool up() const { return state == "ACTIVE" && physicalState == "LINK_UP"; }
};
// One entry per line, in order (several runs concatenated stay several entries).
Result<std::vector<RdmaLink>> parseRdmaLink(std::string_view text);
// How often the port went from up to down across successive readings of it.
int countLinkDrops(const std::vector<RdmaLink> &readings, std::string_view device, uint32_t port);

struct RoceGid {
    std::string device;
    uint32_t port = 1;
    uint32_t index = 0;
    std::string gid;
    std::string ipv4;     // empty for link-local GIDs
    std::string version;  // "v1" or "v2"
    std::string netdev;
};
Result<std::vector<RoceGid>> parseShowGids(std::string_view text);

// `lldpcli show neighbors` (plain text), host or switch side. The DCBX PFC configuration
// TLV (OUI 00,80,C2 subtype 11), when the neighbour sends it, becomes the priorities it
// has PFC enabled on (LldpNeighbor::pfcPriorities).
Result<std::vector<LldpInterface>> parseLldpcliText(std::string_view text);

enum class PfcDirection { Rx, Tx };
struct SwitchPfcCounters {
    std::string port;
    PfcDirection direction = PfcDirection::Rx;
    std::array<uint64_t, kPfcPriorities> frames{};
};
// SONiC `show pfc counters`: the Rx and Tx tables, numbers with thousands separators.
Result<std::vector<SwitchPfcCounters>> parseSonicPfcCounters(std::string_view text);

struct PfcWatchdogQueue {
    std::string port;
    uint32_t queue = 0;
    std::string status;
    uint64_t stormsDetected = 0;
    uint64_t stormsRestored = 0;
    uint64_t txOk = 0, txDrop = 0, rxOk = 0, rxDrop = 0;
    bool stormOngoing() const { return stormsDetected > stormsRestored; }
};
Result<std::vector<PfcWatchdogQueue>> parseSonicPfcwdStats(std::string_view text);

}  // namespace meridian
