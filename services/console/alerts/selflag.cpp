#include "selflag.h"

#include <algorithm>

namespace meridian {

void SelfLag::tick(int64_t nowMs)
{
    if (m_lastTickMs > 0) {
        const int64_t late = nowMs - m_lastTickMs - m_limits.tickMs;
        if (late > m_worstLateMs || nowMs - m_worstLateAtMs > m_limits.heldAfterMs) {
            m_worstLateMs = std::max<int64_t>(late, 0);
            m_worstLateAtMs = nowMs;
        }
        if (late > m_limits.loopLateMs)
            m_lateUntilMs = nowMs + m_limits.heldAfterMs;
    }
    m_lastTickMs = nowMs;
    noteBehind(nowMs);
}

void SelfLag::received(uint64_t batches, int64_t sendsEveryMs, int64_t nowMs)
{
    if (batches != m_batches || m_lastBatchMs == 0 || sendsEveryMs <= 0) {
        // Nothing connected: nothing to receive, so no gap of ours.
        m_batches = batches;
        m_lastBatchMs = nowMs;
    }
    m_sendsEveryMs = sendsEveryMs;
    noteBehind(nowMs);
}

bool SelfLag::receiveBehind(int64_t nowMs) const
{
    const int64_t gap = receiveGapMs(nowMs);
    const int64_t limit = std::max(m_limits.receiveGapMs, 3 * m_sendsEveryMs);
    return gap > limit && gap <= limit + m_limits.longestReceiveHoldMs;
}

bool SelfLag::behind(int64_t nowMs) const
{
    return nowMs < m_lateUntilMs || receiveBehind(nowMs);
}

void SelfLag::noteBehind(int64_t nowMs)
{
    const bool now = behind(nowMs);
    if (now && !m_wasBehind)
        ++m_holds;
    m_wasBehind = now;
}

int64_t SelfLag::loopLateMs(int64_t nowMs) const
{
    return nowMs - m_worstLateAtMs > m_limits.heldAfterMs ? 0 : m_worstLateMs;
}

int64_t SelfLag::receiveGapMs(int64_t nowMs) const
{
    if (m_sendsEveryMs <= 0 || m_lastBatchMs == 0)
        return 0;
    return std::max<int64_t>(nowMs - m_lastBatchMs, 0);
}

}  // namespace meridian
