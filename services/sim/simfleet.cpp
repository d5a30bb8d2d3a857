#include "simfleet.h"

#include <fmt/format.h>
#include <grpcpp/server.h>

#include <set>

#include "agent/nodeagentservice.h"
#include "core/scheduler.h"
#include "ownpooldir.h"
#include "pool/leasebook.h"
#include "pool/poolservice.h"
#include "servingload.h"
#include "simcloudprovider.h"
#include "simcontrolservice.h"
#include "siminventory.h"
#include "wire/grpcserver.h"

namespace meridian {

struct SimFleet::Node {
    SimNodePlan plan;
    int port = 0;
    std::string leaseId;
    SimCollector *collector = nullptr;  // owned by monitor
    std::unique_ptr<EventLog> events;
    std::unique_ptr<MemoryUsageLedger> usage;
    std::unique_ptr<NodeMonitor> monitor;
    std::unique_ptr<WorkloadManager> workloads;
    NodeRuntime runtime;
    int64_t downUntilMs = 0;  // steady ms; 0 with down set: until cleared
    int64_t hungUntilMs = 0;
    int64_t slowUntilMs = 0;
};

SimFleet::SimFleet(SimFleetOptions options, const Clock &clock)
    : m_options(std::move(options))
    , m_clock(clock)
    , m_scheduler(std::make_unique<Scheduler>(clock))
    , m_servingLoad(std::make_unique<ServingLoad>(m_options.services))
{}

SimFleet::~SimFleet()
{
    stop();
    // The pool's workers are joined before what they call goes.
    m_poolService.reset();
    m_ownPoolDir.reset();  // the books' folder goes after the books
}

Status SimFleet::startPool()
{
    std::string dir = m_options.poolDataDir;
    if (dir.empty()) {
        auto own = OwnPoolDir::make();
        if (!own)
            return own.error();
        m_ownPoolDir = std::make_unique<OwnPoolDir>(std::move(own).value());
        dir = m_ownPoolDir->path();
    }
    auto books = LeaseBook::open(dir);
    if (!books)
        return books.error();
    m_poolBooks = std::move(books).value();
    m_cloud = std::make_unique<SimCloudProvider>(*this, m_clock);
    m_poolService = std::make_unique<PoolService>(
        SimCloudProvider::poolConfig(m_options.provisioningSeconds, dir), *m_poolBooks, m_clock,
        [cloud = m_cloud.get()](const ProviderConfig &provider, const std::string &verb,
                                const nlohmann::json &input) {
            return cloud->call(provider, verb, input);
        });
    // Books kept from an earlier run: leases still coming up are asked for again, and ready
    // ones whose nodes died with that run are failed, saying so.
    return m_poolService->resume();
}

std::unique_ptr<SimFleet::Node> SimFleet::makeNode(const SimNodePlan &plan)
{
    auto node = std::make_unique<Node>();
    node->plan = plan;
    SimNodeSpec spec = plan.spec;
    spec.sampleIntervalMs = m_options.sampleIntervalMs;
    auto collector = std::make_unique<SimCollector>(std::move(spec));
    std::map<std::string, double> coldStarts, drains;
    for (const InferenceService &service : m_options.services) {
        coldStarts[service.name] = service.coldStartSeconds;
        if (service.serving)
            drains[service.name] = service.serving->drainGraceSeconds;
    }
    collector->setColdStarts(std::move(coldStarts));
    collector->setDrains(std::move(drains));
    node->collector = collector.get();
    node->events = std::make_unique<EventLog>();
    node->usage = std::make_unique<MemoryUsageLedger>();
    NodeMonitorOptions options;
    options.sampleIntervalMs = m_options.sampleIntervalMs;
    node->monitor = std::make_unique<NodeMonitor>(
        NodeIdentity{plan.spec.nodeId, plan.spec.dataCenter, plan.rack, plan.hostname},
        std::move(collector), *node->events, *node->usage, m_clock, options);
    // The simulated collector has nothing to discover; a failure here is a simulator bug.
    if (Status started = node->monitor->start(); !started)
        fmt::print(stderr, "meridian-sim: {}: {}\n", plan.spec.nodeId, started.error().message);
    node->workloads = std::make_unique<WorkloadManager>(node->collector, m_clock, 8);
    node->monitor->setServiceOfCard([workloads = node->workloads.get()](uint32_t card) {
        return workloads->serviceOnCard(card);
    });
    node->runtime.monitor = node->monitor.get();
    node->runtime.workloads = node->workloads.get();
    return node;
}

Status SimFleet::start()
{
    const std::vector<SimNodePlan> plan = planFleet(m_options.nodes, m_options.seed);
    for (const SimNodePlan &p : plan)
        m_nodes.push_back(makeNode(p));
    m_agentService = std::make_unique<NodeAgentService>(*this, Authorizer({}), *m_scheduler);
    if (Status pool = startPool(); !pool)
        return pool;
    m_controlService = std::make_unique<SimControlService>(*this);

    std::vector<ListenSpec> listen;
    listen.push_back({m_options.host + ":0", &m_controlPort});
    for (auto &node : m_nodes)
        listen.push_back({m_options.host + ":0", &node->port});
    auto server =
        startGrpcServer(listen, ServerSecurity{},
                        {m_agentService.get(), m_poolService.get(), m_controlService.get()},
                        ServerLimits::forNodes(static_cast<int>(m_nodes.size())));
    if (!server)
        return server.error();
    m_server = std::move(server).value();
    {
        std::lock_guard lock(m_mutex);
        for (auto &node : m_nodes) {
            m_byPort[node->port] = node.get();
            m_byId[node->plan.spec.nodeId] = node.get();
        }
    }
    startServiceReplicas();
    m_nextSampleMs = m_scheduler->nowMs();
    scheduleSampling();
    return {};
}

void SimFleet::startServiceReplicas()
{
    // The services' steady replicas, on the first local nodes with cards they run on.
    size_t next = 0;
    for (const InferenceService &service : m_options.services) {
        int started = 0;
        for (; next < m_nodes.size() && started < service.minReplicas; ++next) {
            Node &node = *m_nodes[next];
            const auto hardware = node.collector->discover();
            if (!hardware)
                continue;
            std::vector<uint32_t> cards;
            for (const CardInfo &card : hardware.value().cards) {
                if (service.replicaRequestsPerSecond(card.model) > 0)
                    cards.push_back(card.index);
            }
            const size_t perReplica = static_cast<size_t>(std::max(1, service.cardsPerReplica));
            for (size_t first = 0;
                 first + perReplica <= cards.size() && started < service.minReplicas;
                 first += perReplica, ++started) {
                WorkloadRequest request;
                request.idempotencyKey = fmt::format("steady-{}-{}", service.name, started + 1);
                request.workload.replicaId = request.idempotencyKey;
                request.workload.service = service.name;
                request.workload.model = service.model;
                request.workload.cardIndices.assign(
                    cards.begin() + static_cast<long>(first),
                    cards.begin() + static_cast<long>(first + perReplica));
                request.requestedBy = "meridian-sim";
                request.reason = "the service's minimum replicas";
                if (auto applied = node.workloads->apply(request); !applied)
                    fmt::print(stderr, "meridian-sim: {} on {}: {}\n", service.name,
                               node.plan.spec.nodeId, applied.error().message);
            }
        }
    }
}

bool SimFleet::setServiceDemand(const std::string &service, std::optional<double> requestsPerSecond)
{
    return m_servingLoad->setDemand(service, requestsPerSecond);
}

double SimFleet::serviceDemand(const std::string &service) const
{
    return m_servingLoad->demand(service, m_clock.nowUnixMs());
}

void SimFleet::shareServingLoad(const std::vector<Node *> &nodes)
{
    const int64_t now = m_clock.nowUnixMs();
    const double seconds =
        m_lastLoadStepMs ? std::clamp((now - m_lastLoadStepMs) / 1000.0, 0.0, 60.0) : 1.0;
    m_lastLoadStepMs = now;
    std::vector<ServingReplica> replicas;
    std::map<std::string, Node *> home;
    for (Node *node : nodes) {
        if (node->runtime.down || node->runtime.hung)
            continue;  // a dead node's replicas serve nothing
        for (const SimCollector::ReplicaOnNode &r : node->collector->replicasAt(now)) {
            replicas.push_back({r.replicaId, r.service, r.cardModel, r.serving});
            home[r.replicaId] = node;
        }
    }
    if (replicas.empty())
        return;
    std::map<Node *, std::map<std::string, ReplicaSignals>> byNode;
    for (const auto &[id, node] : home)
        byNode[node];  // a replica that serves nothing now reports nothing, not old numbers
    for (auto &[id, signals] : m_servingLoad->advance(now, seconds, replicas))
        byNode[home[id]].emplace(id, std::move(signals));
    for (auto &[node, signals] : byNode)
        node->collector->setReplicaSignals(std::move(signals));
}

FabricFile SimFleet::fabricFile() const
{
    std::vector<SimNodePlan> local;
    {
        std::lock_guard lock(m_mutex);
        for (const auto &node : m_nodes) {
            if (node->leaseId.empty())  // rented nodes are the cloud's fabric, not ours
                local.push_back(node->plan);
        }
    }
    return railOptimisedFabric(local);
}

void SimFleet::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        m_stopping = true;
    }
    if (m_cloud)
        m_cloud->stop();  // leases still coming up fail now
    if (m_agentService)
        m_agentService->releaseParked();
    for (auto &[id, server] : m_leaseServers)
        stopGrpcServer(*server, 500);
    if (m_server)
        stopGrpcServer(*m_server, 1000);
    m_scheduler->stop();
}

