#include "backoff.h"

#include <algorithm>

namespace meridian {

Backoff::Backoff(uint64_t seed, BackoffPolicy policy)
    : m_policy(policy), m_currentMs(static_cast<double>(policy.initialMs)), m_random(seed)
{}

int64_t Backoff::nextDelayMs()
{
    std::uniform_real_distribution<double> spread(1.0 - m_policy.jitter, 1.0 + m_policy.jitter);
    const double delay = m_currentMs * spread(m_random);
    m_currentMs = std::min(m_currentMs * m_policy.multiplier, static_cast<double>(m_policy.maxMs));
    return static_cast<int64_t>(delay);
}

void Backoff::reset()
{
    m_currentMs = static_cast<double>(m_policy.initialMs);
}

}  // namespace meridian
