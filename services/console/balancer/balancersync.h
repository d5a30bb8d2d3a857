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
struct BalancedServer;

struct ReadyReplica {
    std::string replicaId;
    std::string address;  // host:port it serves on
};

// The replicas of `service` that serve (they report signals) and say where.
std::vector<ReadyReplica> readyReplicas(const std::string &service,
                                        const std::vector<ReplicaReading> &readings);

// HAProxy's name for a replica: its id with what a server name cannot hold replaced.
std::string balancedServerName(const std::string &replicaId);

struct BalancerPass {
    std::vector<std::string> done;     // what it did, a line each (for the audit)
    std::vector<std::string> servers;  // ours in the backend after it, draining ones too
    // Whether a server of a replica whose id starts with `prefix` is still there.
    bool holds(const std::string &replicaIdPrefix) const;
};

// One pass, or the first error, naming the runtime API.
// `serverOptions` go on each server added (LoadBalancerTarget::serverOptions).
Result<BalancerPass> syncBalancer(const HaproxyRuntime &runtime, const std::string &backend,
                                  const std::vector<ReadyReplica> &ready,
                                  const std::string &serverOptions = {});
// The same on the backend's servers as listed earlier in the controller's pass, so that a
// pass asks HAProxy for its statistics once.
Result<BalancerPass> syncBalancer(const HaproxyRuntime &runtime, const std::string &backend,
                                  std::vector<BalancedServer> listed,
                                  const std::vector<ReadyReplica> &ready,
                                  const std::string &serverOptions = {});

}  // namespace meridian
