// The console's cost-monitoring history: one SQLite file in the user's data directory
// with per-card per-minute usage from every agent. One writer thread drains a bounded
// queue in batched transactions; a minute written twice replaces itself (the agent's
// ledger is the authority for its minutes), so a backfill never counts anything twice.
// Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/nodetypes.h"
#include "core/result.h"

namespace SQLite {
class Database;
}

namespace meridian {

struct UsageBatch {
    NodeInventory node;  // who the minutes belong to (id, data center, rack, cards)
    std::vector<UsageMinute> minutes;
};

class HistoryStore {
public:
    // The default file: $XDG_DATA_HOME/meridian/history.db (~/.local/share/...).
    static std::string defaultPath();
    static Result<std::unique_ptr<HistoryStore>> open(const std::string &path);
    ~HistoryStore();

    // Queues a batch for the writer; blocks only while the queue is full.
    void submit(UsageBatch batch);
    // Waits until everything submitted so far is written; the first write error, if any.
    Status flush();

    // The newest minute stored for a node (0 when none): where its backfill resumes.
    int64_t lastMinute(const std::string &nodeId);
    int64_t minuteCount();
    const std::string &path() const { return m_path; }

private:
    HistoryStore(std::unique_ptr<SQLite::Database> writer, std::unique_ptr<SQLite::Database> reader,
                 std::string path);
    void run();
    Status write(const std::vector<UsageBatch> &batches);

    std::unique_ptr<SQLite::Database> m_writer;  // the writer thread's own connection
    std::unique_ptr<SQLite::Database> m_reader;
    std::mutex m_readerMutex;
    std::string m_path;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<UsageBatch> m_queue;
    uint64_t m_submitted = 0;
    uint64_t m_written = 0;
    Status m_firstError;
    bool m_stopping = false;
    std::thread m_thread;
};

}  // namespace meridian
