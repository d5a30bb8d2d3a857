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
    // Under the lock, so a waiter that unregisters is not called after it has gone.
    std::lock_guard lock(m_mutex);
    for (ClockWaiter *waiter : m_waiters)
        waiter->clockMoved();
}

}  // namespace meridian
