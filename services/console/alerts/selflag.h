// How far behind the one judging the fleet is itself: a watcher or console whose own
// loop runs late, or whose streams are not being read, sees every agent go quiet at once
// and would blame them for its own lag. Two measures, both on the judge's side only: how
// late its evaluation tick comes, and how long since any agent's batch was received while
// agents are connected. While either is over its limit (and for a while after) agents'
// staleness is not judged. Pure: the caller gives the time.
#pragma once

#include <cstdint>

namespace meridian {

struct SelfLagLimits {
    int64_t tickMs = 1000;                  // how often the evaluation means to run
    int64_t loopLateMs = 1500;              // a tick this much later than meant: behind
    int64_t receiveGapMs = 5000;            // nothing received from any agent this long (and
                                            // three of their intervals): behind
    int64_t heldAfterMs = 10'000;           // judged again only this long after the last sign
    int64_t longestReceiveHoldMs = 30'000;  // a receive gap holds no longer (a truly silent
                                            // fleet is dark, not us)
};

class SelfLag {
public:
    explicit SelfLag(SelfLagLimits limits = {}) : m_limits(limits) {}

    // Once per evaluation, at its start.
    void tick(int64_t nowMs);
    // Batches received so far (a counter), and how often the connected agents send (the
    // shortest interval among them; 0: none is connected, so nothing is awaited).
    void received(uint64_t batches, int64_t sendsEveryMs, int64_t nowMs);
    // Whether staleness judgments are held now.
    bool behind(int64_t nowMs) const;

    // The worst lateness of a tick within the last `heldAfterMs`.
    int64_t loopLateMs(int64_t nowMs) const;
    // Since the last batch arrived (0 when none is expected).
    int64_t receiveGapMs(int64_t nowMs) const;
    // How often a behind started (for /metrics).
    uint64_t holds() const { return m_holds; }
    const SelfLagLimits &limits() const { return m_limits; }

private:
    bool receiveBehind(int64_t nowMs) const;
    void noteBehind(int64_t nowMs);

    SelfLagLimits m_limits;
    int64_t m_lastTickMs = 0;
    int64_t m_worstLateMs = 0;
    int64_t m_worstLateAtMs = 0;
    int64_t m_lateUntilMs = 0;  // behind through this time, for the loop
    uint64_t m_batches = 0;
    int64_t m_lastBatchMs = 0;
    int64_t m_sendsEveryMs = 0;
    bool m_wasBehind = false;
    uint64_t m_holds = 0;
};

}  // namespace meridian
