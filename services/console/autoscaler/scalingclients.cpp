#include "scalingclients.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <set>

#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "wire/calldeadline.h"
#include "wire/callfailure.h"

namespace meridian {

namespace {

PoolLeaseState leaseStateOf(v1::LeaseState state)
{
    switch (state) {
    case v1::LEASE_STATE_READY: return PoolLeaseState::Ready;
    case v1::LEASE_STATE_RELEASED: return PoolLeaseState::Released;
    case v1::LEASE_STATE_FAILED: return PoolLeaseState::Failed;
    default: return PoolLeaseState::Provisioning;
    }
}

}  // namespace

std::string replicaIdOf(const std::string &stepKey, size_t index)
{
    return fmt::format("{}/r{}", stepKey, index + 1);
}

struct GrpcCapacityPool::Stub {
    std::unique_ptr<v1::CapacityPool::Stub> stub;
};

GrpcCapacityPool::GrpcCapacityPool(std::string address, ClientSecurity security, const Clock &clock,
                                   int64_t callTimeoutMs, std::string owner)
    : m_address(std::move(address))
    , m_clock(clock)
    , m_callTimeoutMs(callTimeoutMs)
    , m_owner(std::move(owner))
    , m_stub(
          std::make_unique<Stub>(Stub{v1::CapacityPool::NewStub(makeChannel(m_address, security))}))
{}

GrpcCapacityPool::~GrpcCapacityPool() = default;

Result<std::vector<PoolLeaseView>> GrpcCapacityPool::leases()
{
    grpc::ClientContext context;
    setCallDeadline(context, m_callTimeoutMs);
    v1::ListLeasesRequest request;
    request.set_include_released(true);
    v1::ListLeasesResponse response;
    const grpc::Status status = m_stub->stub->ListLeases(&context, request, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: {}", m_address, statusInWords(status))};
    auto books = poolLeasesFrom(response, m_address);
    if (!books)
        return books.error();
    std::vector<PoolLeaseView> out;
    for (const v1::Lease &l : response.leases()) {
        PoolLeaseView view{
            l.lease_id(), l.idempotency_key(), l.requested_by(), leaseStateOf(l.state()),
            {},           l.message()};
        for (const v1::LeasedNode &node : l.leased_nodes()) {
            view.nodeIds.push_back(node.node_id());
            view.agentAddresses.push_back(node.agent_address());
        }
        out.push_back(std::move(view));
    }
    m_last = std::move(books).value();
    m_last.readAtSteadyMs = m_clock.steadyMs();
    // Remembered only until the pool's list says released (or no longer lists it): a
    // controller that runs for months does not carry every lease it ever gave back.
    std::erase_if(m_released, [this](const std::string &leaseId) {
        const auto lease = std::find_if(m_last.leases.begin(), m_last.leases.end(),
                                        [&](const CloudLease &l) { return l.leaseId == leaseId; });
        return lease == m_last.leases.end() || lease->releasedUnixS;
    });
    for (const std::string &released : m_released)
        forgetAgentsOf(released);
    return out;
}

Result<CapacityPoolApi::LeaseAnswer> GrpcCapacityPool::lease(const std::string &idempotencyKey,
                                                             const std::string &offerId,
                                                             const std::string &requestedBy)
{
    grpc::ClientContext context;
    setCallDeadline(context, m_callTimeoutMs);
    v1::LeaseRequest request;
    request.set_idempotency_key(idempotencyKey);
    request.set_offer_id(offerId);
    request.set_nodes(1);
    request.set_requested_by(requestedBy);
    v1::LeaseResponse response;
    const grpc::Status status = m_stub->stub->Lease(&context, request, &response);
    // The pool's "no": sold out, no such offer, a request it will never take. Anything
    // else may not have reached it, and is asked again with the same key.
    const grpc::StatusCode code = status.error_code();
    if (code == grpc::StatusCode::RESOURCE_EXHAUSTED || code == grpc::StatusCode::NOT_FOUND ||
        code == grpc::StatusCode::INVALID_ARGUMENT || code == grpc::StatusCode::PERMISSION_DENIED ||
        code == grpc::StatusCode::FAILED_PRECONDITION)
        return LeaseAnswer{true,
                           fmt::format("capacity pool {}: {}", m_address, statusInWords(status))};
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: lease {} of {}: {}", m_address, idempotencyKey,
                                 offerId, statusInWords(status))};
    return LeaseAnswer{};
}

Status GrpcCapacityPool::release(const std::string &leaseId)
{
    grpc::ClientContext context;
    setCallDeadline(context, m_callTimeoutMs);
    v1::ReleaseRequest request;
    request.set_lease_id(leaseId);
    request.set_requested_by(m_owner);
    v1::ReleaseResponse response;
    const grpc::Status status = m_stub->stub->Release(&context, request, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: release {}: {}", m_address, leaseId,
                                 statusInWords(status))};
    m_released.insert(leaseId);
    forgetAgentsOf(leaseId);
    return {};
}

