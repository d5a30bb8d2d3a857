#include "historystore.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <utility>

#include "core/userdirs.h"
#include "cost/pricebook.h"
#include "historyschema.h"
#include "rollupdeltas.h"
#include "sqlite/sqlitebind.h"
#include "sqlite/sqlitefile.h"

namespace meridian {

namespace {

constexpr size_t kQueueLimit = 256;  // batches; a full queue makes submitters wait
constexpr size_t kBatchesPerTransaction = 64;

}  // namespace

std::string HistoryStore::defaultPath()
{
    return userFile(UserDir::Data, "history.db");
}

Result<std::unique_ptr<HistoryStore>> HistoryStore::open(const std::string &path,
                                                         HistoryRetention retention)
{
    std::error_code ec;
    const auto directory = std::filesystem::path(path).parent_path();
    if (!directory.empty())
        std::filesystem::create_directories(directory, ec);
    if (ec)
        return Error{
            fmt::format("{}: cannot create {}: {}", path, directory.string(), ec.message())};
    auto writer = openSqliteFile(path, historySchema());
    if (!writer)
        return writer.error();
    auto reader = openSqliteFile(path, historySchema());
    if (!reader)
        return reader.error();
    return std::unique_ptr<HistoryStore>(
        new HistoryStore(std::move(writer).value(), std::move(reader).value(), path, retention));
}

HistoryStore::HistoryStore(std::unique_ptr<SQLite::Database> writer,
                           std::unique_ptr<SQLite::Database> reader, std::string path,
                           HistoryRetention retention)
    : m_writer(std::move(writer))
    , m_reader(std::move(reader))
    , m_path(std::move(path))
    , m_retention(retention)
{
    // A month of roll-ups for 6,000 cards is tens of MB: keep the hot pages in memory.
    for (SQLite::Database *db : {m_writer.get(), m_reader.get()})
        db->exec("PRAGMA cache_size = -32768");
    m_minuteHorizon =
        m_writer->execAndGet("SELECT from_unix_s FROM kept_range WHERE level = 'minute'")
            .getInt64();
    m_thread = std::thread([this] { run(); });
}

HistoryStore::~HistoryStore()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    m_thread.join();  // drains the queue first: nothing submitted is lost on a clean exit
}

void HistoryStore::submit(UsageBatch batch)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.size() < kQueueLimit || m_stopping; });
    m_queue.push_back(std::move(batch));
    ++m_submitted;
    m_changed.notify_all();
}

Status HistoryStore::flush()
{
    std::unique_lock lock(m_mutex);
    const uint64_t target = m_submitted;
    m_changed.wait(lock, [&] { return m_written >= target; });
    return std::exchange(m_firstError, Status{});
}

void HistoryStore::run()
{
    while (true) {
        std::deque<std::packaged_task<void()>> work;
        std::vector<UsageBatch> batches;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock,
                           [this] { return !m_work.empty() || !m_queue.empty() || m_stopping; });
            if (m_work.empty() && m_queue.empty() && m_stopping) {
                m_stopped = true;
                return;
            }
            // Other writes first: a journal step is waited for by a scale-up in flight,
            // usage only by the next report.
            work.swap(m_work);
            while (work.empty() && !m_queue.empty() && batches.size() < kBatchesPerTransaction) {
                batches.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
        }
        for (auto &task : work)
            task();  // its outcome, exceptions included, goes to whoever waits for it
        if (batches.empty())
            continue;
        m_changed.notify_all();  // room in the queue
        Status status = write(batches);
        {
            std::lock_guard lock(m_mutex);
            m_written += batches.size();
            if (!status && m_firstError.ok())
                m_firstError = status;
        }
        m_changed.notify_all();
    }
}

void HistoryStore::runOnWriter(const std::function<void(SQLite::Database &)> &work)
{
    if (std::this_thread::get_id() == m_thread.get_id()) {
        work(*m_writer);
        return;
    }
    std::packaged_task<void()> task([&] { work(*m_writer); });
    std::future<void> done = task.get_future();
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            throw SQLite::Exception(fmt::format("{}: the history store is closed", m_path));
        m_work.push_back(std::move(task));
    }
    m_changed.notify_all();
    done.get();
}

