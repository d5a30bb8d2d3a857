// Parsers for RDMA NIC tools: `ethtool -S` counters and `lldpctl -f json|json0`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/nictypes.h"
#include "core/result.h"

namespace meridian {

using CounterMap = std::map<std::string, uint64_t, std::less<>>;

// `ethtool -S DEV` ("name: value" lines, optionally under "NIC statistics:"), and the
// same shape for /sys/class/infiniband/DEV/ports/N/hw_counters read as "name value".
Result<CounterMap> parseEthtoolStats(std::string_view text);

// Picks the counters we use from mlx5 ethtool and RDMA hw_counters names. Counters the
// NIC does not have (Huawei hiroce has no CNP counters) stay absent.
NicCounters nicCountersFromStats(std::string netdev, const CounterMap &stats);

// `lldpctl -f json` or `-f json0`: one entry per local interface that sees a neighbour.
struct LldpInterface {
    std::string netdev;
    LldpNeighbor neighbor;
};
Result<std::vector<LldpInterface>> parseLldpctlJson(std::string_view text);

}  // namespace meridian
