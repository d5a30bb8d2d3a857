#include "replayscalers.h"

#include <algorithm>
#include <cmath>

namespace meridian {

double peakAhead(const std::vector<double> &minuteRps, int64_t nowMs, int64_t horizonMs)
{
    const auto from = static_cast<size_t>(std::max<int64_t>(0, nowMs / 60'000));
    const size_t to =
        std::min(minuteRps.size(), from + 1 + static_cast<size_t>(horizonMs / 60'000));
    double peak = 0;
    for (size_t m = from; m < to; ++m)
        peak = std::max(peak, minuteRps[m]);
    return peak;
}

MeridianScaler::MeridianScaler(double replicaRps, double sloS, int warmReplicas, double intervalS,
                               ScalingPolicyConfig config, ToldLoad told)
    : m_intervalS(intervalS), m_config(config), m_told(told)
{
    m_input.replicaRps = replicaRps;
    m_input.latencyObjectiveSeconds = sloS;
    m_input.minReplicas = std::max(1, warmReplicas);
    m_input.maxReplicas = 100'000;
}

void MeridianScaler::ranBefore(double rps)
{
    std::vector<DemandMinute> before;
    for (int64_t m = -m_config.surgeBaseWindowMs / 60'000; m < 0; ++m)
        before.push_back({m, rps, 1});
    m_recent.restore(before);
}

int MeridianScaler::desired(const IntervalSignals &s, double nowS, int current)
{
    const auto nowMs = static_cast<int64_t>(nowS * 1000);
    m_input.nowMs = nowMs;
    m_input.history.push_back({nowMs, s.arrivalRps, static_cast<double>(s.waiting),
                               static_cast<double>(s.running), s.queueDelayP95S, s.ready});
    forgetOldSignals(m_input.history, nowMs, m_config);
    m_input.readyReplicas = s.ready;
    m_input.startingReplicas = s.starting;
    m_profile.record(nowMs, s.arrivalRps);
    m_recent.record(nowMs, s.arrivalRps);
    if (m_told.minuteRps)
        m_input.forecastRps = peakAhead(*m_told.minuteRps, nowMs, m_told.aheadMs);
    else if (m_config.forecastDays > 0)
        m_input.forecastRps = m_profile.forecast(nowMs, m_config.forecastLeadMs);
    if (m_config.surgeCover > 1)
        m_input.usualRps = m_recent.usualRate(nowMs, m_config.surgeBaseWindowMs);
    const ScalingDecision decision = decideReplicas(m_input, m_config);
    int d = decision.desiredReplicas;
    if (d < current) {
        // As the live controller does: a surplus replica goes back when its paid hour
        // ends, down to what the scale-down window needs. Marking it to go earlier
        // would only have a returning demand take it back.
        const int ending = s.paidHoursEndingWithin(m_intervalS);
        d = std::max(std::min(d, decision.neededReplicas), current - ending);
    }
    if (d > current)
        m_input.lastScaleUpMs = nowMs;
    return d;
}

int HpaScaler::desired(const IntervalSignals &s, double nowS, int current)
{
    const int ready = std::max(1, s.ready);
    int want = current;
    const double demand = static_cast<double>(s.running + s.waiting) / (ready * m_slots);
    const double ratio = demand / 0.7;
    if (std::abs(ratio - 1) > 0.1)
        want = static_cast<int>(std::ceil(ready * ratio));
    want = std::min(want, std::max(2 * current, current + 4));
    m_recent.emplace_back(nowS, want);
    while (m_recent.front().first < nowS - 300)
        m_recent.pop_front();
    if (want < current) {
        for (const auto &[at, w] : m_recent)
            want = std::max(want, w);
        want = std::min(want, current);
    }
    return std::max(1, want);
}

int KnativeScaler::desired(const IntervalSignals &s, double nowS, int current)
{
    const double concurrency = s.running + s.waiting;
    m_recent.emplace_back(nowS, concurrency);
    while (m_recent.front().first < nowS - 60)
        m_recent.pop_front();
    double sum = 0;
    for (const auto &[at, c] : m_recent)
        sum += c;
    const int stable = static_cast<int>(std::ceil(sum / m_recent.size() / m_target));
    const int panic = static_cast<int>(std::ceil(concurrency / m_target));
    if (panic >= 2 * std::max(1, s.ready))
        m_panicUntil = nowS + 60;
    int want = nowS < m_panicUntil ? std::max(current, panic) : stable;
    want = std::max(want, (current + 1) / 2);  // max-scale-down-rate 2
    return std::max(1, want);
}

int ForesightScaler::desired(const IntervalSignals &, double nowS, int)
{
    // After the trace it keeps what it has while the last requests are answered.
    const auto minute = static_cast<size_t>(std::max(0.0, nowS) / 60);
    if (m_schedule.empty())
        return 1;
    return std::max(1, m_schedule[std::min(minute, m_schedule.size() - 1)]);
}

std::vector<int> orderedAhead(const std::vector<int> &need, size_t leadMinutes)
{
    std::vector<int> ahead(need.size(), 0);
    for (size_t m = 0; m < need.size(); ++m) {
        for (size_t n = m; n <= m + leadMinutes && n < need.size(); ++n)
            ahead[m] = std::max(ahead[m], need[n]);
    }
    return ahead;
}

}  // namespace meridian
