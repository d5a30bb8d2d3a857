#include "historystore.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <utility>

#include "core/userdirs.h"
#include "historyschema.h"
#include "rollupdeltas.h"
#include "sqlite/sqlitebind.h"
#include "sqlite/sqlitefile.h"
#include "sqlite/sqlitewriterthread.h"

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
    : m_reader(std::move(reader)), m_path(std::move(path)), m_retention(retention)
{
    // A month of roll-ups for 6,000 cards is tens of MB: keep the hot pages in memory.
    for (SQLite::Database *db : {writer.get(), m_reader.get()})
        db->exec("PRAGMA cache_size = -32768");
    m_minuteHorizon =
        writer->execAndGet("SELECT from_unix_s FROM kept_range WHERE level = 'minute'").getInt64();
    m_writer = std::make_unique<SqliteWriterThread>(std::move(writer), m_path);
}

HistoryStore::~HistoryStore()
{
    m_writer.reset();  // writes what was submitted first: nothing is lost on a clean exit
}

void HistoryStore::submit(UsageBatch batch)
{
    bool post = false;
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_queue.size() < kQueueLimit; });
        m_queue.push_back(std::move(batch));
        ++m_submitted;
        post = !std::exchange(m_writePosted, true);
    }
    if (post)
        m_writer->post([this](SQLite::Database &db) { writeQueued(db); });
}

Status HistoryStore::flush()
{
    std::unique_lock lock(m_mutex);
    const uint64_t target = m_submitted;
    m_changed.wait(lock, [&] { return m_written >= target; });
    return std::exchange(m_firstError, Status{});
}

void HistoryStore::writeQueued(SQLite::Database &db)
{
    std::vector<UsageBatch> batches;
    {
        std::lock_guard lock(m_mutex);
        while (!m_queue.empty() && batches.size() < kBatchesPerTransaction) {
            batches.push_back(std::move(m_queue.front()));
            m_queue.pop_front();
        }
    }
    m_changed.notify_all();  // room in the queue
    Status status = write(db, batches);
    bool more = false;
    {
        std::lock_guard lock(m_mutex);
        m_written += batches.size();
        if (!status && m_firstError.ok())
            m_firstError = status;
        // The rest in a job of its own, so urgent work waiting meanwhile goes first.
        more = m_writePosted = !m_queue.empty();
    }
    m_changed.notify_all();
    if (more)
        m_writer->post([this](SQLite::Database &next) { writeQueued(next); });
}

void HistoryStore::runOnWriter(const std::function<void(SQLite::Database &)> &work)
{
    m_writer->runOnWriter(work);
}

int64_t HistoryStore::serviceId(SQLite::Database &db, const std::string &name)
{
    if (name.empty())
        return 0;
    if (const auto it = m_serviceIds.find(name); it != m_serviceIds.end())
        return it->second;
    SQLite::Statement upsert(db, R"(
        INSERT INTO service (name) VALUES (?1)
        ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id)");
    upsert.bind(1, name);
    upsert.executeStep();
    return m_serviceIds[name] = upsert.getColumn(0).getInt64();
}

