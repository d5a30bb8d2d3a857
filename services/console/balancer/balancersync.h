// Keeps a load balancer's servers equal to a service's ready replicas, pass by pass: a
// replica that answers is added (within one controller pass of being ready); one that no
// longer does is drained, no new requests and those under way finishing, and deleted once
// its last request is done. Stateless, so a restarted HAProxy or controller is put right
// on the next pass. Servers are named "meridian-<replica>"; servers an operator wrote into
// the configuration are left alone.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "fleet/fleetstate.h"

namespace meridian {

class HaproxyRuntime;

struct ReadyReplica {
    std::string replicaId;
    std::string address;  // host:port it serves on
};

// The replicas of `service` that serve (they report signals) and say where.
std::vector<ReadyReplica> readyReplicas(const std::string &service,
                                        const std::vector<ReplicaReading> &readings);

// HAProxy's name for a replica: its id with what a server name cannot hold replaced.
std::string balancedServerName(const std::string &replicaId);

// What it did, a line each (for the audit), or the first error, naming the runtime API.
Result<std::vector<std::string>> syncBalancer(const HaproxyRuntime &runtime,
                                              const std::string &backend,
                                              const std::vector<ReadyReplica> &ready);

}  // namespace meridian