Status HistoryStore::inTransaction(const char *what,
                                   const std::function<void(SQLite::Database &)> &work)
{
    try {
        SQLite::Transaction tx(*m_writer);
        work(*m_writer);
        tx.commit();
        return {};
    } catch (const SQLite::Exception &e) {
        // Rows written in the rolled-back transaction are gone again.
        m_serviceIds.clear();
        m_nodeRows.clear();
        m_cardRows.clear();
        return Error{fmt::format("{}: cannot {}: {}", m_path, what, e.what())};
    }
}

Status HistoryStore::onWriterInTransaction(const char *what,
                                           const std::function<void(SQLite::Database &)> &work,
                                           const std::function<void()> &committed)
{
    Status status;
    try {
        runOnWriter([&](SQLite::Database &) {
            status = inTransaction(what, work);
            if (status && committed)
                committed();
        });
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("cannot {}: {}", what, e.what())};  // it names the file
    }
    return status;
}

int64_t HistoryStore::serviceId(const std::string &name)
{
    if (name.empty())
        return 0;
    if (const auto it = m_serviceIds.find(name); it != m_serviceIds.end())
        return it->second;
    SQLite::Statement upsert(*m_writer, R"(
        INSERT INTO service (name) VALUES (?1)
        ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id)");
    upsert.bind(1, name);
    upsert.executeStep();
    return m_serviceIds[name] = upsert.getColumn(0).getInt64();
}

int64_t HistoryStore::nodeRow(const NodeInventory &node)
{
    const auto known = m_nodeRows.find(node.nodeId);
    if (known != m_nodeRows.end() && known->second.dataCenter == node.dataCenter &&
        known->second.rack == node.rack && known->second.hostname == node.hostname)
        return known->second.row;
    SQLite::Statement upsert(*m_writer, R"(
        INSERT INTO node (node_id, data_center, rack, hostname) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (node_id) DO UPDATE SET data_center = excluded.data_center,
            rack = excluded.rack, hostname = excluded.hostname
        RETURNING id)");
    SQLite::bind(upsert, node.nodeId, node.dataCenter, node.rack, node.hostname);
    upsert.executeStep();
    const int64_t row = upsert.getColumn(0).getInt64();
    m_nodeRows[node.nodeId] = {row, node.dataCenter, node.rack, node.hostname};
    return row;
}

int64_t HistoryStore::cardRow(const CardInfo &card, int64_t nodeRow)
{
    const auto known = m_cardRows.find(card.uuid);
    if (known != m_cardRows.end() && known->second.nodeRow == nodeRow &&
        known->second.index == card.index && known->second.vendor == card.vendor &&
        known->second.model == card.model)
        return known->second.row;
    SQLite::Statement upsert(*m_writer, R"(
        INSERT INTO card (uuid, node, card_index, vendor, model) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (uuid) DO UPDATE SET node = excluded.node, card_index = excluded.card_index,
            vendor = excluded.vendor, model = excluded.model
        RETURNING id)");
    SQLite::bind(upsert, card.uuid, nodeRow, static_cast<int64_t>(card.index),
                 std::string(vendorName(card.vendor)), card.model);
    upsert.executeStep();
    const int64_t row = upsert.getColumn(0).getInt64();
    m_cardRows[card.uuid] = {row, nodeRow, card.index, card.vendor, card.model};
    return row;
}

