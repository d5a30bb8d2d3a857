#include "agentconnection.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>

#include "core/clock.h"
#include "core/scheduler.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "wire/calldeadline.h"
#include "wire/callfailure.h"
#include "wire/protoconvert.h"

namespace meridian {

struct AgentConnection::Stub {
    std::unique_ptr<v1::NodeAgent::Stub> stub;
};

struct AgentConnection::Call {
    virtual ~Call() = default;
    virtual void start(v1::NodeAgent::Stub &stub) = 0;
    grpc::ClientContext context;
    std::shared_ptr<Call> self;  // released in OnDone: the call frees itself last
    bool streaming = false;
};

namespace {

std::string describe(const grpc::Status &status)
{
    return describeCallFailure(status);
}

class InventoryCall final : public AgentConnection::Call {
public:
    InventoryCall(AgentConnection &connection, uint64_t attempt,
                  std::function<void(uint64_t, const NodeInventory &)> arrived)
        : m_connection(connection), m_attempt(attempt), m_arrived(std::move(arrived))
    {}

    void start(v1::NodeAgent::Stub &stub) override
    {
        stub.async()->GetInventory(&context, &m_request, &m_response, [this](grpc::Status status) {
            auto keepAlive = std::move(self);  // until this callback returns
            if (status.ok())
                m_arrived(m_attempt, fromProto(m_response));
            m_connection.callFinished(this, status.ok() ? std::string() : describe(status));
        });
    }

private:
    AgentConnection &m_connection;
    uint64_t m_attempt;
    std::function<void(uint64_t, const NodeInventory &)> m_arrived;
    v1::GetInventoryRequest m_request;
    v1::NodeInventory m_response;
};

// The node's NICs as its agent reads them now: LLDP neighbours move when cables do.
class FabricCall final : public AgentConnection::Call {
public:
    FabricCall(AgentConnection &connection,
               std::function<void(const std::vector<NicInfo> &)> arrived)
        : m_connection(connection), m_arrived(std::move(arrived))
    {}

    void start(v1::NodeAgent::Stub &stub) override
    {
        stub.async()->GetFabric(&context, &m_request, &m_response, [this](grpc::Status status) {
            auto keepAlive = std::move(self);  // until this callback returns
            if (status.ok()) {
                std::vector<NicInfo> nics;
                for (const v1::Nic &n : m_response.nics())
                    nics.push_back(fromProto(n));
                m_arrived(nics);
            }
            m_connection.callFinished(this, status.ok() ? std::string() : describe(status));
        });
    }

private:
    AgentConnection &m_connection;
    std::function<void(const std::vector<NicInfo> &)> m_arrived;
    v1::GetFabricRequest m_request;
    v1::FabricReport m_response;
};

template <typename Message>
class Reader : public AgentConnection::Call, public grpc::ClientReadReactor<Message> {
public:
    explicit Reader(AgentConnection &connection) : m_connection(connection) { streaming = true; }

    void OnReadDone(bool ok) override
    {
        if (!ok)
            return;  // OnDone follows with the status
        m_connection.messageArrived();
        handle(m_message);
        this->StartRead(&m_message);
    }

    void OnDone(const grpc::Status &status) override
    {
        auto keepAlive = std::move(self);  // until this callback returns
        m_connection.callFinished(this, describe(status));
    }

protected:
    virtual void handle(const Message &message) = 0;
    void begin()
    {
        this->StartRead(&m_message);
        this->StartCall();
    }

    AgentConnection &m_connection;
    Message m_message;
};

class TelemetryReader final : public Reader<v1::TelemetryBatch> {
public:
    using Reader::Reader;
    void start(v1::NodeAgent::Stub &stub) override
    {
        m_request.set_interval_ms(m_connection.intervalMs());
        stub.async()->StreamTelemetry(&context, &m_request, this);
        begin();
    }

private:
    void handle(const v1::TelemetryBatch &batch) override
    {
        m_connection.state().recordTelemetry(m_connection.node(), fromProto(batch),
                                             m_connection.clock().nowUnixMs());
    }
    v1::StreamTelemetryRequest m_request;
};

class EventReader final : public Reader<v1::Event> {
public:
    using Reader::Reader;
    void start(v1::NodeAgent::Stub &stub) override
    {
        // Resume after the last event seen, so a reconnect loses and repeats nothing.
        m_request.set_after_sequence(m_connection.state().lastEventSequence(m_connection.node()));
        stub.async()->StreamEvents(&context, &m_request, this);
        begin();
    }

private:
    void handle(const v1::Event &event) override
    {
        m_connection.state().recordEvent(m_connection.node(), fromProto(event));
    }
    v1::StreamEventsRequest m_request;
};

}  // namespace

AgentConnection::AgentConnection(FleetState &state, NodeHandle node,
                                 std::shared_ptr<grpc::Channel> channel, Scheduler &scheduler,
                                 const Clock &clock, ConnectionOptions options, uint64_t seed)
    : m_state(state)
    , m_node(node)
    , m_channel(std::move(channel))
    , m_scheduler(scheduler)
    , m_clock(clock)
    , m_options(options)
    , m_stub(std::make_unique<Stub>(Stub{v1::NodeAgent::NewStub(m_channel)}))
    , m_backoff(seed, options.backoff)
{}

AgentConnection::~AgentConnection()
{
    stop();
}

void AgentConnection::start()
{
    connect();
}

void AgentConnection::launch(std::shared_ptr<Call> call)
{
    call->self = call;
    call->start(*m_stub->stub);
}

void AgentConnection::connect()
{
    std::shared_ptr<Call> call;
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        ++m_attempt;
        m_attemptFailed = false;
        call = std::make_shared<InventoryCall>(
            *this, m_attempt, [this](uint64_t attempt, const NodeInventory &inventory) {
                inventoryArrived(attempt, inventory);
            });
        setCallDeadline(call->context, m_options.callTimeoutMs);
        m_calls.push_back(call);
    }
    launch(std::move(call));
}

