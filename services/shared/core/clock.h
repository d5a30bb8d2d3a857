// Time is injected: real components get SystemClock, tests and virtual-time
// evaluations get ManualClock and never sleep. Everything that waits for time to pass
// (Scheduler, PeriodicThread) waits on its Clock, so a test that moves a ManualClock
// runs what falls due at once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
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
    // For a ManualClock's count of idle threads (waitUntilIdle), told by ClockWait: how
    // often the time was moved; a waiter about to wait, having read moves() before it
    // looked at the time and at its work (it counts only if the time has not moved since);
    // its wait's end; and news for it that is not the time (new work, a wake).
    virtual uint64_t moves() const { return 0; }
    virtual void waitStarted(const void * /*waiter*/, uint64_t /*movesSeen*/) const {}
    virtual void waitEnded(const void * /*waiter*/) const {}
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
    uint64_t moves() const override;
    void waitStarted(const void *waiter, uint64_t movesSeen) const override;
    void waitEnded(const void *waiter) const override;

    // Until `threads` threads (Scheduler, PeriodicThread) wait on this clock, each having
    // looked at the time since it last moved: whatever the time made due has run, and
    // nothing more will until the clock moves again. False after `timeout`. How a test
    // says "nothing else happens" without sleeping on it.
    bool waitUntilIdle(size_t threads,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

private:
    void moved();

    std::atomic<int64_t> m_nowMs;
    mutable std::mutex m_mutex;
    mutable std::vector<ClockWaiter *> m_waiters;
    // Waiters waiting since the clock last moved, with no news since; apart from
    // m_mutex, which is held while waiters are called (they take their owners' mutexes).
    mutable std::mutex m_idleMutex;
    mutable std::condition_variable m_idleChanged;
    mutable uint64_t m_moves = 0;
    mutable std::set<const void *> m_idle;
};

}  // namespace meridian
