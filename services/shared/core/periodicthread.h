// A job run at once and then every interval on a thread of its own, until stop(): the
// loop behind the scaling controller's passes, the console's view of a headless one and
// the store polls. wake() runs the next round now rather than at the interval.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace meridian {

class PeriodicThread {
public:
    PeriodicThread() = default;
    ~PeriodicThread() { stop(); }
    PeriodicThread(const PeriodicThread &) = delete;
    PeriodicThread &operator=(const PeriodicThread &) = delete;

    // Does nothing if it runs already.
    void start(std::chrono::milliseconds interval, std::function<void()> job);
    // Waits for the round under way; no round starts after it.
    void stop();
    void wake();

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_stopping = false;
    bool m_woken = false;
    std::thread m_thread;
};

}  // namespace meridian