void AgentConnection::inventoryArrived(uint64_t attempt, const NodeInventory &inventory)
{
    std::vector<std::shared_ptr<Call>> streams;
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping || attempt != m_attempt || m_attemptFailed)
            return;
        m_state.setInventory(m_node, inventory, m_options.intervalMs, m_clock.nowUnixMs());
        m_inventory = inventory;
        m_lastMessageMs = m_clock.nowUnixMs();
        streams = {std::make_shared<TelemetryReader>(*this), std::make_shared<EventReader>(*this)};
        m_calls.insert(m_calls.end(), streams.begin(), streams.end());
    }
    for (auto &call : streams)
        launch(call);
    scheduleWatchdog(attempt);
    scheduleFabricRefresh(attempt);
}

void AgentConnection::scheduleFabricRefresh(uint64_t attempt)
{
    m_scheduler.after(m_options.fabricRefreshMs, [this, attempt] {
        std::shared_ptr<Call> call;
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping || attempt != m_attempt || m_attemptFailed)
                return;
            call = std::make_shared<FabricCall>(*this, [this](const std::vector<NicInfo> &nics) {
                m_state.updateNics(m_node, nics, m_clock.nowUnixMs());
            });
            setCallDeadline(call->context, m_options.callTimeoutMs);
            m_calls.push_back(call);
        }
        launch(std::move(call));
        scheduleFabricRefresh(attempt);
    });
}

void AgentConnection::messageArrived()
{
    std::lock_guard lock(m_mutex);
    m_lastMessageMs = m_clock.nowUnixMs();
    m_backoff.reset();
}

std::vector<std::shared_ptr<AgentConnection::Call>> AgentConnection::endAttemptLocked(
    const std::string &error)
{
    if (m_attemptFailed)
        return {};
    m_attemptFailed = true;
    m_inventory.reset();
    m_state.setConnection(m_node, ConnectionState::Unreachable, error);
    return m_calls;
}

void AgentConnection::callFinished(Call *call, const std::string &error)
{
    std::vector<std::shared_ptr<Call>> cancel;
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_calls, [&](const std::shared_ptr<Call> &c) { return c.get() == call; });
        // A stream ending for any reason, or a failed unary call, ends the attempt.
        if (!m_stopping && (call->streaming || !error.empty()))
            cancel = endAttemptLocked(error);
        if (m_calls.empty() && m_attemptFailed && !m_stopping) {
            const int64_t delay = m_backoff.nextDelayMs();
            m_scheduler.after(delay, [this] { connect(); });
        }
    }
    m_idle.notify_all();
    for (auto &c : cancel)
        c->context.TryCancel();
}

void AgentConnection::scheduleWatchdog(uint64_t attempt)
{
    m_scheduler.after(m_options.intervalMs, [this, attempt] {
        std::vector<std::shared_ptr<Call>> cancel;
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping || attempt != m_attempt || m_attemptFailed)
                return;
            const int64_t silent = m_clock.nowUnixMs() - m_lastMessageMs;
            if (silent > m_options.watchdogIntervals * static_cast<int64_t>(m_options.intervalMs)) {
                cancel = endAttemptLocked(
                    fmt::format("no data for {:.0f} s; reconnecting", silent / 1000.0));
            }
        }
        for (auto &c : cancel)
            c->context.TryCancel();
        if (cancel.empty())
            scheduleWatchdog(attempt);
    });
}

std::optional<NodeInventory> AgentConnection::inventory() const
{
    std::lock_guard lock(m_mutex);
    return m_inventory;
}

void AgentConnection::stop()
{
    std::vector<std::shared_ptr<Call>> cancel;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        cancel = m_calls;
    }
    for (auto &c : cancel)
        c->context.TryCancel();
    cancel.clear();
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_calls.empty(); });
}

}  // namespace meridian
