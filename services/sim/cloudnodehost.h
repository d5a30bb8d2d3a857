// Where the simulated cloud's leased nodes come up: a lease's nodes started as agents of
// their own (each "node id", "host:port"), and stopped again on release. SimFleet hosts
// them; the simulated CapacityPool knows only this face of it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "simnodeplan.h"

namespace meridian {

using CloudNodeEndpoints = std::vector<std::pair<std::string, std::string>>;

// How the simulated cloud lies, for the tests of a controller that must not believe its
// pool: each lease's node an address nobody answers at; every lease the first one's node;
// every lease a node of the fleet's own (`ownNode`).
enum class CloudLie { None, SilentNodes, OneNodeForEveryLease, OurOwnNode };

class CloudNodeHost {
public:
    virtual ~CloudNodeHost() = default;
    virtual Result<CloudNodeEndpoints> addCloudNodes(int count, SimNodeKind kind,
                                                     const std::string &leaseId) = 0;
    virtual void removeCloudNodes(const std::string &leaseId) = 0;
};

}  // namespace meridian