int64_t HistoryStore::nodeRow(SQLite::Database &db, const NodeInventory &node)
{
    const auto known = m_nodeRows.find(node.nodeId);
    if (known != m_nodeRows.end() && known->second.dataCenter == node.dataCenter &&
        known->second.rack == node.rack && known->second.hostname == node.hostname)
        return known->second.row;
    SQLite::Statement upsert(db, R"(
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

int64_t HistoryStore::cardRow(SQLite::Database &db, const CardInfo &card, int64_t nodeRow)
{
    const auto known = m_cardRows.find(card.uuid);
    if (known != m_cardRows.end() && known->second.nodeRow == nodeRow &&
        known->second.index == card.index && known->second.vendor == card.vendor &&
        known->second.model == card.model)
        return known->second.row;
    SQLite::Statement upsert(db, R"(
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

namespace {

// The statements a transaction of usage reuses for every minute.
struct MinuteStatements {
    explicit MinuteStatements(SQLite::Database &db)
        : insertNew(db, R"(
            INSERT OR IGNORE INTO usage_minute (card, minute_start_unix_s, observed_seconds,
                busy_seconds, mean_utilization_percent, energy_joules, service)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7))")
        , previous(db, R"(
            SELECT observed_seconds, busy_seconds, mean_utilization_percent, energy_joules, service
            FROM usage_minute WHERE card = ?1 AND minute_start_unix_s = ?2)")
        , replace(db, R"(
            UPDATE usage_minute SET observed_seconds = ?3, busy_seconds = ?4,
                mean_utilization_percent = ?5, energy_joules = ?6, service = ?7
            WHERE card = ?1 AND minute_start_unix_s = ?2)")
        , progress(db, R"(
            INSERT INTO node_progress VALUES (?1, ?2) ON CONFLICT (node) DO UPDATE
            SET last_minute_unix_s = max(last_minute_unix_s, excluded.last_minute_unix_s))")
    {}
    SQLite::Statement insertNew;
    SQLite::Statement previous;
    SQLite::Statement replace;
    SQLite::Statement progress;
};

// Writes one card's minute, new or again; its roll-up changes go to `rollups`.
void writeMinute(MinuteStatements &sql, int64_t cardRow, int64_t service, const UsageMinute &m,
                 RollupDeltas &rollups)
{
    const MinuteFigures figures{m.observedSeconds, m.busySeconds, m.meanUtilizationPercent,
                                m.energyJoules};
    const auto bindMinute = [&](SQLite::Statement &statement) {
        SQLite::bind(statement, cardRow, static_cast<int64_t>(m.minuteStartUnixS),
                     m.observedSeconds, m.busySeconds);
        bindOptional(statement, 5, m.meanUtilizationPercent);
        bindOptional(statement, 6, m.energyJoules);
        statement.bind(7, service);
    };
    bindMinute(sql.insertNew);
    const int inserted = sql.insertNew.exec();
    sql.insertNew.reset();
    if (inserted == 1) {
        rollups.add(cardRow, m.minuteStartUnixS, service, figures, +1);
        return;
    }
    // Written before: the agent's newer word replaces it, in the roll-ups too.
    SQLite::bind(sql.previous, cardRow, static_cast<int64_t>(m.minuteStartUnixS));
    if (!sql.previous.executeStep()) {
        sql.previous.reset();
        return;  // refused by a constraint (a NaN from a broken agent)
    }
    const MinuteFigures old{
        sql.previous.getColumn(0).getDouble(), sql.previous.getColumn(1).getDouble(),
        optionalDouble(sql.previous.getColumn(2)), optionalDouble(sql.previous.getColumn(3))};
    const int64_t oldService = sql.previous.getColumn(4).getInt64();
    sql.previous.reset();
    rollups.add(cardRow, m.minuteStartUnixS, oldService, old, -1);
    bindMinute(sql.replace);
    sql.replace.exec();
    sql.replace.reset();
    rollups.add(cardRow, m.minuteStartUnixS, service, figures, +1);
}

}  // namespace

Status HistoryStore::write(SQLite::Database &db, const std::vector<UsageBatch> &batches)
{
    try {
        SQLite::Transaction transaction(db);
        MinuteStatements sql(db);
        RollupDeltas rollups;
        for (const UsageBatch &batch : batches) {
            const int64_t nodeRowId = nodeRow(db, batch.node);
            std::map<std::string, int64_t> cardRows;
            for (const CardInfo &info : batch.node.cards)
                cardRows[info.uuid] = cardRow(db, info, nodeRowId);
            int64_t newestMinute = -1;
            for (const UsageMinute &m : batch.minutes) {
                const auto row = cardRows.find(m.cardUuid);
                if (row == cardRows.end())
                    continue;  // a card the inventory does not name: nothing to bill it to
                if (m.minuteStartUnixS < m_minuteHorizon)
                    continue;  // its day is final: the other minutes of it are gone
                newestMinute = std::max(newestMinute, m.minuteStartUnixS);
                writeMinute(sql, row->second, serviceId(db, m.service), m, rollups);
            }
            if (newestMinute >= 0) {
                SQLite::bind(sql.progress, nodeRowId, newestMinute);
                sql.progress.exec();
                sql.progress.reset();
            }
        }
        rollups.apply(db);
        transaction.commit();
        return {};
    } catch (const SQLite::Exception &e) {
        // Rows written in the rolled-back transaction are gone again.
        m_serviceIds.clear();
        m_nodeRows.clear();
        m_cardRows.clear();
        return Error{fmt::format("{}: cannot write usage: {}", m_path, e.what())};
    }
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
    try {
        runOnWriter([&](SQLite::Database &db) {
            SQLite::Transaction transaction(db);
            drop(db);
            transaction.commit();
            // In the same turn of the writer, before any later usage: minutes before
            // the cut are final now.
            m_minuteHorizon = std::max(m_minuteHorizon, minuteCutoff);
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot apply retention: {}", m_path, e.what())};
    }
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
