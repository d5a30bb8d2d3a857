#include "callwatch.h"

#include <algorithm>
#include <climits>

#include "clockwait.h"

namespace meridian {

namespace {

constexpr int64_t kAgainMs = 100;

}  // namespace

CallWatch::CallWatch(const Clock &clock)
    : m_clock(clock), m_wait(std::make_unique<ClockWait>(clock, m_mutex))
{
    m_thread = std::thread([this] { run(); });
}

CallWatch::~CallWatch()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wait->notify();
    m_thread.join();
}

CallWatch::Watched CallWatch::watch(int timeoutMs, std::function<void()> abort)
{
    uint64_t id = 0;
    {
        std::lock_guard lock(m_mutex);
        id = m_nextId++;
        m_calls[id] = {m_clock.steadyMs() + std::max(0, timeoutMs), std::move(abort), false};
    }
    m_wait->notify();
    return {*this, id};
}

void CallWatch::abortAll()
{
    {
        std::lock_guard lock(m_mutex);
        m_abortingAll = true;
    }
    m_wait->notify();
}

void CallWatch::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        const int64_t now = m_clock.steadyMs();
        int64_t next = INT64_MAX;
        for (auto &[id, call] : m_calls) {
            if (m_abortingAll || now >= call.deadlineMs) {
                // Under the lock: an unwatching caller waits for it, and the abort (a
                // socket shutdown) never blocks.
                call.abort();
                call.aborted = true;
                call.deadlineMs = now + kAgainMs;
            }
            next = std::min(next, call.deadlineMs);
        }
        if (next == INT64_MAX)
            m_wait->wait(lock);
        else
            m_wait->waitUntil(lock, next);
    }
}

CallWatch::Watched::Watched(Watched &&other) noexcept : m_watch(other.m_watch), m_id(other.m_id)
{
    other.m_watch = nullptr;
}

CallWatch::Watched::~Watched()
{
    if (!m_watch)
        return;
    std::lock_guard lock(m_watch->m_mutex);
    m_watch->m_calls.erase(m_id);
}

bool CallWatch::Watched::aborted() const
{
    if (!m_watch)
        return false;
    std::lock_guard lock(m_watch->m_mutex);
    const auto it = m_watch->m_calls.find(m_id);
    return it != m_watch->m_calls.end() && it->second.aborted;
}

}  // namespace meridian
