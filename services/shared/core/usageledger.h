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

// Minutes are written as they close, and the minute in progress every checkpoint, as
// the part of it not yet written (the ledger adds parts of a minute up). So a kill -9
// loses at most one checkpoint of usage. A write that fails (a full disk) keeps what it
// could not write and tries again at the next checkpoint: nothing is dropped unwritten.
class UsageAccumulator {
public:
    // A card counts as busy while its utilisation is at least this.
    static constexpr double kDefaultBusyThresholdPercent = 5.0;
    // At most this much usage is lost when the agent dies without a clean stop.
    static constexpr int64_t kCheckpointMs = 10'000;

    UsageAccumulator(UsageLedger &ledger, int64_t maxGapMs,
                     double busyThresholdPercent = kDefaultBusyThresholdPercent);

    // Accounts the time since the previous sample to each card's reading. A gap longer
    // than maxGapMs (agent hung or stopped) is not accounted. Finished minutes, and the
    // minute in progress at each checkpoint, go to the ledger; the error is the ledger's
    // when it could not take them (they are kept for the next try).
    Status addSample(int64_t sampleUnixMs, const std::vector<UsageCard> &cards,
                     const std::vector<CardSample> &samples);

    // Writes everything not yet written (on a clean shutdown).
    Status flush();

    // Parts of minutes accounted but not yet in the ledger.
    size_t unwrittenCount() const { return m_open.size(); }
    // Whether the latest write the ledger was asked for failed (writes are tried only at
    // checkpoints and as minutes close; between them this stays as the last one left it).
    bool lastWriteFailed() const { return m_lastWriteFailed; }

private:
    struct Partial {
        UsageMinute minute;
        double utilSeconds = 0;
        double utilWeighted = 0;
        bool hasEnergy = false;
    };
    void account(const UsageCard &card, const CardSample &sample, int64_t fromMs, int64_t toMs);
    // Hands every unwritten part to the ledger; forgets them only once it took them.
    Status writeUnwritten();

    UsageLedger &m_ledger;
    int64_t m_maxGapMs;
    double m_busyThreshold;
    int64_t m_lastSampleMs = 0;
    int64_t m_lastWriteAttemptMs = 0;
    bool m_lastWriteFailed = false;
    // Keyed by (minute start, card uuid): what has been accounted and not yet written.
    std::map<std::pair<int64_t, std::string>, Partial> m_open;
};

}  // namespace meridian
