#include "scalingclients.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/node_agent.grpc.pb.h"

namespace meridian {

namespace {

void setDeadline(grpc::ClientContext &context, int64_t timeoutMs)
{
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeoutMs));
}

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

GrpcCapacityPool::GrpcCapacityPool(std::string address, ClientSecurity security,
                                   int64_t callTimeoutMs)
    : m_address(std::move(address))
    , m_callTimeoutMs(callTimeoutMs)
    , m_stub(
          std::make_unique<Stub>(Stub{v1::CapacityPool::NewStub(makeChannel(m_address, security))}))
{}

GrpcCapacityPool::~GrpcCapacityPool() = default;

Result<std::vector<PoolLeaseView>> GrpcCapacityPool::leases()
{
    grpc::ClientContext context;
    setDeadline(context, m_callTimeoutMs);
    v1::ListLeasesRequest request;
    request.set_include_released(true);
    v1::ListLeasesResponse response;
    const grpc::Status status = m_stub->stub->ListLeases(&context, request, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: {}", m_address, status.error_message())};
    std::vector<PoolLeaseView> out;
    PoolLeases books;
    for (const v1::Lease &l : response.leases()) {
        if (l.lease_id().empty())
            return Error{fmt::format("capacity pool {}: a lease without an id", m_address)};
        PoolLeaseView view{
            l.lease_id(), l.idempotency_key(), l.requested_by(), leaseStateOf(l.state()),
            {},           l.message()};
        CloudLease lease;
        lease.leaseId = l.lease_id();
        lease.region = l.region();
        lease.cardModel = l.card_model();
        lease.requestedBy = l.requested_by();
        lease.nodes = l.nodes();
        lease.cardsPerNode = l.cards_per_node();
        lease.cnyPerCardHour = l.price_cny_per_card_hour();
        lease.billingIncrementSeconds = std::max<int64_t>(1, l.billing_increment_seconds());
        lease.createdUnixS = l.created_unix_ms() / 1000;
        if (l.has_released_unix_ms())
            lease.releasedUnixS = l.released_unix_ms() / 1000;
        for (const v1::LeasedNode &node : l.leased_nodes()) {
            view.nodeIds.push_back(node.node_id());
            lease.nodeIds.push_back(node.node_id());
            if (!lease.releasedUnixS && !node.agent_address().empty())
                books.agents.push_back({node.node_id(), node.agent_address(), lease.region});
        }
        books.leases.push_back(std::move(lease));
        out.push_back(std::move(view));
    }
    m_last = std::move(books);
    return out;
}

Result<CapacityPoolApi::LeaseAnswer> GrpcCapacityPool::lease(const std::string &idempotencyKey,
                                                             const std::string &offerId,
                                                             const std::string &requestedBy)
{
    grpc::ClientContext context;
    setDeadline(context, m_callTimeoutMs);
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
                           fmt::format("capacity pool {}: {}", m_address, status.error_message())};
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: lease {} of {}: {}", m_address, idempotencyKey,
                                 offerId, status.error_message())};
    return LeaseAnswer{};
}

Status GrpcCapacityPool::release(const std::string &leaseId)
{
    grpc::ClientContext context;
    setDeadline(context, m_callTimeoutMs);
    v1::ReleaseRequest request;
    request.set_lease_id(leaseId);
    v1::ReleaseResponse response;
    const grpc::Status status = m_stub->stub->Release(&context, request, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: release {}: {}", m_address, leaseId,
                                 status.error_message())};
    return {};
}

Result<std::vector<CloudOfferView>> GrpcCapacityPool::offers()
{
    grpc::ClientContext context;
    setDeadline(context, m_callTimeoutMs);
    v1::ListOffersResponse response;
    const grpc::Status status = m_stub->stub->ListOffers(&context, {}, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: {}", m_address, status.error_message())};
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
        grpc::ClientContext context;
        setDeadline(context, m_callTimeoutMs);
        v1::ListWorkloadsResponse response;
        const grpc::Status status = agent(address).stub->ListWorkloads(&context, {}, &response);
        for (const ReplicaTarget *t : targets) {
            if (!status.ok()) {
                out.push_back({t->nodeId, t->stepKey, ReplicaState::Unknown});
                continue;
            }
            size_t present = 0, serving = 0, failed = 0;
            for (size_t i = 0; i < t->cardsOfReplicas.size(); ++i) {
                for (const v1::Workload &w : response.workloads()) {
                    if (w.replica_id() != replicaIdOf(t->stepKey, i))
                        continue;
                    ++present;
                    serving += w.state() == v1::WORKLOAD_STATE_SERVING;
                    failed += w.state() == v1::WORKLOAD_STATE_FAILED ||
                              w.state() == v1::WORKLOAD_STATE_STOPPED;
                }
            }
            // Some of the step's replicas missing: start the rest (the keys replay the
            // ones already there).
            ReplicaState state = ReplicaState::Starting;
            if (present < t->cardsOfReplicas.size())
                state = ReplicaState::Absent;
            else if (failed > 0)
                state = ReplicaState::Failed;
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
    if (t->cardsOfReplicas.empty())
        return Error{fmt::format("node {}: no cards of it can run {}", nodeId, service)};
    for (size_t i = 0; i < t->cardsOfReplicas.size(); ++i) {
        grpc::ClientContext context;
        setDeadline(context, m_callTimeoutMs);
        v1::ApplyWorkloadRequest request;
        request.set_idempotency_key(replicaIdOf(idempotencyKey, i));
        request.set_requested_by(m_requestedBy);
        request.set_reason(fmt::format("scaling step {}", idempotencyKey));
        v1::StartReplica *start = request.mutable_start();
        start->set_replica_id(replicaIdOf(idempotencyKey, i));
        start->set_service(service);
        start->set_model(t->model);
        for (uint32_t card : t->cardsOfReplicas[i])
            start->add_card_indices(card);
        v1::ApplyWorkloadResponse response;
        const grpc::Status status =
            agent(t->address).stub->ApplyWorkload(&context, request, &response);
        if (!status.ok())
            return Error{fmt::format("agent {} ({}): start replica {}: {}", nodeId, t->address,
                                     replicaIdOf(idempotencyKey, i), status.error_message())};
    }
    return {};
}

}  // namespace meridian