void SimFleet::scheduleSampling()
{
    // Each round keeps the cadence, whenever the last one ran (a test's clock may have
    // moved on meanwhile); one far behind starts afresh.
    const int64_t interval = m_options.sampleIntervalMs;
    m_nextSampleMs += interval;
    if (const int64_t now = m_scheduler->nowMs(); m_nextSampleMs < now - 5 * interval)
        m_nextSampleMs = now;
    m_scheduler->at(m_nextSampleMs, [this] {
        sampleAll();
        scheduleSampling();
    });
}

void SimFleet::sampleAll()
{
    const int64_t now = m_scheduler->nowMs();
    std::vector<Node *> nodes;
    {
        std::lock_guard lock(m_mutex);
        for (auto &node : m_nodes)
            nodes.push_back(node.get());
    }
    shareServingLoad(nodes);
    for (Node *node : nodes) {
        NodeRuntime &rt = node->runtime;
        if (rt.down && node->downUntilMs && now >= node->downUntilMs)
            restartNode(*node);
        if (rt.hung && node->hungUntilMs && now >= node->hungUntilMs) {
            rt.hung = false;
            m_agentService->releaseParked(&rt);
        }
        if (rt.delayMs && node->slowUntilMs && now >= node->slowUntilMs)
            rt.delayMs = 0;
        // A dead or hung agent samples nothing: its ledger gets a hole, as a real one would.
        if (!rt.down && !rt.hung)
            node->monitor->tick();
    }
}

