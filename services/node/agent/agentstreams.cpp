#include "agentstreams.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>

#include "wire/protoconvert.h"

namespace meridian {

namespace {

constexpr size_t kUsageChunkMinutes = 2000;

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

    // The stream's place in the agent's room for streams, given back when it ends.
    void hold(ClientRoom::Slot slot) { m_slot = std::move(slot); }

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
    ClientRoom::Slot m_slot;
};

class TelemetryStream final : public StreamReactor<v1::TelemetryBatch> {
public:
    TelemetryStream(NodeRuntime &node, Scheduler &scheduler, uint32_t intervalMs)
        : m_node(node), m_scheduler(scheduler), m_intervalMs(intervalMs), m_dueMs(scheduler.nowMs())
    {
        scheduleTick(m_cell);
    }

private:
    void scheduleTick(const std::shared_ptr<Cell> &cell)
    {
        m_scheduler.at(m_dueMs, [cell] {
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
            finishLocked(agentNotRunning());
            return;
        }
        if (!m_node.hung) {
            const TelemetrySample sample = m_node.monitor->latest();
            if (sample.sampleTimeUnixMs != 0) {
                m_pending.Clear();
                toProto(sample, &m_pending);
                m_pending.set_last_event_sequence(m_node.monitor->events().lastSequence());
                m_pending.set_boot_id(m_node.monitor->bootId());
                m_hasPending = true;
                writeNextLocked();
            }
        }
        // The next tick keeps this one's cadence, whenever this one ran: a late tick
        // neither drifts nor makes the next one late (on a test's clock, time may have
        // moved on while it ran). One far behind (a suspended machine) starts afresh.
        m_dueMs += m_intervalMs + m_node.delayMs.load();
        if (const int64_t now = m_scheduler.nowMs(); m_dueMs < now - 5 * int64_t{m_intervalMs})
            m_dueMs = now;
        scheduleTick(m_cell);
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
    int64_t m_dueMs;  // of the next tick, on the scheduler's clock
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
                self->finishLocked(agentNotRunning());
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

}  // namespace

grpc::Status agentNotRunning()
{
    return {grpc::StatusCode::UNAVAILABLE, "agent is not running"};
}

grpc::ServerWriteReactor<v1::TelemetryBatch> *newTelemetryStream(NodeRuntime &node,
                                                                 Scheduler &scheduler,
                                                                 uint32_t intervalMs,
                                                                 ClientRoom::Slot slot)
{
    auto *stream = new TelemetryStream(node, scheduler, intervalMs);
    stream->hold(std::move(slot));
    return stream;
}

grpc::ServerWriteReactor<v1::Event> *newEventStream(NodeRuntime &node, Scheduler &scheduler,
                                                    uint64_t afterSequence, ClientRoom::Slot slot)
{
    auto *stream = new EventStream(node, scheduler, afterSequence);
    stream->hold(std::move(slot));
    return stream;
}

grpc::ServerWriteReactor<v1::UsageChunk> *newUsageStream(NodeRuntime &node,
                                                         int64_t sinceMinuteUnixS,
                                                         ClientRoom::Slot slot)
{
    auto *stream = new UsageStream(node, sinceMinuteUnixS);
    stream->hold(std::move(slot));
    return stream;
}

}  // namespace meridian
