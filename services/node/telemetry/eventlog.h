// The agent's event ring. Sequences increase strictly, across agent restarts too when
// an EventStore persists them. Subscribers get the backlog after a sequence and then
// every new event, each exactly once and in order. Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "core/nodetypes.h"

namespace meridian {

// Where events survive a restart (the agent's data directory).
class EventStore {
public:
    virtual ~EventStore() = default;
    virtual void append(const Event &event) = 0;
    virtual std::vector<Event> loadRecent(size_t count) = 0;
};

class EventLog {
public:
    using Listener = std::function<void(const Event &)>;

    explicit EventLog(size_t capacity = 10'000, EventStore *store = nullptr);

    // Assigns the next sequence, stores and publishes it; returns the sequence.
    uint64_t append(Event event);

    uint64_t lastSequence() const;

    // Atomically: the events after `afterSequence` (led by a Gap event when some
    // already fell out of the ring) and a registration for every later one. The
    // listener runs on the appending thread with the log's lock held: it must only
    // queue the event.
    int subscribe(uint64_t afterSequence, Listener listener, std::vector<Event> *backlog);
    void unsubscribe(int id);

    std::vector<Event> eventsAfter(uint64_t afterSequence) const;

private:
    std::vector<Event> eventsAfterLocked(uint64_t afterSequence) const;

    mutable std::mutex m_mutex;
    size_t m_capacity;
    EventStore *m_store;
    std::deque<Event> m_ring;
    uint64_t m_lastSequence = 0;
    int m_nextListenerId = 1;
    std::map<int, Listener> m_listeners;
};

}  // namespace meridian
