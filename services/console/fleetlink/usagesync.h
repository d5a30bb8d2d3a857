// Backfill of the console's history from the agents' own ledgers: for each agent, the
// minutes since the newest one already stored (that one again: it may have been
// partial). With a capacity pool in the inventory, its leases are recorded and the
// rented nodes' agents are synced too. Afterwards the history drops what is past its
// retention. Used by `meridian sync` (cron) and by the console on connect.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/nodetypes.h"
#include "inventoryfile.h"

namespace meridian {

class HistoryStore;

// What a running console already holds for its agents. A sync in the console talks to an
// agent over the connection it has open and takes the inventory it was sent there,
// instead of opening a second channel and asking again; `meridian sync` has none.
class AgentLinks {
public:
    // The open channel to `address`, or null when there is none.
    virtual std::shared_ptr<grpc::Channel> channelTo(const std::string &address) const = 0;
    // The inventory `address` sent on its live connection; nullopt while there is none.
    virtual std::optional<NodeInventory> inventoryOf(const std::string &address) const = 0;

protected:
    ~AgentLinks() = default;
};

struct SyncReport {
    int agents = 0;
    int synced = 0;
    int64_t minutes = 0;
    int leases = 0;
    std::vector<std::string> failures;  // "address: why", one per agent that failed
};

// `clock` dates the retention pass that ends the sync; `links`, when given, must outlive
// the call.
SyncReport syncUsage(const FleetInventory &inventory, HistoryStore &store, int parallel = 8,
                     int64_t callTimeoutMs = 30'000, const Clock &clock = SystemClock::instance(),
                     const AgentLinks *links = nullptr);

}  // namespace meridian