Status HistoryStore::write(const std::vector<UsageBatch> &batches)
{
    return inTransaction("write usage", [&](SQLite::Database &db) {
        SQLite::Statement insertNew(db, R"(
            INSERT OR IGNORE INTO usage_minute (card, minute_start_unix_s, observed_seconds,
                busy_seconds, mean_utilization_percent, energy_joules, service)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7))");
        SQLite::Statement previous(db, R"(
            SELECT observed_seconds, busy_seconds, mean_utilization_percent, energy_joules, service
            FROM usage_minute WHERE card = ?1 AND minute_start_unix_s = ?2)");
        SQLite::Statement replace(db, R"(
            UPDATE usage_minute SET observed_seconds = ?3, busy_seconds = ?4,
                mean_utilization_percent = ?5, energy_joules = ?6, service = ?7
            WHERE card = ?1 AND minute_start_unix_s = ?2)");
        SQLite::Statement progress(db, R"(
            INSERT INTO node_progress VALUES (?1, ?2) ON CONFLICT (node) DO UPDATE
            SET last_minute_unix_s = max(last_minute_unix_s, excluded.last_minute_unix_s))");
        RollupDeltas rollups;
        for (const UsageBatch &batch : batches) {
            const int64_t nodeRowId = nodeRow(batch.node);
            std::map<std::string, int64_t> cardRows;
            for (const CardInfo &info : batch.node.cards)
                cardRows[info.uuid] = cardRow(info, nodeRowId);
            int64_t newestMinute = -1;
            for (const UsageMinute &m : batch.minutes) {
                const auto row = cardRows.find(m.cardUuid);
                if (row == cardRows.end())
                    continue;  // a card the inventory does not name: nothing to bill it to
                if (m.minuteStartUnixS < m_minuteHorizon)
                    continue;  // its day is final: the other minutes of it are gone
                const int64_t cardRow = row->second;
                newestMinute = std::max(newestMinute, m.minuteStartUnixS);
                const int64_t service = serviceId(m.service);
                const MinuteFigures figures{m.observedSeconds, m.busySeconds,
                                            m.meanUtilizationPercent, m.energyJoules};
                const auto bindMinute = [&](SQLite::Statement &statement) {
                    SQLite::bind(statement, cardRow, static_cast<int64_t>(m.minuteStartUnixS),
                                 m.observedSeconds, m.busySeconds);
                    bindOptional(statement, 5, m.meanUtilizationPercent);
                    bindOptional(statement, 6, m.energyJoules);
                    statement.bind(7, service);
                };
                bindMinute(insertNew);
                const int inserted = insertNew.exec();
                insertNew.reset();
                if (inserted == 1) {
                    rollups.add(cardRow, m.minuteStartUnixS, service, figures, +1);
                    continue;
                }
                // Written before: the agent's newer word replaces it, in the roll-ups too.
                SQLite::bind(previous, cardRow, static_cast<int64_t>(m.minuteStartUnixS));
                if (!previous.executeStep()) {
                    previous.reset();
                    continue;  // refused by a constraint (a NaN from a broken agent)
                }
                const MinuteFigures old{
                    previous.getColumn(0).getDouble(), previous.getColumn(1).getDouble(),
                    optionalDouble(previous.getColumn(2)), optionalDouble(previous.getColumn(3))};
                const int64_t oldService = previous.getColumn(4).getInt64();
                previous.reset();
                rollups.add(cardRow, m.minuteStartUnixS, oldService, old, -1);
                bindMinute(replace);
                replace.exec();
                replace.reset();
                rollups.add(cardRow, m.minuteStartUnixS, service, figures, +1);
            }
            if (newestMinute >= 0) {
                SQLite::bind(progress, nodeRowId, newestMinute);
                progress.exec();
                progress.reset();
            }
        }
        rollups.apply(db);
    });
}

