// The console's link to one agent: inventory, then a telemetry stream and an event
// stream (resumed after the last sequence seen), all written into FleetState. Any
// failure ends the attempt and a new one starts after a jittered backoff; a watchdog
// cancels streams that go silent (a hung agent). Callbacks only decode and store.
// Thread-safe; stop() returns only when every call has finished.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "fleet/fleetstate.h"
#include "wire/backoff.h"

namespace grpc {
class Channel;
class ClientContext;
}  // namespace grpc

namespace meridian {

class Scheduler;
class Clock;

struct ConnectionOptions {
    uint32_t intervalMs = 1000;
    int watchdogIntervals = 5;  // silence for this many intervals cancels the streams
    int64_t callTimeoutMs = 5000;
    int64_t fabricRefreshMs = 60'000;  // the NICs' LLDP neighbours, read again
    BackoffPolicy backoff;
};

class AgentConnection {
public:
    AgentConnection(FleetState &state, NodeHandle node, std::shared_ptr<grpc::Channel> channel,
                    Scheduler &scheduler, const Clock &clock, ConnectionOptions options,
                    uint64_t seed);
    ~AgentConnection();

    void start();
    void stop();

    std::shared_ptr<grpc::Channel> channel() const { return m_channel; }
    // What the agent sent on the connection now live; nullopt while it is not.
    std::optional<NodeInventory> inventory() const;

    struct Call;  // one RPC in flight; owned jointly by itself and by this connection

    // Called by the calls (gRPC threads).
    void messageArrived();
    void callFinished(Call *call, const std::string &error);
    FleetState &state() { return m_state; }
    NodeHandle node() const { return m_node; }
    const Clock &clock() const { return m_clock; }
    uint32_t intervalMs() const { return m_options.intervalMs; }

private:
    void connect();
    void inventoryArrived(uint64_t attempt, const NodeInventory &inventory);
    void scheduleWatchdog(uint64_t attempt);
    void scheduleFabricRefresh(uint64_t attempt);
    // Marks the attempt failed; returns the calls to cancel (outside the lock: a cancel
    // can run their OnDone inline).
    std::vector<std::shared_ptr<Call>> endAttemptLocked(const std::string &error);
    void launch(std::shared_ptr<Call> call);

    FleetState &m_state;
    NodeHandle m_node;
    std::shared_ptr<grpc::Channel> m_channel;
    Scheduler &m_scheduler;
    const Clock &m_clock;
    ConnectionOptions m_options;
    struct Stub;  // the generated stub, kept out of this header
    std::unique_ptr<Stub> m_stub;

    mutable std::mutex m_mutex;
    std::condition_variable m_idle;
    std::optional<NodeInventory> m_inventory;  // of the live attempt
    Backoff m_backoff;
    uint64_t m_attempt = 0;
    std::vector<std::shared_ptr<Call>> m_calls;  // in flight; stop() waits for none
    bool m_attemptFailed = false;
    bool m_stopping = false;
    int64_t m_lastMessageMs = 0;
};

}  // namespace meridian
