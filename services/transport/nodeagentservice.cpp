#include "nodeagentservice.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "protoconvert.h"

namespace meridian {

namespace {

constexpr uint32_t kMinIntervalMs = 100;
constexpr uint32_t kMaxIntervalMs = 60'000;
constexpr size_t kUsageChunkMinutes = 2000;

std::string_view authorityOf(grpc::CallbackServerContext &context)
{
    const grpc::string_ref authority = context.ExperimentalGetAuthority();
    return {authority.data(), authority.size()};
}

grpc::Status unavailable(const NodeRuntime &node)
{
    return {grpc::StatusCode::UNAVAILABLE, "agent is not running"};
}

// Common guard for streams: a status to finish with at once, or OK to go on.
grpc::Status admit(NodeDirectory &nodes, const Authorizer &auth,
                   grpc::CallbackServerContext *context, NodeRuntime **node)
{
    *node = nodes.find(authorityOf(*context));
    if (!*node)
        return {grpc::StatusCode::NOT_FOUND, "no node agent at this address"};
    if (grpc::Status status = auth.check(*context, Role::ReadOnly); !status.ok())
        return status;
    if ((*node)->down)
        return unavailable(**node);
    return grpc::Status::OK;
}

// Base for server streams: a shared, lockable "alive" cell that scheduled tasks check
// before touching the reactor, because OnDone deletes it.
template <typename Message>
class StreamReactor : public grpc::ServerWriteReactor<Message> {
public:
    struct Cell {
        std::mutex mutex;
        StreamReactor *reactor = nullptr;
    };

    StreamReactor() : m_cell(std::make_shared<Cell>()) { m_cell->reactor = this; }

    void OnDone() override
    {
        {
            std::lock_guard lock(m_cell->mutex);
            m_cell->reactor = nullptr;
        }
        onDone();
        delete this;
    }

    void OnCancel() override
    {
        std::lock_guard lock(m_cell->mutex);
        finishLocked(grpc::Status::CANCELLED);
    }

    void OnWriteDone(bool ok) override
    {
        std::lock_guard lock(m_cell->mutex);
        m_writing = false;
        if (!ok) {
            finishLocked(grpc::Status::CANCELLED);
            return;
        }
        writeNextLocked();
    }

protected:
    virtual void onDone() {}
    virtual void writeNextLocked() = 0;

    void writeLocked(const Message &message)
    {
        if (m_finished || m_writing)
            return;
        m_buffer = message;
        m_writing = true;
        this->StartWrite(&m_buffer);
    }

    void finishLocked(const grpc::Status &status)
    {
        if (m_finished)
            return;
        m_finished = true;
        this->Finish(status);
    }

    std::shared_ptr<Cell> m_cell;
    bool m_writing = false;
    bool m_finished = false;

private:
    Message m_buffer;
};

class TelemetryStream final : public StreamReactor<v1::TelemetryBatch> {
public:
    TelemetryStream(NodeRuntime &node, Scheduler &scheduler, uint32_t intervalMs)
        : m_node(node), m_scheduler(scheduler), m_intervalMs(intervalMs)
    {
        scheduleTick(m_cell, 0);
    }

private:
    void scheduleTick(const std::shared_ptr<Cell> &cell, int64_t delayMs)
    {
        m_scheduler.after(delayMs, [cell] {
            std::lock_guard lock(cell->mutex);
            if (cell->reactor)
                static_cast<TelemetryStream *>(cell->reactor)->tickLocked();
        });
    }

    void tickLocked()
    {
        if (m_finished)
            return;
        if (m_node.down) {
            finishLocked(unavailable(m_node));
            return;
        }
        if (!m_node.hung) {
            const TelemetrySample sample = m_node.monitor->latest();
            if (sample.sampleTimeUnixMs != 0) {
                m_pending.Clear();
                toProto(sample, &m_pending);
                m_pending.set_last_event_sequence(m_node.monitor->events().lastSequence());
                m_pending.set_boot_id(m_node.monitor->inventory().bootId);
                m_hasPending = true;
                writeNextLocked();
            }
        }
        scheduleTick(m_cell, m_intervalMs + m_node.delayMs.load());
    }

    // A slow client gets the newest batch when it is ready again, not a backlog.
    void writeNextLocked() override
    {
        if (m_hasPending && !m_writing) {
            m_hasPending = false;
            writeLocked(m_pending);
        }
    }

    NodeRuntime &m_node;
    Scheduler &m_scheduler;
    uint32_t m_intervalMs;
    v1::TelemetryBatch m_pending;
    bool m_hasPending = false;
};

class EventStream final : public StreamReactor<v1::Event> {
public:
    EventStream(NodeRuntime &node, Scheduler &scheduler, uint64_t afterSequence)
        : m_node(node), m_scheduler(scheduler)
    {
        std::vector<Event> backlog;
        std::weak_ptr<Cell> weak = m_cell;
        m_subscription = node.monitor->events().subscribe(
            afterSequence,
            [weak](const Event &event) {
                const auto cell = weak.lock();
                if (!cell)
                    return;
                std::lock_guard lock(cell->mutex);
                if (cell->reactor)
                    static_cast<EventStream *>(cell->reactor)->queueLocked(event);
            },
            &backlog);
        std::lock_guard lock(m_cell->mutex);
        // Live events that raced in are newer than every backlog event: put these first.
        m_queue.insert(m_queue.begin(), backlog.begin(), backlog.end());
        m_ready = true;
        writeNextLocked();
        scheduleCheck(m_cell);
    }

private:
    void queueLocked(const Event &event)
    {
        m_queue.push_back(event);
        if (m_ready)
            writeNextLocked();
    }

