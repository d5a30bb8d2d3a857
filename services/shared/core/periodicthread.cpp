#include "periodicthread.h"

#include "clockwait.h"

namespace meridian {

namespace {
// Rounds this far behind are skipped, not run back to back.
constexpr int64_t kCatchUpRounds = 5;
}  // namespace

PeriodicThread::PeriodicThread(const Clock &clock)
    : m_clock(clock), m_wait(std::make_unique<ClockWait>(clock, m_mutex))
{}

PeriodicThread::~PeriodicThread()
{
    stop();
}

void PeriodicThread::start(std::chrono::milliseconds interval, std::function<void()> job)
{
    std::lock_guard lock(m_mutex);
    if (m_thread.joinable())
        return;
    m_stopping = false;
    m_thread = std::thread([this, intervalMs = interval.count(), job = std::move(job)] {
        std::unique_lock lock(m_mutex);
        int64_t due = m_clock.steadyMs();
        while (!m_stopping) {
            m_woken = false;
            lock.unlock();
            job();
            lock.lock();
            due += intervalMs;
            if (m_clock.steadyMs() - due > kCatchUpRounds * intervalMs)
                due = m_clock.steadyMs() + intervalMs;
            while (!m_stopping && !m_woken && m_clock.steadyMs() < due)
                m_wait->waitUntil(lock, due);
            if (m_woken)
                due = m_clock.steadyMs();
        }
    });
}

void PeriodicThread::stop()
{
    std::thread thread;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        thread = std::move(m_thread);
    }
    m_wait->notify();
    if (thread.joinable())
        thread.join();
}

void PeriodicThread::wake()
{
    {
        std::lock_guard lock(m_mutex);
        m_woken = true;
    }
    m_wait->notify();
}

}  // namespace meridian
