// The step executor's view of the world over gRPC: the cloud CapacityPool (leases and
// offers) and the agents of the nodes scaling steps run replicas on (ListWorkloads,
// ApplyWorkload). Every call has a deadline; an agent that does not answer makes its
// steps' replicas Unknown, never Absent, so nothing is started twice or given up on a
// silence. Used from one thread (the controller's).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "fleetlink/leasesync.h"
#include "scaling/placement.h"
#include "scaling/stepexecutor.h"
#include "wire/security.h"

namespace meridian {

class Clock;

class GrpcCapacityPool final : public CapacityPoolApi {
public:
    // `owner` (the controller's requested-by) goes with each release, so a pool shared by
    // several controllers can refuse to release another's lease.
    // `clock` stamps each read on the monotonic clock, to carry the pool's time forward.
    GrpcCapacityPool(std::string address, ClientSecurity security, const Clock &clock,
                     int64_t callTimeoutMs = 5000, std::string owner = {});
    ~GrpcCapacityPool() override;

    Result<std::vector<PoolLeaseView>> leases() override;
    Result<LeaseAnswer> lease(const std::string &idempotencyKey, const std::string &offerId,
                              const std::string &requestedBy) override;
    Status release(const std::string &leaseId) override;
    Result<std::vector<CloudOfferView>> offers();

    // From the last leases() call: the books' view of each lease, and the agents of
    // leases not released (nor released by this client, whether or not the pool's list
    // says so yet).
    const PoolLeases &lastLeases() const { return m_last; }
    const std::string &address() const { return m_address; }

private:
    // A lease this client released has no agents to follow, whatever a list says: the
    // pool may list it as held for a while as it gives the node back, and its agent
    // followed again would be a node of the fleet that is already going.
    void forgetAgentsOf(const std::string &leaseId);

    struct Stub;  // the generated gRPC client, kept out of this header
    std::string m_address;
    const Clock &m_clock;
    int64_t m_callTimeoutMs;
    std::string m_owner;
    std::unique_ptr<Stub> m_stub;
    PoolLeases m_last;
    std::set<std::string> m_released;  // lease ids, until the pool lists them released
};

// A step's replicas on one node: the step's key names them ("<key>/r1", "<key>/r2", …),
// so a crash between two starts is finished by starting the rest with the same keys.
// Each new replica takes the first cards of `cards` that no replica on the node holds.
struct ReplicaTarget {
    std::string stepKey;
    std::string nodeId;
    std::string address;  // the node's agent
    std::string service;
    std::string model;
    std::vector<uint32_t> cards;  // the node's cards the step may use
    int cardsPerReplica = 1;
    int replicas = 1;
};

class GrpcReplicas final : public ReplicaApi {
public:
    GrpcReplicas(ClientSecurity security, std::string requestedBy, int64_t callTimeoutMs = 5000);
    ~GrpcReplicas() override;

    // The steps to look after this pass (the controller sets them before each pass).
    void setTargets(std::vector<ReplicaTarget> targets);

    Result<std::vector<ReplicaView>> replicas() override;
    Status start(const std::string &nodeId, const std::string &idempotencyKey,
                 const std::string &service) override;
    Status stop(const std::string &nodeId, const std::string &idempotencyKey) override;

    // The cards of the agent's node held by replicas that are not stopped or failed.
    Result<std::vector<uint32_t>> heldCards(const std::string &address);

private:
    const ReplicaTarget *target(const std::string &stepKey) const;

    ClientSecurity m_security;
    std::string m_requestedBy;
    int64_t m_callTimeoutMs;
    std::vector<ReplicaTarget> m_targets;
    struct Agent;
    std::map<std::string, std::unique_ptr<Agent>> m_agents;  // by address
    Agent &agent(const std::string &address);
    Result<std::vector<struct WorkloadView>> workloads(const std::string &address);
};

std::string replicaIdOf(const std::string &stepKey, size_t index);

}  // namespace meridian
