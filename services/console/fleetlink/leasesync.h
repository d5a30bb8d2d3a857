// The cloud leases the capacity pool reports (released ones too), as the books need them:
// price, billing increment, lifetime, and the nodes each became.
#pragma once

#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "core/result.h"
#include "wire/security.h"

namespace meridian {

namespace v1 {
class ListLeasesResponse;
}

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
// The books' view of a ListLeases answer; a lease without an id or with a price out of
// range is refused, naming the pool.
Result<PoolLeases> poolLeasesFrom(const v1::ListLeasesResponse &response,
                                  const std::string &poolAddress);

}  // namespace meridian
