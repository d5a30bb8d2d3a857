// A rail-optimised host's NIC as the fabric tests build them: host `host`'s NIC of rail
// `rail` ("ens1np0", "ens11np0", …) at 400 Gb/s, up, PFC on priority 3, cabled by LLDP to
// port Ethernet(host × 8) of the rail's leaf "leaf-r<rail>" in Xiamen.
#pragma once

#include <string>

#include "core/nictypes.h"

namespace meridian::test {

inline HostNic railHostNic(int host, uint32_t rail, int64_t neighborSeenMs)
{
    HostNic h;
    h.nodeId = "xm-n" + std::to_string(host);
    h.dataCenter = "xiamen";
    h.nic.netdev = "ens" + std::to_string(1 + rail * 10) + "np0";
    h.nic.speedMbps = 400'000;
    h.nic.linkState = LinkState::Up;
    h.nic.nearestCardIndex = rail;
    h.nic.pfcEnabledPriorities = {3};
    LldpNeighbor n;
    n.systemName = "leaf-r" + std::to_string(rail);
    n.portId = "Ethernet" + std::to_string(host * 8);
    h.nic.neighbor = n;
    h.neighborSeenMs = neighborSeenMs;
    return h;
}

}  // namespace meridian::test