void SimFleet::restartNode(Node &node)
{
    node.runtime.down = false;
    node.downUntilMs = 0;
    node.monitor->restart();
}

UsageLedger *SimFleet::usageLedger(const std::string &nodeId)
{
    Node *node = findNode(nodeId);
    return node ? node->usage.get() : nullptr;
}

SimFleet::Node *SimFleet::findNode(const std::string &nodeId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_byId.find(nodeId);
    return it == m_byId.end() ? nullptr : it->second;
}

NodeRuntime *SimFleet::find(std::string_view authority)
{
    const size_t colon = authority.rfind(':');
    if (colon == std::string_view::npos)
        return nullptr;
    int port = 0;
    for (char c : authority.substr(colon + 1)) {
        if (c < '0' || c > '9')
            return nullptr;
        port = port * 10 + (c - '0');
    }
    std::lock_guard lock(m_mutex);
    const auto it = m_byPort.find(port);
    return it == m_byPort.end() ? nullptr : &it->second->runtime;
}

NodeRuntime *SimFleet::runtimeOf(std::string_view nodeId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_byId.find(std::string(nodeId));
    return it == m_byId.end() ? nullptr : &it->second->runtime;
}

std::vector<SimNodeView> SimFleet::nodes() const
{
    std::lock_guard lock(m_mutex);
    std::vector<SimNodeView> out;
    for (const auto &node : m_nodes) {
        SimNodeView v;
        v.nodeId = node->plan.spec.nodeId;
        v.dataCenter = node->plan.spec.dataCenter;
        v.rack = node->plan.rack;
        v.address = fmt::format("{}:{}", m_options.host, node->port);
        v.cards = 8;
        v.faults = node->collector->activeFaults();
        v.down = node->runtime.down;
        v.hung = node->runtime.hung;
        out.push_back(std::move(v));
    }
    return out;
}

