#include "clockwait.h"

#include <algorithm>
#include <chrono>

namespace meridian {

namespace {
// A bound on each real wait, so nothing can sleep through a moved clock for long.
constexpr int64_t kLongestWaitMs = 1000;
}  // namespace

ClockWait::ClockWait(const Clock &clock, std::mutex &mutex) : m_clock(clock), m_mutex(mutex)
{
    m_clock.addWaiter(this);
}

ClockWait::~ClockWait()
{
    m_clock.removeWaiter(this);
}

void ClockWait::waitUntil(std::unique_lock<std::mutex> &lock, int64_t dueMs)
{
    const uint64_t moves = m_clock.moves();  // before the time is read
    const int64_t left = dueMs - m_clock.steadyMs();
    if (left <= 0)
        return;
    m_clock.waitStarted(this, moves);
    m_changed.wait_for(lock, std::chrono::milliseconds(std::min(left, kLongestWaitMs)));
    m_clock.waitEnded(this);
}

void ClockWait::wait(std::unique_lock<std::mutex> &lock)
{
    m_clock.waitStarted(this, m_clock.moves());
    m_changed.wait(lock);
    m_clock.waitEnded(this);
}

void ClockWait::notify()
{
    m_clock.waitEnded(this);  // news: whatever it waits for may be due now
    m_changed.notify_all();
}

void ClockWait::clockMoved()
{
    // Taking the owner's mutex first means the waiter is either still before its check
    // of the time (and will see the new one) or already waiting (and is woken).
    {
        std::lock_guard lock(m_mutex);
    }
    m_changed.notify_all();
}

}  // namespace meridian
