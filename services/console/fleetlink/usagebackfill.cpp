#include "usagebackfill.h"

#include <chrono>

namespace meridian {

UsageBackfill::UsageBackfill(FleetInventory inventory, HistoryStore &store, int periodSeconds)
    : m_inventory(std::move(inventory)), m_store(store), m_periodSeconds(periodSeconds)
{
    m_thread = std::thread([this] { run(); });
}

UsageBackfill::~UsageBackfill()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

SyncReport UsageBackfill::lastReport() const
{
    std::lock_guard lock(m_mutex);
    return m_last;
}

void UsageBackfill::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        lock.unlock();
        // Short calls: a stop waits at most one call timeout for a dead agent.
        SyncReport report = syncUsage(m_inventory, m_store, 8, 5000);
        lock.lock();
        m_last = std::move(report);
        m_wake.wait_for(lock, std::chrono::seconds(m_periodSeconds), [this] { return m_stopping; });
    }
}

}  // namespace meridian