std::string SimFleet::controlAddress() const
{
    return fmt::format("{}:{}", m_options.host, m_controlPort);
}

Status SimFleet::writeInventory(const std::string &path) const
{
    return writeSimInventory(path, controlAddress(), nodes());
}

std::vector<SimFleet::Node *> SimFleet::targets(const FaultSpec &fault)
{
    std::lock_guard lock(m_mutex);
    std::vector<Node *> hit;
    for (auto &node : m_nodes) {
        if (node->plan.spec.nodeId == fault.nodeId ||
            (!fault.dataCenter.empty() && node->plan.spec.dataCenter == fault.dataCenter))
            hit.push_back(node.get());
    }
    return hit;
}

Result<int> SimFleet::inject(const FaultSpec &fault)
{
    const std::vector<Node *> hit = targets(fault);
    if (hit.empty()) {
        return Error{fault.nodeId.empty()
                         ? fmt::format("no simulated data center '{}'", fault.dataCenter)
                         : fmt::format("no simulated node '{}'", fault.nodeId)};
    }
    for (Node *node : hit)
        injectInto(*node, fault);
    return static_cast<int>(hit.size());
}

void SimFleet::injectInto(Node &node, const FaultSpec &fault)
{
    const int64_t steadyUntil = fault.durationMs > 0 ? m_scheduler->nowMs() + fault.durationMs : 0;
    switch (fault.kind) {
    case FaultKind::Crash:
        node.monitor->stop();  // what it had written survives; the minute in progress too
        node.runtime.down = true;
        node.downUntilMs = steadyUntil;
        break;
    case FaultKind::Hang:
        node.runtime.hung = true;
        node.hungUntilMs = steadyUntil;
        break;
    case FaultKind::Slow:
        node.runtime.delayMs = fault.delayMs > 0 ? fault.delayMs : 3000;
        node.slowUntilMs = steadyUntil;
        break;
    default: {
        SimFault f;  // a card or NIC fault: the node's collector plays it
        f.kind = fault.kind;
        f.card = fault.card;
        f.netdev = fault.netdev;
        f.untilUnixMs = fault.durationMs > 0 ? m_clock.nowUnixMs() + fault.durationMs : 0;
        node.collector->injectFault(f);
        break;
    }
    }
}

Status SimFleet::play(const std::vector<ScenarioStep> &steps)
{
    for (const ScenarioStep &step : steps) {
        if (targets(step.fault).empty()) {
            return Error{
                fmt::format("scenario names {} '{}', which this fleet does not have",
                            step.fault.nodeId.empty() ? "data center" : "node",
                            step.fault.nodeId.empty() ? step.fault.dataCenter : step.fault.nodeId)};
        }
    }
    for (const ScenarioStep &step : steps) {
        m_scheduler->after(step.atMs, [this, fault = step.fault] {
            if (auto hit = inject(fault)) {
                fmt::print("meridian-sim: {} on {} node(s) ({})\n", faultKindName(fault.kind), *hit,
                           fault.nodeId.empty() ? fault.dataCenter : fault.nodeId);
                std::fflush(stdout);
            }
        });
    }
    return {};
}

