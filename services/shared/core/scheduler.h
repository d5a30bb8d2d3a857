// One thread that runs small tasks at given times on a Clock: telemetry ticks for every
// stream, late answers of a slow simulated agent, reconnects, periodic checks. Tasks
// must be short and never block; they run in due order. On a test's ManualClock a task
// runs when the test moves the time past it, never by itself.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "clock.h"

namespace meridian {

class ClockWait;

class Scheduler {
public:
    using Task = std::function<void()>;

    explicit Scheduler(const Clock &clock = SystemClock::instance());
    ~Scheduler();
    Scheduler(const Scheduler &) = delete;
    Scheduler &operator=(const Scheduler &) = delete;

    // dueMs on the clock's steady time (nowMs()).
    void at(int64_t dueMs, Task task);
    void after(int64_t delayMs, Task task) { at(nowMs() + delayMs, std::move(task)); }
    int64_t nowMs() const { return m_clock.steadyMs(); }
    const Clock &clock() const { return m_clock; }

    // Runs nothing more; pending tasks are dropped.
    void stop();

private:
    struct Entry {
        int64_t due;
        uint64_t order;
        Task task;
        bool operator>(const Entry &other) const
        {
            return due != other.due ? due > other.due : order > other.order;
        }
    };
    void run();

    const Clock &m_clock;
    std::mutex m_mutex;
    std::unique_ptr<ClockWait> m_wait;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> m_queue;
    uint64_t m_order = 0;
    bool m_stopping = false;
    std::thread m_thread;
};

}  // namespace meridian
