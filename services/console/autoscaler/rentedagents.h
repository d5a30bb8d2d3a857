// The agents of the nodes the controller rents, followed as the pool's leases come and go:
// their telemetry (and their replicas' signals) in a fleet state of the controller's own,
// apart from the console's fleet of local nodes.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "fleet/fleetstate.h"
#include "fleetlink/agentconnection.h"
#include "fleetlink/leasesync.h"
#include "wire/security.h"

namespace meridian {

class FleetClient;

class RentedAgents {
public:
    RentedAgents(ClientSecurity security, const Clock &clock, ConnectionOptions options);
    ~RentedAgents();

    // Connects to the agents of `leased` not followed yet, and lets go of those gone.
    void follow(const std::vector<LeasedAgent> &leased);
    void stop();
    const FleetState &fleet() const { return *m_fleet; }

private:
    ClientSecurity m_security;
    std::unique_ptr<FleetState> m_fleet;
    std::unique_ptr<FleetClient> m_client;
    std::set<std::string> m_followed;  // their addresses
};

}  // namespace meridian
