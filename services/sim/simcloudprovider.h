// The simulator's cloud as a provider of the real pool (pool/poolservice.h): the same
// CapacityPool, books and idempotency keys that meridian-pool serves, with the provider's
// contract (docs/pool.md) answered in this process. A lease's nodes come up as agents of
// their own once the offer's provisioning time has passed on the simulator's clock; a lease
// asked for again by its id gets the nodes it has; release stops them; list says which
// leases still hold nodes (none after a restart: the simulator's nodes died with it).
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "cloudnodehost.h"
#include "core/clock.h"
#include "core/result.h"
#include "pool/poolconfig.h"

namespace meridian {

class ClockWait;

class SimCloudProvider {
public:
    SimCloudProvider(CloudNodeHost &nodes, const Clock &clock);
    ~SimCloudProvider();

    // The pool's configuration: the simulated cloud's three offers (A100, H100, 910B), each
    // `provisioningSeconds` to come up, with its books in `dataDir`.
    static PoolConfig poolConfig(int provisioningSeconds, const std::string &dataDir);

    // The provider's verbs: lease, release, list.
    Result<nlohmann::json> call(const ProviderConfig &provider, const std::string &verb,
                                const nlohmann::json &input);
    // Leases still coming up fail at once; called before the pool is stopped.
    void stop();
    // Leases made from now on are answered with this lie.
    void lie(CloudLie lie, CloudNodeEndpoints ownNode = {});

private:
    Result<nlohmann::json> lease(const ProviderConfig &provider, const nlohmann::json &input);
    nlohmann::json release(const nlohmann::json &input);
    nlohmann::json list() const;
    // Waits until `dueMs` on the clock; false when stopped first.
    bool waitUntil(int64_t dueMs);

    CloudNodeHost &m_nodes;
    const Clock &m_clock;
    mutable std::mutex m_mutex;
    bool m_stopping = false;
    std::set<ClockWait *> m_waits;  // leases coming up, woken by stop()
    std::map<std::string, CloudNodeEndpoints> m_leases;
    CloudLie m_lie = CloudLie::None;
    CloudNodeEndpoints m_ownNode;     // OurOwnNode's answer
    CloudNodeEndpoints m_sharedNode;  // OneNodeForEveryLease's, once the first lease made it
    std::mutex m_sharedNodeMaking;    // held by the lease making it
    std::string m_sharedNodeMadeBy;   // the lease it was started under
    // A lie's answer, or none where the truth is told (or, for a shared node, not yet made).
    std::optional<CloudNodeEndpoints> liedNodes(const std::string &leaseId) const;
};

}  // namespace meridian
