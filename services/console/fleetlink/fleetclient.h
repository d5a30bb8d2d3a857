// Connects the console to every agent of an inventory and keeps FleetState current.
// One AgentConnection per agent; a dead or slow agent only affects its own rows. Its
// links serve the usage backfill too, so the console has one channel per agent.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agentconnection.h"
#include "agentlinks.h"
#include "inventoryfile.h"

namespace meridian {

class FleetClient final : public AgentLinks {
public:
    FleetClient(FleetState &state, const Clock &clock, ConnectionOptions options = {});
    ~FleetClient();

    // Adds the inventory's agents to FleetState and starts connecting to them; agents
    // already connected (same address) are left as they are. May be called again.
    void connect(const FleetInventory &inventory);
    // Stops talking to one agent (a rented node given back): its node is marked unreachable,
    // "let go", its rows kept as history.
    void disconnect(const std::string &address);
    // Cancels every call and returns when all have finished.
    void stop();

    size_t agentCount() const;

    // From any thread.
    std::shared_ptr<grpc::Channel> channelTo(const std::string &address) const override;
    std::optional<NodeInventory> inventoryOf(const std::string &address) const override;

private:
    FleetState &m_state;
    const Clock &m_clock;
    ConnectionOptions m_options;
    std::unique_ptr<Scheduler> m_scheduler;
    mutable std::mutex m_mutex;  // the maps; changed on the caller's thread, read by others
    std::map<std::string, std::unique_ptr<AgentConnection>> m_connections;  // by address
    std::vector<std::unique_ptr<AgentConnection>> m_stopped;                // disconnected
};

}  // namespace meridian
