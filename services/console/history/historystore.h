// The console's cost-monitoring history: one SQLite file in the user's data directory
// with per-card per-minute usage from every agent, hourly and daily roll-ups kept in
// step with the minutes, the cloud leases that were paid for, and the prices in force.
// One writer thread owns the file's writer connection: it drains a bounded queue of
// usage in batched transactions, and runs the file's other writes (retention, leases,
// prices, and the scaling journal's and triage log's) in turn. A minute written
// twice replaces itself (the agent's ledger is the authority for its minutes) and its
// hour and day are recomputed, so a backfill never counts anything twice.
// Schema and retention: docs/history.md. Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/cloudlease.h"
#include "core/nodetypes.h"
#include "core/result.h"
#include "sqlite/sqlitewriter.h"

namespace SQLite {
class Database;
}

namespace meridian {

class PriceBook;

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
    // Records leases as the capacity pool reported them (newest state wins).
    Status recordLeases(const std::vector<CloudLease> &leases);
    // Stores the price book in force, for the analysts' cost views.
    Status recordPrices(const PriceBook &prices);

    // Where a node's backfill resumes: its newest stored minute, and never before the
    // minutes still kept (0 for a new node in a new file).
    int64_t lastMinute(const std::string &nodeId);
    int64_t minuteCount();
    const std::string &path() const { return m_path; }
    // For this file's other writers in this process (the scaling journal, the triage
    // log): their work runs on the writer thread, ahead of queued usage batches.
    void runOnWriter(const std::function<void(SQLite::Database &)> &work) override;

private:
    HistoryStore(std::unique_ptr<SQLite::Database> writer, std::unique_ptr<SQLite::Database> reader,
                 std::string path, HistoryRetention retention);
    void run();
    Status write(const std::vector<UsageBatch> &batches);
    // Row ids of nodes, cards and services; a row is written only when it is new or
    // changed, which halves the statements of a live minute.
    int64_t serviceId(const std::string &name);
    int64_t nodeRow(const NodeInventory &node);
    int64_t cardRow(const CardInfo &card, int64_t nodeRow);
    // One transaction, on the writer thread; a failure names the file and `what`.
    Status inTransaction(const char *what, const std::function<void(SQLite::Database &)> &work);
    // The same from any thread; `committed` then runs on the writer thread.
    Status onWriterInTransaction(const char *what,
                                 const std::function<void(SQLite::Database &)> &work,
                                 const std::function<void()> &committed = {});

    std::unique_ptr<SQLite::Database> m_writer;  // used on the writer thread only
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
    std::deque<std::packaged_task<void()>> m_work;  // other writes, run before batches
    uint64_t m_submitted = 0;
    uint64_t m_written = 0;
    Status m_firstError;
    bool m_stopping = false;
    bool m_stopped = false;  // the writer thread has ended: nothing more runs
    std::thread m_thread;
};

}  // namespace meridian
