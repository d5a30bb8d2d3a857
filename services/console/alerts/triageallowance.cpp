#include "triageallowance.h"

#include <algorithm>
#include <cmath>

#include "core/clock.h"

namespace meridian {

TriageAllowance::TriageAllowance(const Clock &clock, TriageAllowanceLimits limits)
    : m_clock(clock), m_limits(limits)
{
    m_limits.burst = std::max(1, m_limits.burst);
    m_limits.refillEveryMs = std::max<int64_t>(1, m_limits.refillEveryMs);
}

std::optional<int64_t> TriageAllowance::take(const std::string &caller)
{
    const int64_t now = m_clock.steadyMs();
    const std::lock_guard lock(m_mutex);
    auto [it, added] = m_buckets.try_emplace(caller, Bucket{double(m_limits.burst), now});
    Bucket &bucket = it->second;
    const double refilled =
        static_cast<double>(std::max<int64_t>(0, now - bucket.atMs)) / m_limits.refillEveryMs;
    bucket.requests = std::min<double>(m_limits.burst, bucket.requests + refilled);
    bucket.atMs = now;
    if (bucket.requests >= 1.0) {
        bucket.requests -= 1.0;
        return std::nullopt;
    }
    return static_cast<int64_t>(std::ceil((1.0 - bucket.requests) * m_limits.refillEveryMs));
}

}  // namespace meridian
