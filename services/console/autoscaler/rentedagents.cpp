#include "rentedagents.h"

#include "fleetlink/fleetclient.h"

namespace meridian {

RentedAgents::RentedAgents(ClientSecurity security, const Clock &clock, ConnectionOptions options)
    : m_security(std::move(security))
    , m_fleet(std::make_unique<FleetState>())
    , m_client(std::make_unique<FleetClient>(*m_fleet, clock, options))
{}

RentedAgents::~RentedAgents() = default;

void RentedAgents::follow(const std::vector<LeasedAgent> &leased)
{
    std::set<std::string> wanted;
    FleetInventory fresh;
    fresh.security = m_security;
    for (const LeasedAgent &agent : leased) {
        wanted.insert(agent.address);
        if (!m_followed.count(agent.address))
            fresh.agents.push_back({agent.nodeId, agent.address, "cloud"});
    }
    if (!fresh.agents.empty())
        m_client->connect(fresh);
    for (const std::string &address : m_followed) {
        if (!wanted.count(address))
            m_client->disconnect(address);
    }
    m_followed = std::move(wanted);
}

void RentedAgents::stop()
{
    m_client->stop();
}

}  // namespace meridian