Status HistoryStore::applyRetention(int64_t nowUnixS)
{
    // Whole days, so an hour or a day is never half kept.
    const auto cutoff = [nowUnixS](int days) {
        return (nowUnixS - int64_t{days} * 86400) / 86400 * 86400;
    };
    const int64_t minuteCutoff = cutoff(m_retention.minuteDays);
    const int64_t hourCutoff = cutoff(m_retention.hourDays);
    const auto drop = [&](SQLite::Database &db) {
        SQLite::Statement dropMinutes(db,
                                      "DELETE FROM usage_minute WHERE minute_start_unix_s < ?1");
        dropMinutes.bind(1, minuteCutoff);
        dropMinutes.exec();
        SQLite::Statement dropHours(db, "DELETE FROM usage_hour WHERE hour_start_unix_s < ?1");
        dropHours.bind(1, hourCutoff);
        dropHours.exec();
        SQLite::Statement keep(db, R"(
            UPDATE kept_range SET from_unix_s = max(from_unix_s, ?2) WHERE level = ?1)");
        for (const auto &[level, from] :
             {std::pair{"minute", minuteCutoff}, {"hour", hourCutoff}}) {
            SQLite::bind(keep, level, from);
            keep.exec();
            keep.reset();
        }
    };
    return onWriterInTransaction("apply retention", drop, [&] {
        m_minuteHorizon = std::max(m_minuteHorizon, minuteCutoff);
    });
}

Status HistoryStore::recordLeases(const std::vector<CloudLease> &leases)
{
    return onWriterInTransaction("record cloud leases", [&](SQLite::Database &db) {
        SQLite::Statement lease(db, R"(
            INSERT OR REPLACE INTO cloud_lease VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10))");
        SQLite::Statement node(db, "INSERT OR IGNORE INTO cloud_lease_node VALUES (?1, ?2)");
        for (const CloudLease &l : leases) {
            SQLite::bind(lease, l.leaseId, l.region, l.cardModel, l.requestedBy,
                         static_cast<int64_t>(l.nodes), static_cast<int64_t>(l.cardsPerNode),
                         l.cnyPerCardHour, l.billingIncrementSeconds, l.createdUnixS);
            bindOptional(lease, 10, l.releasedUnixS);
            lease.exec();
            lease.reset();
            for (const std::string &nodeId : l.nodeIds) {
                SQLite::bind(node, l.leaseId, nodeId);
                node.exec();
                node.reset();
            }
        }
    });
}

Status HistoryStore::recordPrices(const PriceBook &prices)
{
    return onWriterInTransaction("record prices", [&](SQLite::Database &db) {
        db.exec("DELETE FROM price_rule; DELETE FROM contract;");
        SQLite::Statement rule(db, "INSERT INTO price_rule VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        for (const PriceRule &r : prices.rules()) {
            SQLite::bind(
                rule, r.model,
                r.vendor == Vendor::Unknown ? std::string() : std::string(vendorName(r.vendor)),
                r.dataCenter, r.cnyPerCardHour, r.fromUnixS);
            bindOptional(rule, 6, r.toUnixS);
            rule.exec();
            rule.reset();
        }
        SQLite::Statement contract(db, "INSERT INTO contract VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        for (const Contract &c : prices.contracts()) {
            SQLite::bind(contract, c.customer, c.dataCenter, c.nodeId, c.model, c.fromUnixS,
                         c.toUnixS, c.discountPercent);
            contract.exec();
            contract.reset();
        }
    });
}

int64_t HistoryStore::lastMinute(const std::string &nodeId)
{
    std::lock_guard lock(m_readerMutex);
    try {
        SQLite::Statement query(*m_reader, R"(
            SELECT coalesce(max(p.last_minute_unix_s), 0) FROM node_progress p
            JOIN node n ON n.id = p.node WHERE n.node_id = ?1)");
        query.bind(1, nodeId);
        query.executeStep();
        const int64_t horizon =
            m_reader->execAndGet("SELECT from_unix_s FROM kept_range WHERE level = 'minute'")
                .getInt64();
        return std::max(query.getColumn(0).getInt64(), horizon);
    } catch (const SQLite::Exception &) {
        return 0;  // then the backfill fetches everything the agent has: still no double count
    }
}

int64_t HistoryStore::minuteCount()
{
    std::lock_guard lock(m_readerMutex);
    return m_reader->execAndGet("SELECT count(*) FROM usage_minute").getInt64();
}

}  // namespace meridian
