// The console's cost-monitoring history: one SQLite file in the user's data directory
// with per-card per-minute usage from every agent and hourly and daily roll-ups kept in
// step with the minutes. The file's one writer thread (sqlite/sqlitewriterthread) writes
// the usage from a bounded queue in batched transactions; the file's other users in this
// process (the scaling journal, the alert triage, the cost records) write through it too
// (runOnWriter). A minute written twice replaces itself (the agent's ledger is the
// authority for its minutes) and its hour and day are recomputed, so a backfill never
// counts anything twice. Schema and retention: docs/history.md. Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/nodetypes.h"
#include "core/result.h"
#include "sqlite/sqlitewriter.h"

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteWriterThread;

struct UsageBatch {
    NodeInventory node;  // who the minutes belong to (id, data center, rack, cards)
    std::vector<UsageMinute> minutes;
};

struct HistoryRetention {
    int minuteDays = 14;  // per-minute rows
    int hourDays = 400;   // hourly roll-ups; daily ones are kept forever
};

class HistoryStore final : public SqliteWriter {
public:
    // The default file: $XDG_DATA_HOME/meridian/history.db (~/.local/share/...).
    static std::string defaultPath();
    static Result<std::unique_ptr<HistoryStore>> open(const std::string &path,
                                                      HistoryRetention retention = {});
    ~HistoryStore();

    // Queues a batch for the writer; blocks only while the queue is full.
    void submit(UsageBatch batch);
    // Waits until everything submitted so far is written; the first write error since
    // the previous flush, if any (the minutes it held are not lost: they are still in
    // the agents' ledgers, and the next backfill resumes from lastMinute()).
    Status flush();

    // Drops minutes and hours past their retention (their roll-ups stay). Minutes older
    // than the kept range are ignored from then on: their day is already final.
    Status applyRetention(int64_t nowUnixS);

    // Where a node's backfill resumes: its newest stored minute, and never before the
    // minutes still kept (0 for a new node in a new file).
    int64_t lastMinute(const std::string &nodeId);
    int64_t minuteCount();
    const std::string &path() const override { return m_path; }
    // For this file's other writers in this process: their work runs on the writer
    // thread, ahead of queued usage batches.
    void runOnWriter(const std::function<void(SQLite::Database &)> &work) override;

private:
    HistoryStore(std::unique_ptr<SQLite::Database> writer, std::unique_ptr<SQLite::Database> reader,
                 std::string path, HistoryRetention retention);
    // On the writer thread: a transaction's worth of the queued batches.
    void writeQueued(SQLite::Database &db);
    Status write(SQLite::Database &db, const std::vector<UsageBatch> &batches);
    // Row ids of nodes, cards and services; a row is written only when it is new or
    // changed, which halves the statements of a live minute.
    int64_t serviceId(SQLite::Database &db, const std::string &name);
    int64_t nodeRow(SQLite::Database &db, const NodeInventory &node);
    int64_t cardRow(SQLite::Database &db, const CardInfo &card, int64_t nodeRow);

    struct KnownCard {
        int64_t row = 0;
        int64_t nodeRow = 0;
        uint32_t index = 0;
        Vendor vendor = Vendor::Unknown;
        std::string model;
    };
    struct KnownNode {
        int64_t row = 0;
        std::string dataCenter;
        std::string rack;
        std::string hostname;
    };
    // Writer-thread caches, void after a rolled-back transaction.
    std::map<std::string, int64_t> m_serviceIds;
    std::map<std::string, KnownNode> m_nodeRows;
    std::map<std::string, KnownCard> m_cardRows;
    int64_t m_minuteHorizon = 0;  // minutes before it are no longer kept; writer thread
    std::unique_ptr<SQLite::Database> m_reader;
    std::mutex m_readerMutex;
    std::string m_path;
    HistoryRetention m_retention;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<UsageBatch> m_queue;
    bool m_writePosted = false;  // a writeQueued() is on its way to the writer
    uint64_t m_submitted = 0;
    uint64_t m_written = 0;
    Status m_firstError;
    std::unique_ptr<SqliteWriterThread> m_writer;  // last: it ends first, draining the queue
};

}  // namespace meridian
