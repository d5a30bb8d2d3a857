// Backfill of the console's history from the agents' own ledgers: for each agent, the
// minutes since the newest one already stored (that one again: it may have been
// partial). With a capacity pool in the inventory, its leases are recorded and the
// rented nodes' agents are synced too. Afterwards the history drops what is past its
// retention. Used by `meridian sync` (cron) and by the console on connect.
#pragma once

#include <string>
#include <vector>

#include "core/clock.h"
#include "inventoryfile.h"

namespace meridian {

class AgentLinks;
class HistoryStore;

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
