// Keeps the console's history file filled while it runs: a background thread backfills
// from every agent at start and then every few minutes, so the history has no holes
// from the times the console was closed. Never touches the UI thread.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "inventoryfile.h"
#include "usagesync.h"

namespace meridian {

class HistoryStore;

class UsageBackfill {
public:
    UsageBackfill(FleetInventory inventory, HistoryStore &store, int periodSeconds = 300);
    ~UsageBackfill();

    SyncReport lastReport() const;

private:
    void run();

    FleetInventory m_inventory;
    HistoryStore &m_store;
    int m_periodSeconds;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    SyncReport m_last;
    std::thread m_thread;
};

}  // namespace meridian
