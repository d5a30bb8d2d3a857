#include "fleetclient.h"

#include <grpcpp/channel.h>

#include <functional>

#include "scheduler.h"

namespace meridian {

FleetClient::FleetClient(FleetState &state, const Clock &clock, ConnectionOptions options)
    : m_state(state), m_clock(clock), m_options(options), m_scheduler(std::make_unique<Scheduler>())
{}

FleetClient::~FleetClient()
{
    stop();
}

void FleetClient::connect(const FleetInventory &inventory)
{
    for (const InventoryAgent &agent : inventory.agents) {
        const NodeHandle node = m_state.addNode(agent.address, agent.dataCenter);
        auto channel = makeChannel(agent.address, inventory.security);
        // Seeded per agent so reconnects after a data-center outage spread out.
        const uint64_t seed = std::hash<std::string>{}(agent.address);
        m_connections.push_back(std::make_unique<AgentConnection>(
            m_state, node, std::move(channel), *m_scheduler, m_clock, m_options, seed));
    }
    for (auto &connection : m_connections)
        connection->start();
}

void FleetClient::stop()
{
    for (auto &connection : m_connections)
        connection->stop();
    m_scheduler->stop();
}

}  // namespace meridian
