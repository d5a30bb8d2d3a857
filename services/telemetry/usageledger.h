// The per-card per-minute usage the agent keeps for the console's backfill.
// UsageAccumulator turns samples into minutes; a UsageLedger keeps them (SQLite on a
// real node, memory in the simulator). A minute written twice is merged by adding,
// so a minute split by an agent restart is counted once, in full.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/nodetypes.h"
#include "core/result.h"

namespace meridian {

class UsageLedger {
public:
    virtual ~UsageLedger() = default;
    virtual Status record(const std::vector<UsageMinute> &minutes) = 0;
    // Minutes with minuteStartUnixS >= since, oldest first, at most `limit`.
    virtual Result<std::vector<UsageMinute>> since(int64_t sinceMinuteUnixS, size_t limit) = 0;
    virtual int64_t oldestMinuteUnixS() = 0;
    virtual void dropBefore(int64_t minuteUnixS) = 0;
};

// Merges minutes in memory; for the simulator and tests. Thread-safe.
class MemoryUsageLedger final : public UsageLedger {
public:
    Status record(const std::vector<UsageMinute> &minutes) override;
    Result<std::vector<UsageMinute>> since(int64_t sinceMinuteUnixS, size_t limit) override;
    int64_t oldestMinuteUnixS() override;
    void dropBefore(int64_t minuteUnixS) override;

private:
    std::mutex m_mutex;
    std::map<std::pair<int64_t, std::string>, UsageMinute> m_minutes;
};

// Adds `add` into `total` (same minute, same card): seconds and energy add up, the mean
// utilisation is weighted by observed time.
void mergeUsageMinute(UsageMinute &total, const UsageMinute &add);

struct UsageCard {
    uint32_t index = 0;
    std::string uuid;
    std::string service;  // the inference service holding the card now; empty: none
};

class UsageAccumulator {
public:
    // A card counts as busy while its utilisation is at least this.
    static constexpr double kDefaultBusyThresholdPercent = 5.0;

    UsageAccumulator(UsageLedger &ledger, int64_t maxGapMs,
                     double busyThresholdPercent = kDefaultBusyThresholdPercent);

    // Accounts the time since the previous sample to each card's reading. A gap longer
    // than maxGapMs (agent hung or stopped) is not accounted. Finished minutes go to the
    // ledger.
    Status addSample(int64_t sampleUnixMs, const std::vector<UsageCard> &cards,
                     const std::vector<CardSample> &samples);

    // Writes the minute in progress (on a clean shutdown).
    Status flush();

private:
    struct Partial {
        UsageMinute minute;
        double utilSeconds = 0;
        double utilWeighted = 0;
        bool hasEnergy = false;
    };
    void account(const UsageCard &card, const CardSample &sample, int64_t fromMs, int64_t toMs);
    Status flushBefore(int64_t minuteStartUnixS);

    UsageLedger &m_ledger;
    int64_t m_maxGapMs;
    double m_busyThreshold;
    int64_t m_lastSampleMs = 0;
    std::map<std::pair<int64_t, std::string>, Partial> m_open;
};

}  // namespace meridian
