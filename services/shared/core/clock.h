// Time is injected: real components get SystemClock, tests and virtual-time
// evaluations get ManualClock and never sleep. Everything that waits for time to pass
// (Scheduler, PeriodicThread) waits on its Clock, so a test that moves a ManualClock
// runs what falls due at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace meridian {

// Something waiting on a clock; a ManualClock calls it whenever a test moves the time.
class ClockWaiter {
public:
    virtual void clockMoved() = 0;

protected:
    ~ClockWaiter() = default;
};

class Clock {
public:
    virtual ~Clock() = default;
    virtual int64_t nowUnixMs() const = 0;
    // For intervals and due times: never goes back when the wall clock is set. The
    // system's steady clock; a manual clock's own time.
    virtual int64_t steadyMs() const = 0;
    virtual void addWaiter(ClockWaiter *) const {}
    virtual void removeWaiter(ClockWaiter *) const {}
};

class SystemClock final : public Clock {
public:
    int64_t nowUnixMs() const override;
    int64_t steadyMs() const override;
    static SystemClock &instance();
};

// Thread-safe: tests advance it from the test thread while servers read it.
class ManualClock final : public Clock {
public:
    explicit ManualClock(int64_t startUnixMs = 1'700'000'000'000) : m_nowMs(startUnixMs) {}
    int64_t nowUnixMs() const override { return m_nowMs.load(); }
    int64_t steadyMs() const override { return m_nowMs.load(); }
    void advanceMs(int64_t ms);
    void setUnixMs(int64_t ms);
    void addWaiter(ClockWaiter *waiter) const override;
    void removeWaiter(ClockWaiter *waiter) const override;

private:
    void moved();

    std::atomic<int64_t> m_nowMs;
    mutable std::mutex m_mutex;
    mutable std::vector<ClockWaiter *> m_waiters;
};

}  // namespace meridian
