// One thread that runs small tasks at given times: telemetry ticks for every stream,
// late answers of a slow simulated agent, periodic checks. Tasks must be short and
// never block; they run in due order.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace meridian {

class Scheduler {
public:
    using Task = std::function<void()>;

    Scheduler();
    ~Scheduler();
    Scheduler(const Scheduler &) = delete;
    Scheduler &operator=(const Scheduler &) = delete;

    // dueSteadyMs on the steady clock (nowMs()).
    void at(int64_t dueSteadyMs, Task task);
    void after(int64_t delayMs, Task task) { at(nowMs() + delayMs, std::move(task)); }
    static int64_t nowMs();

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

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> m_queue;
    uint64_t m_order = 0;
    bool m_stopping = false;
    std::thread m_thread;
};

}  // namespace meridian
