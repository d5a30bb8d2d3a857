// Connects the console to every agent of an inventory and keeps FleetState current.
// One AgentConnection per agent; a dead or slow agent only affects its own rows.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agentconnection.h"
#include "inventoryfile.h"

namespace meridian {

class FleetClient {
public:
    FleetClient(FleetState &state, const Clock &clock, ConnectionOptions options = {});
    ~FleetClient();

    // Adds the inventory's agents to FleetState and starts connecting to them; agents
    // already connected (same address) are left as they are. May be called again.
    void connect(const FleetInventory &inventory);
    // Stops talking to one agent (a rented node given back); its rows go stale.
    void disconnect(const std::string &address);
    // Cancels every call and returns when all have finished.
    void stop();

    size_t agentCount() const { return m_connections.size(); }

private:
    FleetState &m_state;
    const Clock &m_clock;
    ConnectionOptions m_options;
    std::unique_ptr<Scheduler> m_scheduler;
    std::map<std::string, std::unique_ptr<AgentConnection>> m_connections;  // by address
    std::vector<std::unique_ptr<AgentConnection>> m_stopped;                // disconnected
};

}  // namespace meridian
