// The agent's own SQLite file under --data-dir: per-card per-minute usage (served by
// GetUsage so the console can backfill), the event ring (so sequences keep rising
// across restarts), and the node's records: workloads, idempotency answers and replica
// processes, so a restarted agent adopts what it was running. WAL mode: a kill -9 loses at most the
// minute in progress. Thread-safe: one connection behind a mutex; writes are a few rows a minute.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "core/result.h"
#include "core/usageledger.h"
#include "telemetry/eventlog.h"
#include "telemetry/noderecords.h"

namespace SQLite {
class Database;
}

namespace meridian {

class AgentLedger final : public UsageLedger, public EventStore, public NodeRecords {
public:
    // Opens or creates DIR/agent.db. A file that is not ours, or is corrupt, is an
    // error naming it; it is never overwritten.
    static Result<std::unique_ptr<AgentLedger>> open(const std::string &dataDir);
    ~AgentLedger() override;

    Status record(const std::vector<UsageMinute> &minutes) override;
    Result<std::vector<UsageMinute>> since(int64_t sinceMinuteUnixS, size_t limit) override;
    int64_t oldestMinuteUnixS() override;
    void dropBefore(int64_t minuteUnixS) override;

    void append(const Event &event) override;
    std::vector<Event> loadRecent(size_t count) override;

    Status put(const std::string &kind, const std::string &key, const std::string &value) override;
    Status remove(const std::string &kind, const std::string &key) override;
    Result<std::vector<std::pair<std::string, std::string>>> all(const std::string &kind) override;

    const std::string &path() const { return m_path; }

private:
    AgentLedger(std::unique_ptr<SQLite::Database> db, std::string path);

    std::mutex m_mutex;
    std::unique_ptr<SQLite::Database> m_db;
    std::string m_path;
};

}  // namespace meridian
