#include "usagebackfill.h"

namespace meridian {

UsageBackfill::UsageBackfill(FleetInventory inventory, HistoryStore &store, int periodSeconds,
                             const Clock &clock, const AgentLinks *links)
    : m_inventory(std::move(inventory))
    , m_store(store)
    , m_clock(clock)
    , m_links(links)
    , m_rounds(clock)
{
    m_rounds.start(std::chrono::seconds(periodSeconds), [this] {
        // Short calls: a stop waits at most one call timeout for a dead agent.
        SyncReport report = syncUsage(m_inventory, m_store, 8, 5000, m_clock, m_links);
        std::lock_guard lock(m_mutex);
        m_last = std::move(report);
    });
}

UsageBackfill::~UsageBackfill()
{
    m_rounds.stop();
}

SyncReport UsageBackfill::lastReport() const
{
    std::lock_guard lock(m_mutex);
    return m_last;
}

}  // namespace meridian
