#include "nodeagentservice.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "agentstreams.h"
#include "wire/guardedpeer.h"
#include "wire/protoconvert.h"

namespace meridian {

namespace {

constexpr uint32_t kMinIntervalMs = 100;
constexpr uint32_t kMaxIntervalMs = 60'000;
// Streams open at once, shared out by token (RoomLimits::sharing): a console holds three
// per agent, so one token's 128 serve some forty consoles.
constexpr size_t kMaxOpenStreams = 1024;

std::string_view authorityOf(grpc::CallbackServerContext &context)
{
    const grpc::string_ref authority = context.ExperimentalGetAuthority();
    return {authority.data(), authority.size()};
}

// A unary call held by a hung agent: answered when the hang clears or the client
// gives up (deadline or cancel), whichever comes first.
class ParkedCall final : public grpc::ServerUnaryReactor {
public:
    void release(const grpc::Status &status)
    {
        std::lock_guard lock(m_mutex);
        if (!m_finished) {
            m_finished = true;
            Finish(status);
        }
    }
    void OnCancel() override { release(grpc::Status::CANCELLED); }
    void OnDone() override;
    std::function<void(ParkedCall *)> onDone;

private:
    std::mutex m_mutex;
    bool m_finished = false;
};

void ParkedCall::OnDone()
{
    if (onDone)
        onDone(this);
    delete this;
}

}  // namespace

NodeAgentService::NodeAgentService(NodeDirectory &nodes, Authorizer authorizer,
                                   Scheduler &scheduler)
    : m_nodes(nodes), m_authorizer(std::move(authorizer)), m_scheduler(scheduler)
{
    // Without tokens (loopback only, the simulator playing a fleet) nobody is told apart.
    if (m_authorizer.hasTokens())
        m_streams = ClientRoom::create("streams", RoomLimits::sharing(kMaxOpenStreams));
}

grpc::Status NodeAgentService::admitStream(grpc::CallbackServerContext *context, NodeRuntime **node,
                                           ClientRoom::Slot *slot)
{
    *node = m_nodes.find(authorityOf(*context));
    if (!*node)
        return {grpc::StatusCode::NOT_FOUND, "no node agent at this address"};
    const TokenGrant *caller = nullptr;
    if (grpc::Status status = m_authorizer.check(*context, Role::ReadOnly, &caller); !status.ok())
        return status;
    if (caller && m_streams) {
        auto taken =
            m_streams->take({caller->name, clientAddressOf(context->peer()), caller->role});
        if (!taken)
            return {grpc::StatusCode::RESOURCE_EXHAUSTED, taken.error().message};
        *slot = std::move(taken).value();
    }
    if ((*node)->down)
        return agentNotRunning();
    return grpc::Status::OK;
}

NodeAgentService::~NodeAgentService()
{
    releaseParked();
}

grpc::ServerUnaryReactor *NodeAgentService::unary(grpc::CallbackServerContext *context, Role role,
                                                  std::function<grpc::Status(NodeRuntime &)> work)
{
    NodeRuntime *node = m_nodes.find(authorityOf(*context));
    grpc::Status refusal;
    if (!node)
        refusal = {grpc::StatusCode::NOT_FOUND, "no node agent at this address"};
    else if (grpc::Status status = m_authorizer.check(*context, role); !status.ok())
        refusal = status;
    else if (node->down)
        refusal = agentNotRunning();
    if (!refusal.ok() || (node && !node->hung && node->delayMs == 0)) {
        grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
        reactor->Finish(refusal.ok() ? work(*node) : refusal);
        return reactor;
    }
    if (node->hung) {
        auto *parked = new ParkedCall;
        {
            std::lock_guard lock(m_parkedMutex);
            m_parked.emplace(node, parked);
        }
        parked->onDone = [this, node](ParkedCall *call) {
            std::lock_guard lock(m_parkedMutex);
            for (auto it = m_parked.begin(); it != m_parked.end(); ++it) {
                if (it->second == call) {
                    m_parked.erase(it);
                    break;
                }
            }
        };
        return parked;
    }
    // A slow agent: the answer is computed and sent after its delay.
    grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    m_scheduler.after(node->delayMs,
                      [reactor, node, work = std::move(work)] { reactor->Finish(work(*node)); });
    return reactor;
}

void NodeAgentService::releaseParked(NodeRuntime *node)
{
    std::vector<grpc::ServerUnaryReactor *> calls;
    {
        std::lock_guard lock(m_parkedMutex);
        for (auto it = m_parked.begin(); it != m_parked.end(); ++it) {
            if (!node || it->first == node)
                calls.push_back(it->second);
        }
    }
    for (auto *call : calls) {
        static_cast<ParkedCall *>(call)->release(
            {grpc::StatusCode::UNAVAILABLE, "agent did not answer in time"});
    }
}

void NodeAgentService::releaseParked()
{
    releaseParked(nullptr);
}

grpc::ServerUnaryReactor *NodeAgentService::GetInventory(grpc::CallbackServerContext *context,
                                                         const v1::GetInventoryRequest *,
                                                         v1::NodeInventory *response)
{
    return unary(context, Role::ReadOnly, [response](NodeRuntime &node) {
        toProto(node.monitor->inventory(), response);
        return grpc::Status::OK;
    });
}

grpc::ServerUnaryReactor *NodeAgentService::GetFabric(grpc::CallbackServerContext *context,
                                                      const v1::GetFabricRequest *,
                                                      v1::FabricReport *response)
{
    return unary(context, Role::ReadOnly, [response](NodeRuntime &node) {
        for (const NicInfo &nic : node.monitor->inventory().nics)
            toProto(nic, response->add_nics());
        const TelemetrySample latest = node.monitor->latest();
        for (const NicSample &nic : latest.nics)
            toProto(nic, response->add_latest());
        response->set_sample_time_unix_ms(latest.sampleTimeUnixMs);
        return grpc::Status::OK;
    });
}

grpc::ServerUnaryReactor *NodeAgentService::ListWorkloads(grpc::CallbackServerContext *context,
                                                          const v1::ListWorkloadsRequest *,
                                                          v1::ListWorkloadsResponse *response)
{
    return unary(context, Role::ReadOnly, [response](NodeRuntime &node) {
        if (node.workloads) {
            for (const Workload &w : node.workloads->list())
                toProto(w, response->add_workloads());
        }
        return grpc::Status::OK;
    });
}

grpc::ServerUnaryReactor *NodeAgentService::ApplyWorkload(grpc::CallbackServerContext *context,
                                                          const v1::ApplyWorkloadRequest *request,
                                                          v1::ApplyWorkloadResponse *response)
{
    return unary(context, Role::Operator, [request, response](NodeRuntime &node) {
        if (!node.workloads)
            return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "no workload manager");
        WorkloadRequest r;
        r.idempotencyKey = request->idempotency_key();
        r.requestedBy = request->requested_by();
        r.reason = request->reason();
        if (request->has_start()) {
            const v1::StartReplica &s = request->start();
            r.start = true;
            r.workload.replicaId = s.replica_id();
            r.workload.service = s.service();
            r.workload.model = s.model();
            r.workload.cardIndices.assign(s.card_indices().begin(), s.card_indices().end());
        } else if (request->has_stop()) {
            r.start = false;
            r.workload.replicaId = request->stop().replica_id();
        } else {
            return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                "action: start or stop is required");
        }
        auto outcome = node.workloads->apply(r);
        if (!outcome)
            return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, outcome.error().message);
        toProto(outcome->workload, response->mutable_workload());
        response->set_replayed(outcome->replayed);
        return grpc::Status::OK;
    });
}

