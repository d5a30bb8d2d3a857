// RDMA NICs: identity with its LLDP neighbour (NicInfo) and one counter reading
// (NicCounters, totals since driver load, each optional: Huawei hiroce and older
// mlx5 firmware lack some of them).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace meridian {

enum class LinkState { Unknown, Up, Down };

struct LldpNeighbor {
    std::string chassisId;
    std::string chassisIdType;
    std::string systemName;
    std::string portId;
    std::string portIdType;
    std::string portDescription;
    std::string managementAddress;
    std::optional<uint32_t> ttlSeconds;
    std::optional<uint64_t> ageSeconds;
    // The priorities the switch says (DCBX PFC TLV) it has PFC enabled on, when it says.
    std::optional<std::vector<uint32_t>> pfcPriorities;
};

struct NicInfo {
    std::string netdev;
    std::string rdmaDevice;
    std::optional<uint64_t> speedMbps;
    LinkState linkState = LinkState::Unknown;
    std::optional<LldpNeighbor> neighbor;
    std::optional<uint32_t> nearestCardIndex;
    std::vector<uint32_t> pfcEnabledPriorities;
};

constexpr int kPfcPriorities = 8;

struct NicCounters {
    std::string netdev;
    LinkState linkState = LinkState::Unknown;
    std::optional<uint64_t> rxBytes;
    std::optional<uint64_t> txBytes;
    std::array<std::optional<uint64_t>, kPfcPriorities> rxPause{};
    std::array<std::optional<uint64_t>, kPfcPriorities> txPause{};
    std::optional<uint64_t> ecnMarkedPackets;
    std::optional<uint64_t> cnpSent;
    std::optional<uint64_t> cnpHandled;
    std::optional<uint64_t> outOfSequence;
    std::optional<uint64_t> packetSequenceErrors;
    std::optional<uint64_t> rxDiscards;
    std::optional<uint64_t> txDiscards;
    std::optional<uint64_t> linkDownEvents;
    std::optional<uint64_t> symbolErrors;
    std::optional<uint64_t> crcErrors;
};

// Counters plus the per-second rates derived from the previous reading.
struct NicSample {
    NicCounters counters;
    std::optional<double> rxBytesPerSecond;
    std::optional<double> txBytesPerSecond;
    std::array<std::optional<double>, kPfcPriorities> rxPausePerSecond{};
    std::array<std::optional<double>, kPfcPriorities> txPausePerSecond{};
    std::optional<double> ecnMarkedPerSecond;
    std::optional<double> cnpSentPerSecond;
    std::optional<double> cnpHandledPerSecond;
    bool countersReset = false;
};

// One host NIC as the console last heard of it: what the fabric is assembled from.
struct HostNic {
    std::string nodeId;
    std::string dataCenter;
    NicInfo nic;  // its LLDP neighbour, rail (nearest card) and PFC priorities
    std::optional<NicSample> sample;
    int64_t neighborSeenMs = 0;  // when its agent last reported the neighbour
    int recentLinkDrops = 0;     // link-down events in the last ten minutes
};

}  // namespace meridian
