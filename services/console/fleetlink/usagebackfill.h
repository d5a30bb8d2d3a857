// Keeps the console's history file filled while it runs: a background thread backfills
// from every agent at start and then every few minutes (on the injected Clock), so the
// history has no holes from the times the console was closed. Never touches the UI
// thread. Given the console's open agent links, it talks to the agents over them.
#pragma once

#include <mutex>
#include <string>

#include "core/clock.h"
#include "core/periodicthread.h"
#include "inventoryfile.h"
#include "usagesync.h"

namespace meridian {

class HistoryStore;

class UsageBackfill {
public:
    // `links` (may be null) must outlive it.
    UsageBackfill(FleetInventory inventory, HistoryStore &store, int periodSeconds = 300,
                  const Clock &clock = SystemClock::instance(), const AgentLinks *links = nullptr);
    ~UsageBackfill();

    SyncReport lastReport() const;

private:
    FleetInventory m_inventory;
    HistoryStore &m_store;
    const Clock &m_clock;
    const AgentLinks *m_links;
    mutable std::mutex m_mutex;
    SyncReport m_last;
    PeriodicThread m_rounds;
};

}  // namespace meridian