grpc::ServerWriteReactor<v1::TelemetryBatch> *NodeAgentService::StreamTelemetry(
    grpc::CallbackServerContext *context, const v1::StreamTelemetryRequest *request)
{
    NodeRuntime *node = nullptr;
    ClientRoom::Slot slot;
    if (grpc::Status status = admitStream(context, &node, &slot); !status.ok())
        return new FailedStream<v1::TelemetryBatch>(status);
    const uint32_t interval =
        request->interval_ms() == 0
            ? static_cast<uint32_t>(node->monitor->sampleIntervalMs())
            : std::clamp(request->interval_ms(), kMinIntervalMs, kMaxIntervalMs);
    return newTelemetryStream(*node, m_scheduler, interval, std::move(slot));
}

grpc::ServerWriteReactor<v1::Event> *NodeAgentService::StreamEvents(
    grpc::CallbackServerContext *context, const v1::StreamEventsRequest *request)
{
    NodeRuntime *node = nullptr;
    ClientRoom::Slot slot;
    if (grpc::Status status = admitStream(context, &node, &slot); !status.ok())
        return new FailedStream<v1::Event>(status);
    return newEventStream(*node, m_scheduler, request->after_sequence(), std::move(slot));
}

grpc::ServerWriteReactor<v1::UsageChunk> *NodeAgentService::GetUsage(
    grpc::CallbackServerContext *context, const v1::GetUsageRequest *request)
{
    NodeRuntime *node = nullptr;
    ClientRoom::Slot slot;
    if (grpc::Status status = admitStream(context, &node, &slot); !status.ok())
        return new FailedStream<v1::UsageChunk>(status);
    const int64_t since = std::max<int64_t>(0, request->since_minute_unix_s()) / 60 * 60;
    return newUsageStream(*node, since, std::move(slot));
}

}  // namespace meridian
