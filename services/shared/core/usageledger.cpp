#include "usageledger.h"

#include <algorithm>
#include <cmath>

namespace meridian {

void mergeUsageMinute(UsageMinute &total, const UsageMinute &add)
{
    const double before = total.observedSeconds;
    total.observedSeconds += add.observedSeconds;
    total.busySeconds += add.busySeconds;
    if (add.meanUtilizationPercent) {
        if (total.meanUtilizationPercent && total.observedSeconds > 0) {
            total.meanUtilizationPercent = (*total.meanUtilizationPercent * before +
                                            *add.meanUtilizationPercent * add.observedSeconds) /
                                           total.observedSeconds;
        } else {
            total.meanUtilizationPercent = add.meanUtilizationPercent;
        }
    }
    if (add.energyJoules)
        total.energyJoules = total.energyJoules.value_or(0) + *add.energyJoules;
    if (!add.service.empty())
        total.service = add.service;
}

Status MemoryUsageLedger::record(const std::vector<UsageMinute> &minutes)
{
    std::lock_guard lock(m_mutex);
    for (const UsageMinute &m : minutes) {
        auto [it, inserted] = m_minutes.try_emplace({m.minuteStartUnixS, m.cardUuid}, m);
        if (!inserted)
            mergeUsageMinute(it->second, m);
    }
    return {};
}

Result<std::vector<UsageMinute>> MemoryUsageLedger::since(int64_t sinceMinuteUnixS, size_t limit)
{
    std::lock_guard lock(m_mutex);
    std::vector<UsageMinute> out;
    for (auto it = m_minutes.lower_bound({sinceMinuteUnixS, std::string()});
         it != m_minutes.end() && out.size() < limit; ++it) {
        out.push_back(it->second);
    }
    return out;
}

int64_t MemoryUsageLedger::oldestMinuteUnixS()
{
    std::lock_guard lock(m_mutex);
    return m_minutes.empty() ? 0 : m_minutes.begin()->first.first;
}

void MemoryUsageLedger::dropBefore(int64_t minuteUnixS)
{
    std::lock_guard lock(m_mutex);
    m_minutes.erase(m_minutes.begin(), m_minutes.lower_bound({minuteUnixS, std::string()}));
}

UsageAccumulator::UsageAccumulator(UsageLedger &ledger, int64_t maxGapMs,
                                   double busyThresholdPercent)
    : m_ledger(ledger), m_maxGapMs(maxGapMs), m_busyThreshold(busyThresholdPercent)
{}

void UsageAccumulator::account(const UsageCard &card, const CardSample &sample, int64_t fromMs,
                               int64_t toMs)
{
    // Split the interval at minute boundaries so each minute gets exactly its share.
    while (fromMs < toMs) {
        const int64_t minuteStartMs = fromMs - (fromMs % 60'000);
        const int64_t endMs = std::min(toMs, minuteStartMs + 60'000);
        const double seconds = static_cast<double>(endMs - fromMs) / 1000.0;
        Partial &p = m_open[{minuteStartMs / 1000, card.uuid}];
        p.minute.minuteStartUnixS = minuteStartMs / 1000;
        p.minute.cardIndex = card.index;
        p.minute.cardUuid = card.uuid;
        p.minute.service = card.service;  // a minute belongs to whoever held the card last
        p.minute.observedSeconds += seconds;
        const auto util = sample.utilizationPercent;
        if (util && std::isfinite(*util) && *util >= 0 && *util <= 100) {
            p.utilSeconds += seconds;
            p.utilWeighted += *util * seconds;
            if (*util >= m_busyThreshold)
                p.minute.busySeconds += seconds;
        }
        const auto power = sample.powerWatts;
        if (power && std::isfinite(*power) && *power >= 0 && *power < 10'000) {
            p.minute.energyJoules = p.minute.energyJoules.value_or(0) + *power * seconds;
            p.hasEnergy = true;
        }
        fromMs = endMs;
    }
}

Status UsageAccumulator::addSample(int64_t sampleUnixMs, const std::vector<UsageCard> &cards,
                                   const std::vector<CardSample> &samples)
{
    const int64_t previous = m_lastSampleMs;
    m_lastSampleMs = sampleUnixMs;
    if (previous > 0 && sampleUnixMs > previous && sampleUnixMs - previous <= m_maxGapMs) {
        for (const CardSample &sample : samples) {
            const auto card = std::find_if(cards.begin(), cards.end(), [&](const UsageCard &c) {
                return c.index == sample.index;
            });
            if (card != cards.end())
                account(*card, sample, previous, sampleUnixMs);
        }
    }
    // A minute that closed is written at once, unless the last write failed: then the
    // next try waits for the checkpoint, so a full disk is not hammered every second.
    const int64_t currentMinuteS = sampleUnixMs / 60'000 * 60;
    const bool minuteClosed = !m_open.empty() && m_open.begin()->first.first < currentMinuteS;
    const bool checkpointDue = sampleUnixMs - m_lastWriteAttemptMs >= kCheckpointMs;
    if (m_open.empty() || !(checkpointDue || (minuteClosed && !m_lastWriteFailed)))
        return {};
    m_lastWriteAttemptMs = sampleUnixMs;
    return writeUnwritten();
}

Status UsageAccumulator::writeUnwritten()
{
    std::vector<UsageMinute> parts;
    parts.reserve(m_open.size());
    for (auto &[key, p] : m_open) {
        if (p.utilSeconds > 0)
            p.minute.meanUtilizationPercent = p.utilWeighted / p.utilSeconds;
        parts.push_back(p.minute);
    }
    if (parts.empty())
        return {};
    Status written = m_ledger.record(parts);
    m_lastWriteFailed = !written.ok();
    if (written)
        m_open.clear();
    return written;
}

Status UsageAccumulator::flush()
{
    return writeUnwritten();
}

}  // namespace meridian
