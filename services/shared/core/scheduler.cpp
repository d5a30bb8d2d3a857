#include "scheduler.h"

#include "clockwait.h"

namespace meridian {

Scheduler::Scheduler(const Clock &clock)
    : m_clock(clock)
    , m_wait(std::make_unique<ClockWait>(clock, m_mutex))
    , m_thread([this] { run(); })
{}

Scheduler::~Scheduler()
{
    stop();
}

void Scheduler::at(int64_t dueMs, Task task)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        m_queue.push(Entry{dueMs, m_order++, std::move(task)});
    }
    m_wait->notify();
}

void Scheduler::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping && !m_thread.joinable())
            return;
        m_stopping = true;
    }
    m_wait->notify();
    if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
        m_thread.join();
}

void Scheduler::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        if (m_queue.empty()) {
            m_wait->wait(lock);
            continue;
        }
        if (m_queue.top().due > m_clock.steadyMs()) {
            m_wait->waitUntil(lock, m_queue.top().due);
            continue;
        }
        Task task = std::move(const_cast<Entry &>(m_queue.top()).task);
        m_queue.pop();
        lock.unlock();
        task();
        lock.lock();
    }
}

}  // namespace meridian