    // Notices an agent that went down or recovered from a hang.
    void scheduleCheck(const std::shared_ptr<Cell> &cell)
    {
        m_scheduler.after(500, [cell] {
            std::lock_guard lock(cell->mutex);
            if (!cell->reactor)
                return;
            auto *self = static_cast<EventStream *>(cell->reactor);
            if (self->m_node.down) {
                self->finishLocked(unavailable(self->m_node));
                return;
            }
            self->writeNextLocked();
            self->scheduleCheck(cell);
        });
    }

    void writeNextLocked() override
    {
        if (m_writing || m_finished || m_queue.empty() || m_node.hung)
            return;
        v1::Event message;
        toProto(m_queue.front(), &message);
        m_queue.pop_front();
        writeLocked(message);
    }

    void onDone() override { m_node.monitor->events().unsubscribe(m_subscription); }

    NodeRuntime &m_node;
    Scheduler &m_scheduler;
    int m_subscription = 0;
    std::deque<Event> m_queue;
    bool m_ready = false;
};

class UsageStream final : public StreamReactor<v1::UsageChunk> {
public:
    UsageStream(NodeRuntime &node, int64_t sinceMinute) : m_node(node), m_next(sinceMinute)
    {
        std::lock_guard lock(m_cell->mutex);
        writeNextLocked();
    }

private:
    void writeNextLocked() override
    {
        if (m_writing || m_finished)
            return;
        if (m_done) {
            finishLocked(grpc::Status::OK);
            return;
        }
        UsageLedger &ledger = m_node.monitor->usage();
        auto minutes = ledger.since(m_next, kUsageChunkMinutes);
        if (!minutes) {
            finishLocked({grpc::StatusCode::INTERNAL, minutes.error().message});
            return;
        }
        v1::UsageChunk chunk;
        chunk.set_oldest_minute_kept_unix_s(ledger.oldestMinuteUnixS());
        for (const UsageMinute &m : minutes.value())
            toProto(m, chunk.add_minutes());
        // Rows are ordered by (minute, card); a chunk may end inside a minute, so the next
        // one starts at that minute again and skips what was sent.
        if (minutes->size() < kUsageChunkMinutes) {
            m_done = true;
        } else {
            const int64_t last = minutes->back().minuteStartUnixS;
            auto &rows = *chunk.mutable_minutes();
            const auto firstOfLast = std::find_if(rows.begin(), rows.end(), [&](const auto &m) {
                return m.minute_start_unix_s() == last;
            });
            if (firstOfLast == rows.begin()) {
                m_next = last + 60;  // a whole chunk in one minute: pathological, move on
            } else {
                rows.erase(firstOfLast, rows.end());
                m_next = last;
            }
        }
        writeLocked(chunk);
    }

    NodeRuntime &m_node;
    int64_t m_next;
    bool m_done = false;
};

template <typename Message>
class FailedStream final : public grpc::ServerWriteReactor<Message> {
public:
    explicit FailedStream(const grpc::Status &status) { this->Finish(status); }
    void OnDone() override { delete this; }
};

// A unary call held by a hung agent: answered when the hang clears or the client
// gives up (deadline or cancel), whichever comes first.
class ParkedCall final : public grpc::ServerUnaryReactor {
public:
    ParkedCall(NodeAgentService &service) : m_service(service) {}
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
    NodeAgentService &m_service;
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

NodeAgentService::NodeAgentService(NodeDirectory &nodes, Authorizer authorizer, Scheduler &scheduler)
    : m_nodes(nodes), m_authorizer(std::move(authorizer)), m_scheduler(scheduler)
{
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
        refusal = unavailable(*node);
    if (!refusal.ok() || (node && !node->hung && node->delayMs == 0)) {
        grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
        reactor->Finish(refusal.ok() ? work(*node) : refusal);
        return reactor;
    }
    if (node->hung) {
        auto *parked = new ParkedCall(*this);
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
    m_scheduler.after(node->delayMs, [reactor, node, work = std::move(work)] {
        reactor->Finish(work(*node));
    });
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
            return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "action: start or stop is required");
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
    if (grpc::Status status = admit(m_nodes, m_authorizer, context, &node); !status.ok())
        return new FailedStream<v1::TelemetryBatch>(status);
    const uint32_t interval = request->interval_ms() == 0
                                  ? static_cast<uint32_t>(node->monitor->sampleIntervalMs())
                                  : std::clamp(request->interval_ms(), kMinIntervalMs, kMaxIntervalMs);
    return new TelemetryStream(*node, m_scheduler, interval);
}

grpc::ServerWriteReactor<v1::Event> *NodeAgentService::StreamEvents(
    grpc::CallbackServerContext *context, const v1::StreamEventsRequest *request)
{
    NodeRuntime *node = nullptr;
    if (grpc::Status status = admit(m_nodes, m_authorizer, context, &node); !status.ok())
        return new FailedStream<v1::Event>(status);
    return new EventStream(*node, m_scheduler, request->after_sequence());
}

grpc::ServerWriteReactor<v1::UsageChunk> *NodeAgentService::GetUsage(
    grpc::CallbackServerContext *context, const v1::GetUsageRequest *request)
{
    NodeRuntime *node = nullptr;
    if (grpc::Status status = admit(m_nodes, m_authorizer, context, &node); !status.ok())
        return new FailedStream<v1::UsageChunk>(status);
    const int64_t since = std::max<int64_t>(0, request->since_minute_unix_s()) / 60 * 60;
    return new UsageStream(*node, since);
}

}  // namespace meridian
