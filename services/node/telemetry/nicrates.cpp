#include "nicrates.h"

namespace meridian {

namespace {

struct RateContext {
    double seconds = 0;
    bool reset = false;

    std::optional<double> rate(const std::optional<uint64_t> &now,
                               const std::optional<uint64_t> &before)
    {
        if (!now || !before || seconds <= 0)
            return std::nullopt;
        if (*now < *before) {
            reset = true;
            return std::nullopt;
        }
        return static_cast<double>(*now - *before) / seconds;
    }
};

}  // namespace

NicSample NicRateTracker::update(const NicCounters &counters, int64_t sampleUnixMs)
{
    NicSample sample;
    sample.counters = counters;
    const auto it = m_previous.find(counters.netdev);
    if (it != m_previous.end() && sampleUnixMs > it->second.unixMs) {
        const NicCounters &before = it->second.counters;
        RateContext ctx{static_cast<double>(sampleUnixMs - it->second.unixMs) / 1000.0};
        sample.rxBytesPerSecond = ctx.rate(counters.rxBytes, before.rxBytes);
        sample.txBytesPerSecond = ctx.rate(counters.txBytes, before.txBytes);
        for (int p = 0; p < kPfcPriorities; ++p) {
            sample.rxPausePerSecond[p] = ctx.rate(counters.rxPause[p], before.rxPause[p]);
            sample.txPausePerSecond[p] = ctx.rate(counters.txPause[p], before.txPause[p]);
        }
        sample.ecnMarkedPerSecond = ctx.rate(counters.ecnMarkedPackets, before.ecnMarkedPackets);
        sample.cnpSentPerSecond = ctx.rate(counters.cnpSent, before.cnpSent);
        sample.cnpHandledPerSecond = ctx.rate(counters.cnpHandled, before.cnpHandled);
        sample.countersReset = ctx.reset;
        if (ctx.reset) {
            // After a reset every rate of this sample is suspect, not just the one seen.
            NicSample clean;
            clean.counters = counters;
            clean.countersReset = true;
            sample = clean;
        }
    }
    m_previous[counters.netdev] = Previous{counters, sampleUnixMs};
    return sample;
}

}  // namespace meridian
