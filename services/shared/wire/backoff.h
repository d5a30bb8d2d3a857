// Reconnect delays: exponential with jitter, reset once a stream delivers again
// (not merely when it opens: an agent that accepts and then fails must not be hammered).
#pragma once

#include <cstdint>
#include <random>

namespace meridian {

struct BackoffPolicy {
    int64_t initialMs = 1000;
    double multiplier = 1.6;
    int64_t maxMs = 120'000;
    double jitter = 0.2;  // ±20%
};

class Backoff {
public:
    explicit Backoff(uint64_t seed, BackoffPolicy policy = {});
    int64_t nextDelayMs();
    void reset();

private:
    BackoffPolicy m_policy;
    double m_currentMs;
    std::mt19937_64 m_random;
};

}  // namespace meridian
