// Waiting for a moment on a Clock, for a thread that also waits for other news under
// its owner's mutex: real time on the system clock; on a test's ManualClock, until the
// test moves the time there. Scheduler and PeriodicThread wait with it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "clock.h"

namespace meridian {

class ClockWait final : private ClockWaiter {
public:
    // `mutex` is the one the owner holds while it waits. Neither the constructor nor the
    // destructor may be called with it held.
    ClockWait(const Clock &clock, std::mutex &mutex);
    ~ClockWait();
    ClockWait(const ClockWait &) = delete;
    ClockWait &operator=(const ClockWait &) = delete;

    int64_t nowMs() const { return m_clock.steadyMs(); }
    // With `lock` held: returns when the clock reaches dueMs (steady), on notify(), or
    // spuriously. The caller checks what it waits for and loops.
    void waitUntil(std::unique_lock<std::mutex> &lock, int64_t dueMs);
    // With `lock` held: returns on notify() or spuriously.
    void wait(std::unique_lock<std::mutex> &lock);
    // Wakes the waiting thread; call after changing what it waits for, under or after
    // the owner's mutex.
    void notify();

private:
    void clockMoved() override;

    const Clock &m_clock;
    std::mutex &m_mutex;
    std::condition_variable m_changed;
};

}  // namespace meridian
