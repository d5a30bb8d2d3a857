#include "scheduler.h"

#include <chrono>

namespace meridian {

Scheduler::Scheduler() : m_thread([this] { run(); })
{}

Scheduler::~Scheduler()
{
    stop();
}

int64_t Scheduler::nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

void Scheduler::at(int64_t dueSteadyMs, Task task)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        m_queue.push(Entry{dueSteadyMs, m_order++, std::move(task)});
    }
    m_wake.notify_one();
}

void Scheduler::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping && !m_thread.joinable())
            return;
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
        m_thread.join();
}

void Scheduler::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        if (m_queue.empty()) {
            m_wake.wait(lock);
            continue;
        }
        const int64_t now = nowMs();
        if (m_queue.top().due > now) {
            m_wake.wait_for(lock, std::chrono::milliseconds(m_queue.top().due - now));
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