void GrpcCapacityPool::forgetAgentsOf(const std::string &leaseId)
{
    const auto lease = std::find_if(m_last.leases.begin(), m_last.leases.end(),
                                    [&](const CloudLease &l) { return l.leaseId == leaseId; });
    if (lease == m_last.leases.end())
        return;
    const std::set<std::string> released(lease->nodeIds.begin(), lease->nodeIds.end());
    std::erase_if(m_last.agents,
                  [&](const LeasedAgent &agent) { return released.count(agent.nodeId) > 0; });
}

Result<std::vector<CloudOfferView>> GrpcCapacityPool::offers()
{
    grpc::ClientContext context;
    setCallDeadline(context, m_callTimeoutMs);
    v1::ListOffersResponse response;
    const grpc::Status status = m_stub->stub->ListOffers(&context, {}, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: {}", m_address, statusInWords(status))};
    std::vector<CloudOfferView> out;
    for (const v1::Offer &o : response.offers()) {
        const double price = o.price_cny_per_card_hour();
        if (o.offer_id().empty() || !(price > 0) || price > 10'000 || o.cards_per_node() == 0 ||
            o.cards_per_node() > 64)
            continue;  // an offer that cannot be right is not one to rent from
        out.push_back({o.offer_id(), o.region(), o.card_model(),
                       static_cast<int>(o.cards_per_node()),
                       static_cast<int>(std::min<uint32_t>(o.available_nodes(), 10'000)), price});
    }
    return out;
}

struct GrpcReplicas::Agent {
    std::unique_ptr<v1::NodeAgent::Stub> stub;
};

GrpcReplicas::GrpcReplicas(ClientSecurity security, std::string requestedBy, int64_t callTimeoutMs)
    : m_security(std::move(security))
    , m_requestedBy(std::move(requestedBy))
    , m_callTimeoutMs(callTimeoutMs)
{}

GrpcReplicas::~GrpcReplicas() = default;

void GrpcReplicas::setTargets(std::vector<ReplicaTarget> targets)
{
    m_targets = std::move(targets);
}

GrpcReplicas::Agent &GrpcReplicas::agent(const std::string &address)
{
    auto &slot = m_agents[address];
    if (!slot)
        slot = std::make_unique<Agent>(
            Agent{v1::NodeAgent::NewStub(makeChannel(address, m_security))});
    return *slot;
}

const ReplicaTarget *GrpcReplicas::target(const std::string &stepKey) const
{
    for (const ReplicaTarget &t : m_targets) {
        if (t.stepKey == stepKey)
            return &t;
    }
    return nullptr;
}

namespace {

bool holdsCards(v1::WorkloadState state)
{
    return state == v1::WORKLOAD_STATE_STARTING || state == v1::WORKLOAD_STATE_SERVING ||
           state == v1::WORKLOAD_STATE_STOPPING;
}

}  // namespace

struct WorkloadView {
    std::string replicaId;
    v1::WorkloadState state;
    std::vector<uint32_t> cards;
};

Result<std::vector<WorkloadView>> GrpcReplicas::workloads(const std::string &address)
{
    grpc::ClientContext context;
    setCallDeadline(context, m_callTimeoutMs);
    v1::ListWorkloadsResponse response;
    const grpc::Status status = agent(address).stub->ListWorkloads(&context, {}, &response);
    if (!status.ok())
        return Error{fmt::format("agent {}: {}", address, statusInWords(status))};
    std::vector<WorkloadView> out;
    for (const v1::Workload &w : response.workloads())
        out.push_back(
            {w.replica_id(), w.state(), {w.card_indices().begin(), w.card_indices().end()}});
    return out;
}

Result<std::vector<uint32_t>> GrpcReplicas::heldCards(const std::string &address)
{
    auto listed = workloads(address);
    if (!listed)
        return listed.error();
    std::vector<uint32_t> held;
    for (const WorkloadView &w : listed.value()) {
        if (holdsCards(w.state))
            held.insert(held.end(), w.cards.begin(), w.cards.end());
    }
    return held;
}

Result<std::vector<ReplicaView>> GrpcReplicas::replicas()
{
    std::map<std::string, std::vector<const ReplicaTarget *>> byAddress;
    std::vector<ReplicaView> out;
    for (const ReplicaTarget &t : m_targets) {
        if (t.address.empty())
            out.push_back({t.nodeId, t.stepKey, ReplicaState::Unknown});  // no agent yet
        else
            byAddress[t.address].push_back(&t);
    }
    for (const auto &[address, targets] : byAddress) {
        const auto listed = workloads(address);
        for (const ReplicaTarget *t : targets) {
            if (!listed) {
                out.push_back({t->nodeId, t->stepKey, ReplicaState::Unknown});
                continue;
            }
            int present = 0, serving = 0, failed = 0;
            for (int i = 0; i < t->replicas; ++i) {
                for (const WorkloadView &w : listed.value()) {
                    if (w.replicaId != replicaIdOf(t->stepKey, static_cast<size_t>(i)) ||
                        w.state == v1::WORKLOAD_STATE_STOPPED)
                        continue;
                    ++present;
                    serving += w.state == v1::WORKLOAD_STATE_SERVING;
                    failed += w.state == v1::WORKLOAD_STATE_FAILED;
                }
            }
            ReplicaState state = ReplicaState::Starting;
            if (present == 0)
                state = ReplicaState::Absent;
            else if (failed > 0)
                state = ReplicaState::Failed;
            else if (present < t->replicas)
                state = ReplicaState::Partial;
            else if (serving == present)
                state = ReplicaState::Serving;
            out.push_back({t->nodeId, t->stepKey, state});
        }
    }
    return out;
}

Status GrpcReplicas::start(const std::string &nodeId, const std::string &idempotencyKey,
                           const std::string &service)
{
    const ReplicaTarget *t = target(idempotencyKey);
    if (!t || t->address.empty())
        return Error{fmt::format("node {}: its agent's address is not known yet", nodeId)};
    auto listed = workloads(t->address);
    if (!listed)
        return listed.error();
    std::vector<uint32_t> held;
    std::vector<std::string> running;
    for (const WorkloadView &w : listed.value()) {
        if (holdsCards(w.state)) {
            held.insert(held.end(), w.cards.begin(), w.cards.end());
            running.push_back(w.replicaId);
        }
    }
    std::vector<uint32_t> free;
    for (uint32_t card : t->cards) {
        if (std::find(held.begin(), held.end(), card) == held.end())
            free.push_back(card);
    }
    size_t next = 0;
    for (int i = 0; i < t->replicas; ++i) {
        const std::string id = replicaIdOf(idempotencyKey, static_cast<size_t>(i));
        if (std::find(running.begin(), running.end(), id) != running.end())
            continue;  // started before a crash
        if (next + static_cast<size_t>(t->cardsPerReplica) > free.size())
            return Error{fmt::format("node {}: not enough free cards for replica {} of {}", nodeId,
                                     id, service)};
        grpc::ClientContext context;
        setCallDeadline(context, m_callTimeoutMs);
        v1::ApplyWorkloadRequest request;
        request.set_idempotency_key(id);
        request.set_requested_by(m_requestedBy);
        request.set_reason(fmt::format("scaling step {}", idempotencyKey));
        v1::StartReplica *start = request.mutable_start();
        start->set_replica_id(id);
        start->set_service(service);
        start->set_model(t->model);
        for (int c = 0; c < t->cardsPerReplica; ++c)
            start->add_card_indices(free[next++]);
        v1::ApplyWorkloadResponse response;
        const grpc::Status status =
            agent(t->address).stub->ApplyWorkload(&context, request, &response);
        if (!status.ok())
            return Error{fmt::format("agent {} ({}): start replica {}: {}", nodeId, t->address, id,
                                     statusInWords(status))};
    }
    return {};
}

Status GrpcReplicas::stop(const std::string &nodeId, const std::string &idempotencyKey)
{
    const ReplicaTarget *t = target(idempotencyKey);
    if (!t || t->address.empty())
        return Error{fmt::format("node {}: its agent's address is not known", nodeId)};
    auto listed = workloads(t->address);
    if (!listed)
        return listed.error();
    for (int i = 0; i < t->replicas; ++i) {
        const std::string id = replicaIdOf(idempotencyKey, static_cast<size_t>(i));
        const bool running = std::any_of(
            listed.value().begin(), listed.value().end(),
            [&](const WorkloadView &w) { return w.replicaId == id && holdsCards(w.state); });
        if (!running)
            continue;  // never started, or stopped already
        grpc::ClientContext context;
        setCallDeadline(context, m_callTimeoutMs);
        v1::ApplyWorkloadRequest request;
        request.set_idempotency_key(id + "/stop");
        request.set_requested_by(m_requestedBy);
        request.set_reason(fmt::format("scaling step {} released", idempotencyKey));
        request.mutable_stop()->set_replica_id(id);
        v1::ApplyWorkloadResponse response;
        const grpc::Status status =
            agent(t->address).stub->ApplyWorkload(&context, request, &response);
        if (!status.ok())
            return Error{fmt::format("agent {} ({}): stop replica {}: {}", nodeId, t->address, id,
                                     statusInWords(status))};
    }
    return {};
}

}  // namespace meridian
