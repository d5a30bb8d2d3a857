#include "eventlog.h"

#include <fmt/format.h>

namespace meridian {

EventLog::EventLog(size_t capacity, EventStore *store) : m_capacity(capacity), m_store(store)
{
    if (m_store) {
        for (Event &event : m_store->loadRecent(capacity)) {
            m_lastSequence = std::max(m_lastSequence, event.sequence);
            m_ring.push_back(std::move(event));
        }
    }
}

uint64_t EventLog::append(Event event)
{
    std::lock_guard lock(m_mutex);
    event.sequence = ++m_lastSequence;
    if (m_store)
        m_store->append(event);
    m_ring.push_back(event);
    while (m_ring.size() > m_capacity)
        m_ring.pop_front();
    for (const auto &[id, listener] : m_listeners)
        listener(event);
    return event.sequence;
}

uint64_t EventLog::lastSequence() const
{
    std::lock_guard lock(m_mutex);
    return m_lastSequence;
}

std::vector<Event> EventLog::eventsAfterLocked(uint64_t afterSequence) const
{
    std::vector<Event> out;
    if (!m_ring.empty() && afterSequence > 0 && afterSequence + 1 < m_ring.front().sequence) {
        Event gap;
        gap.kind = EventKind::Gap;
        gap.severity = Severity::Warning;
        gap.sequence = m_ring.front().sequence - 1;
        gap.timeUnixMs = m_ring.front().timeUnixMs;
        gap.gapFirst = afterSequence + 1;
        gap.gapLast = m_ring.front().sequence - 1;
        gap.message = fmt::format("events {}..{} are no longer held by the agent", *gap.gapFirst,
                                  *gap.gapLast);
        out.push_back(std::move(gap));
    }
    for (const Event &event : m_ring) {
        if (event.sequence > afterSequence)
            out.push_back(event);
    }
    return out;
}

std::vector<Event> EventLog::eventsAfter(uint64_t afterSequence) const
{
    std::lock_guard lock(m_mutex);
    return eventsAfterLocked(afterSequence);
}

int EventLog::subscribe(uint64_t afterSequence, Listener listener, std::vector<Event> *backlog)
{
    std::lock_guard lock(m_mutex);
    if (backlog)
        *backlog = eventsAfterLocked(afterSequence);
    const int id = m_nextListenerId++;
    m_listeners.emplace(id, std::move(listener));
    return id;
}

void EventLog::unsubscribe(int id)
{
    std::lock_guard lock(m_mutex);
    m_listeners.erase(id);
}

}  // namespace meridian
