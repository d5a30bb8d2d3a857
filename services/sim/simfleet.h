// A whole simulated fleet on one machine: every node a real NodeAgent endpoint on its
// own 127.0.0.1 port (one gRPC server, nodes told apart by the port the client dialled),
// the cloud CapacityPool, and fault injection. Thread-safe.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/noderuntime.h"
#include "cloudnodehost.h"
#include "core/clock.h"
#include "core/inferenceservice.h"
#include "fabric/fabricfile.h"
#include "faultplan.h"
#include "simfleetcontrol.h"
#include "simnodeplan.h"

namespace grpc {
class Server;
}

namespace meridian {

class Scheduler;
class NodeAgentService;
class LeaseBook;
class OwnPoolDir;
class PoolService;
class SimCloudProvider;
class SimControlService;
class ServingLoad;

struct SimFleetOptions {
    int nodes = 750;  // 6,000 cards: the size of our fleet
    uint64_t seed = 42;
    int sampleIntervalMs = 1000;
    int provisioningSeconds = 90;  // how long a cloud lease takes to become ready
    // The cloud pool's books (pool/leasebook.h); empty: a folder of the fleet's own,
    // removed when it is gone.
    std::string poolDataDir;
    std::string host = "127.0.0.1";
    // Inference services whose replicas serve simulated load; each starts its minimum
    // replicas on local nodes that can run it.
    std::vector<InferenceService> services;
};

class SimFleet final : public NodeDirectory, public CloudNodeHost, public SimFleetControl {
public:
    SimFleet(SimFleetOptions options, const Clock &clock);
    ~SimFleet() override;

    Status start();
    void stop();

    std::vector<SimNodeView> nodes() const override;
    std::string controlAddress() const;  // CapacityPool and SimControl
    Status writeInventory(const std::string &path) const;
    // The local nodes' rail-optimised fabric (railOptimisedFabric), rented ones left out.
    FabricFile fabricFile() const;

    // Injects a fault into one node or a whole data center; returns how many nodes it hit.
    Result<int> inject(const FaultSpec &fault) override;
    int clearFaults(const std::string &nodeId) override;  // empty: every node
    // Checks every step's target now, then plays each at its time.
    Status play(const std::vector<ScenarioStep> &steps);

    // Starts `count` new cloud nodes on their own server; returns "host:port" each.
    Result<CloudNodeEndpoints> addCloudNodes(int count, SimNodeKind kind,
                                             const std::string &leaseId) override;
    void removeCloudNodes(const std::string &leaseId) override;
    // The simulated cloud answers the leases made from now on with this lie (the fleet's
    // first node is the one OurOwnNode gives).
    void setCloudLie(CloudLie lie);

    // A service's demand in requests/s from now on (nullopt: its quiet daily curve);
    // false when the simulator runs no such service.
    bool setServiceDemand(const std::string &service,
                          std::optional<double> requestsPerSecond) override;
    double serviceDemand(const std::string &service) const;

    NodeRuntime *find(std::string_view authority) override;
    // The node with this id (its /metrics path), or null.
    NodeRuntime *runtimeOf(std::string_view nodeId);
    // The node's own usage ledger (what GetUsage serves), to seed history in tests.
    UsageLedger *usageLedger(const std::string &nodeId);
    const Clock &clock() const { return m_clock; }
    Scheduler &scheduler() { return *m_scheduler; }
    const SimFleetOptions &options() const { return m_options; }

private:
    struct Node;
    Node *findNode(const std::string &nodeId);
    std::unique_ptr<Node> makeNode(const SimNodePlan &plan);
    void scheduleSampling();
    void sampleAll();
    void restartNode(Node &node);
    void startServiceReplicas();
    void shareServingLoad(const std::vector<Node *> &nodes);
    void injectInto(Node &node, const FaultSpec &fault);
    std::vector<Node *> targets(const FaultSpec &fault);

    SimFleetOptions m_options;
    const Clock &m_clock;
    std::unique_ptr<Scheduler> m_scheduler;
    int64_t m_nextSampleMs = 0;  // the scheduler's time of the next sampling round
    std::unique_ptr<NodeAgentService> m_agentService;
    // The cloud: the real CapacityPool, its provider the simulator's (simcloudprovider.h).
    std::unique_ptr<SimCloudProvider> m_cloud;
    std::unique_ptr<LeaseBook> m_poolBooks;
    std::unique_ptr<PoolService> m_poolService;
    std::unique_ptr<OwnPoolDir> m_ownPoolDir;  // made here, removed with the fleet
    Status startPool();
    std::unique_ptr<SimControlService> m_controlService;
    std::unique_ptr<ServingLoad> m_servingLoad;
    int64_t m_lastLoadStepMs = 0;
    std::unique_ptr<grpc::Server> m_server;
    std::map<std::string, std::unique_ptr<grpc::Server>> m_leaseServers;
    int m_controlPort = 0;

    mutable std::mutex m_mutex;
    std::deque<std::unique_ptr<Node>> m_nodes;
    std::map<int, Node *> m_byPort;
    std::map<std::string, Node *> m_byId;
    bool m_stopping = false;
};

}  // namespace meridian
