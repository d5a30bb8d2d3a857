// A job run at once and then every interval on a thread of its own, until stop(): for
// jobs too long for the shared Scheduler (the scaling controller's passes, the
// console's view of a headless controller, the store polls, the usage backfill, the
// agent's sampling). The interval is measured on the injected Clock, so on a test's
// ManualClock a round runs when the test moves the time, never by itself. Rounds keep
// their cadence; one that falls far behind (a suspended machine) starts afresh.
// wake() runs the next round now rather than at the interval.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "clock.h"

namespace meridian {

class ClockWait;

class PeriodicThread {
public:
    explicit PeriodicThread(const Clock &clock = SystemClock::instance());
    ~PeriodicThread();
    PeriodicThread(const PeriodicThread &) = delete;
    PeriodicThread &operator=(const PeriodicThread &) = delete;

    // Does nothing if it runs already.
    void start(std::chrono::milliseconds interval, std::function<void()> job);
    // Waits for the round under way; no round starts after it.
    void stop();
    void wake();

private:
    const Clock &m_clock;
    std::mutex m_mutex;
    std::unique_ptr<ClockWait> m_wait;
    bool m_stopping = false;
    bool m_woken = false;
    std::thread m_thread;
};

}  // namespace meridian
