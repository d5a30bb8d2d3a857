#include "periodicthread.h"

namespace meridian {

void PeriodicThread::start(std::chrono::milliseconds interval, std::function<void()> job)
{
    std::lock_guard lock(m_mutex);
    if (m_thread.joinable())
        return;
    m_stopping = false;
    m_thread = std::thread([this, interval, job = std::move(job)] {
        std::unique_lock lock(m_mutex);
        while (!m_stopping) {
            m_woken = false;
            lock.unlock();
            job();
            lock.lock();
            m_changed.wait_for(lock, interval, [this] { return m_stopping || m_woken; });
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
    m_changed.notify_all();
    if (thread.joinable())
        thread.join();
}

void PeriodicThread::wake()
{
    {
        std::lock_guard lock(m_mutex);
        m_woken = true;
    }
    m_changed.notify_all();
}

}  // namespace meridian