int SimFleet::clearFaults(const std::string &nodeId)
{
    std::vector<Node *> targets;
    {
        std::lock_guard lock(m_mutex);
        for (auto &node : m_nodes) {
            if (nodeId.empty() || node->plan.spec.nodeId == nodeId)
                targets.push_back(node.get());
        }
    }
    int cleared = 0;
    for (Node *node : targets) {
        cleared += node->collector->clearFaults();
        if (node->runtime.down) {
            restartNode(*node);
            ++cleared;
        }
        if (node->runtime.hung) {
            node->runtime.hung = false;
            m_agentService->releaseParked(&node->runtime);
            ++cleared;
        }
        if (node->runtime.delayMs) {
            node->runtime.delayMs = 0;
            ++cleared;
        }
    }
    return cleared;
}

Result<CloudNodeEndpoints> SimFleet::addCloudNodes(int count, SimNodeKind kind,
                                                   const std::string &leaseId)
{
    std::vector<std::unique_ptr<Node>> fresh;
    std::vector<ListenSpec> listen;
    for (int i = 0; i < count; ++i) {
        SimNodePlan plan;
        plan.spec.kind = kind;
        plan.spec.seed = std::hash<std::string>{}(leaseId) + static_cast<uint64_t>(i);
        plan.spec.dataCenter = "cloud";
        plan.spec.nodeId = fmt::format("cloud-{}-n{}", leaseId, i + 1);
        plan.rack = "cloud-" + leaseId;
        plan.hostname = plan.spec.nodeId + ".cloud";
        fresh.push_back(makeNode(plan));
    }
    for (auto &node : fresh)
        listen.push_back({m_options.host + ":0", &node->port});
    // gRPC cannot add ports to a running server, so each lease gets its own.
    auto server = startGrpcServer(listen, ServerSecurity{}, {m_agentService.get()},
                                  ServerLimits::forNodes(static_cast<int>(fresh.size())));
    if (!server)
        return server.error();
    std::vector<std::pair<std::string, std::string>> endpoints;
    std::lock_guard lock(m_mutex);
    m_leaseServers[leaseId] = std::move(server).value();
    for (auto &node : fresh) {
        node->leaseId = leaseId;
        endpoints.emplace_back(node->plan.spec.nodeId,
                               fmt::format("{}:{}", m_options.host, node->port));
        m_byPort[node->port] = node.get();
        m_byId[node->plan.spec.nodeId] = node.get();
        m_nodes.push_back(std::move(node));
    }
    return endpoints;
}

void SimFleet::setCloudLie(CloudLie lie)
{
    const std::vector<SimNodeView> own = nodes();
    CloudNodeEndpoints ownNode;
    if (!own.empty())
        ownNode.emplace_back(own.front().nodeId, own.front().address);
    m_cloud->lie(lie, std::move(ownNode));
}

void SimFleet::removeCloudNodes(const std::string &leaseId)
{
    std::unique_ptr<grpc::Server> server;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_leaseServers.find(leaseId);
        if (it == m_leaseServers.end())
            return;
        server = std::move(it->second);
        m_leaseServers.erase(it);
    }
    stopGrpcServer(*server, 500);
    // Erased on the sampling thread, which is the only other holder of node pointers.
    m_scheduler->after(0, [this, leaseId] {
        std::lock_guard lock(m_mutex);
        for (auto it = m_nodes.begin(); it != m_nodes.end();) {
            if ((*it)->leaseId == leaseId) {
                m_byPort.erase((*it)->port);
                m_byId.erase((*it)->plan.spec.nodeId);
                it = m_nodes.erase(it);
            } else {
                ++it;
            }
        }
    });
}

}  // namespace meridian
