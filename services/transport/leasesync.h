// The cloud leases the capacity pool reports (released ones too), as the books need them:
// price, billing increment, lifetime, and the nodes each became.
#pragma once

#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "core/result.h"
#include "security.h"

namespace meridian {

struct LeasedAgent {
    std::string nodeId;
    std::string address;  // empty until the node is READY
    std::string region;
};

struct PoolLeases {
    std::vector<CloudLease> leases;
    std::vector<LeasedAgent> agents;  // the nodes of leases not yet released
};

Result<PoolLeases> fetchLeases(const std::string &poolAddress, const ClientSecurity &security,
                               int64_t callTimeoutMs);

}  // namespace meridian
