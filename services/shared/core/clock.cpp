#include "clock.h"

#include <algorithm>
#include <chrono>

namespace meridian {

int64_t SystemClock::nowUnixMs() const
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t SystemClock::steadyMs() const
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

SystemClock &SystemClock::instance()
{
    static SystemClock clock;
    return clock;
}

void ManualClock::advanceMs(int64_t ms)
{
    m_nowMs += ms;
    moved();
}

void ManualClock::setUnixMs(int64_t ms)
{
    m_nowMs = ms;
    moved();
}

uint64_t ManualClock::moves() const
{
    std::lock_guard lock(m_idleMutex);
    return m_moves;
}

void ManualClock::waitStarted(const void *waiter, uint64_t movesSeen) const
{
    std::lock_guard lock(m_idleMutex);
    if (movesSeen != m_moves)
        return;  // it may have read the time from before the move: not idle yet
    m_idle.insert(waiter);
    m_idleChanged.notify_all();
}

void ManualClock::waitEnded(const void *waiter) const
{
    std::lock_guard lock(m_idleMutex);
    m_idle.erase(waiter);
}

bool ManualClock::waitUntilIdle(size_t threads, std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(m_idleMutex);
    return m_idleChanged.wait_for(lock, timeout, [&] { return m_idle.size() >= threads; });
}

void ManualClock::addWaiter(ClockWaiter *waiter) const
{
    std::lock_guard lock(m_mutex);
    m_waiters.push_back(waiter);
}

void ManualClock::removeWaiter(ClockWaiter *waiter) const
{
    std::lock_guard lock(m_mutex);
    std::erase(m_waiters, waiter);
}

void ManualClock::moved()
{
    {
        // Every wait under way began before this time: none of them counts as idle now.
        std::lock_guard lock(m_idleMutex);
        ++m_moves;
        m_idle.clear();
    }
    // Under the lock, so a waiter that unregisters is not called after it has gone.
    std::lock_guard lock(m_mutex);
    for (ClockWaiter *waiter : m_waiters)
        waiter->clockMoved();
}

}  // namespace meridian
