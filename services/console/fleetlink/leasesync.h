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
    // The pool's clock when it answered (0: a pool that does not say), and when that was
    // on the reader's monotonic clock: poolNowUnixMs() carries it forward.
    int64_t poolNowUnixMs = 0;
    int64_t readAtSteadyMs = 0;
};

// The pool's clock now, as last read and carried forward on the reader's monotonic clock;
// the reader's own wall clock where the pool never said.
int64_t poolNowUnixMs(const PoolLeases &leases, int64_t ownNowUnixMs, int64_t steadyNowMs);

Result<PoolLeases> fetchLeases(const std::string &poolAddress, const ClientSecurity &security,
                               int64_t callTimeoutMs);
// The books' view of a ListLeases answer; a lease without an id or with a price out of
// range is refused, naming the pool.
Result<PoolLeases> poolLeasesFrom(const v1::ListLeasesResponse &response,
                                  const std::string &poolAddress);

}  // namespace meridian
