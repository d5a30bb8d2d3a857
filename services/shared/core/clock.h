// Time is injected: real components get SystemClock, tests and virtual-time
// evaluations get ManualClock and never sleep.
#pragma once

#include <atomic>
#include <cstdint>

namespace meridian {

class Clock {
public:
    virtual ~Clock() = default;
    virtual int64_t nowUnixMs() const = 0;
};

class SystemClock final : public Clock {
public:
    int64_t nowUnixMs() const override;
    static SystemClock &instance();
};

// Thread-safe: tests advance it from the test thread while servers read it.
class ManualClock final : public Clock {
public:
    explicit ManualClock(int64_t startUnixMs = 1'700'000'000'000) : m_nowMs(startUnixMs) {}
    int64_t nowUnixMs() const override { return m_nowMs.load(); }
    void advanceMs(int64_t ms) { m_nowMs += ms; }
    void setUnixMs(int64_t ms) { m_nowMs = ms; }

private:
    std::atomic<int64_t> m_nowMs;
};

}  // namespace meridian
