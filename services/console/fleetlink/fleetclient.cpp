#include "fleetclient.h"

#include <grpcpp/channel.h>

#include <functional>

#include "core/scheduler.h"

namespace meridian {

FleetClient::FleetClient(FleetState &state, const Clock &clock, ConnectionOptions options)
    : m_state(state)
    , m_clock(clock)
    , m_options(options)
    , m_scheduler(std::make_unique<Scheduler>(clock))
{}

FleetClient::~FleetClient()
{
    stop();
}

void FleetClient::connect(const FleetInventory &inventory)
{
    std::vector<AgentConnection *> added;
    std::unique_lock lock(m_mutex);
    for (const InventoryAgent &agent : inventory.agents) {
        if (m_connections.count(agent.address))
            continue;
        const NodeHandle node = m_state.addNode(agent.address, agent.dataCenter, agent.nodeHint);
        auto channel = makeChannel(agent.address, inventory.security);
        // Seeded per agent so reconnects after a data-center outage spread out.
        const uint64_t seed = std::hash<std::string>{}(agent.address);
        auto connection = std::make_unique<AgentConnection>(m_state, node, std::move(channel),
                                                            *m_scheduler, m_clock, m_options, seed);
        added.push_back(connection.get());
        m_connections.emplace(agent.address, std::move(connection));
    }
    lock.unlock();
    for (AgentConnection *connection : added)
        connection->start();
}

void FleetClient::disconnect(const std::string &address)
{
    AgentConnection *leaving = nullptr;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_connections.find(address);
        if (it == m_connections.end())
            return;
        leaving = it->second.get();
        // Kept until the scheduler stops: a reconnect it already holds still names it.
        m_stopped.push_back(std::move(it->second));
        m_connections.erase(it);
    }
    leaving->stop();  // unlocked: it waits for the calls, whose callbacks never lock this
    // Let go on purpose (its lease released): its last readings are history, and a node
    // still marked connected would be waited on, and its replicas counted, for nothing.
    leaving->state().setConnection(leaving->node(), ConnectionState::Unreachable,
                                   "let go: no longer followed");
}

void FleetClient::stop()
{
    std::vector<AgentConnection *> connections;
    {
        std::lock_guard lock(m_mutex);
        for (auto &[address, connection] : m_connections)
            connections.push_back(connection.get());
    }
    for (AgentConnection *connection : connections)
        connection->stop();
    m_scheduler->stop();
}

size_t FleetClient::agentCount() const
{
    std::lock_guard lock(m_mutex);
    return m_connections.size();
}

std::shared_ptr<grpc::Channel> FleetClient::channelTo(const std::string &address) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_connections.find(address);
    return it == m_connections.end() ? nullptr : it->second->channel();
}

std::optional<NodeInventory> FleetClient::inventoryOf(const std::string &address) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_connections.find(address);
    return it == m_connections.end() ? std::nullopt : it->second->inventory();
}

}  // namespace meridian
