#include "agentledger.h"

#include "sqlite/sqlitebind.h"
#include "sqlite/sqlitefile.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include <filesystem>

namespace meridian {

namespace {

// "MERI" as a 32-bit number: tells our files from anyone else's.
constexpr int kApplicationId = 1296388425;

const SqliteSchema kSchema{kApplicationId,
                           "Meridian agent ledger",
                           {R"(
    CREATE TABLE usage_minute (
        minute_start_unix_s INTEGER NOT NULL,
        card_uuid TEXT NOT NULL,
        card_index INTEGER NOT NULL,
        observed_seconds REAL NOT NULL,
        busy_seconds REAL NOT NULL,
        mean_utilization_percent REAL,
        energy_joules REAL,
        PRIMARY KEY (minute_start_unix_s, card_uuid)
    ) WITHOUT ROWID;
    CREATE TABLE event (
        sequence INTEGER PRIMARY KEY,
        time_unix_ms INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        severity INTEGER NOT NULL,
        card_index INTEGER,
        netdev TEXT NOT NULL,
        xid INTEGER,
        message TEXT NOT NULL
    );
)",
                            R"(
    -- The inference service that held the card during the minute; '' for none.
    ALTER TABLE usage_minute ADD COLUMN service TEXT NOT NULL DEFAULT '';
)",
                            R"(
    -- Workloads, idempotency answers and replica processes, as JSON by kind and key.
    CREATE TABLE node_record (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (kind, key)
    ) WITHOUT ROWID;
)"}};

}  // namespace

Result<std::unique_ptr<AgentLedger>> AgentLedger::open(const std::string &dataDir)
{
    std::error_code ec;
    std::filesystem::create_directories(dataDir, ec);
    if (ec)
        return Error{fmt::format("--data-dir {}: cannot create it: {}", dataDir, ec.message())};
    const std::string path = (std::filesystem::path(dataDir) / "agent.db").string();
    auto db = openSqliteFile(path, kSchema);
    if (!db)
        return db.error();
    return std::unique_ptr<AgentLedger>(new AgentLedger(std::move(db).value(), path));
}

AgentLedger::AgentLedger(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_db(std::move(db)), m_path(std::move(path))
{}

AgentLedger::~AgentLedger() = default;

Status AgentLedger::record(const std::vector<UsageMinute> &minutes)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Transaction tx(*m_db);
        // Merging by addition: a minute written before and after a restart adds up.
        SQLite::Statement upsert(*m_db, R"(
            INSERT INTO usage_minute VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT (minute_start_unix_s, card_uuid) DO UPDATE SET
                mean_utilization_percent = CASE
                    WHEN excluded.mean_utilization_percent IS NULL THEN mean_utilization_percent
                    WHEN mean_utilization_percent IS NULL THEN excluded.mean_utilization_percent
                    ELSE (mean_utilization_percent * observed_seconds +
                          excluded.mean_utilization_percent * excluded.observed_seconds) /
                         (observed_seconds + excluded.observed_seconds) END,
                observed_seconds = observed_seconds + excluded.observed_seconds,
                busy_seconds = busy_seconds + excluded.busy_seconds,
                energy_joules = CASE WHEN excluded.energy_joules IS NULL THEN energy_joules
                    ELSE coalesce(energy_joules, 0) + excluded.energy_joules END,
                service = CASE WHEN excluded.service = '' THEN service ELSE excluded.service END
        )");
        for (const UsageMinute &m : minutes) {
            SQLite::bind(upsert, static_cast<int64_t>(m.minuteStartUnixS), m.cardUuid,
                         static_cast<int64_t>(m.cardIndex), m.observedSeconds, m.busySeconds);
            bindOptional(upsert, 6, m.meanUtilizationPercent);
            bindOptional(upsert, 7, m.energyJoules);
            upsert.bind(8, m.service);
            upsert.exec();
            upsert.reset();
        }
        tx.commit();
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot write usage: {}", m_path, e.what())};
    }
}

Result<std::vector<UsageMinute>> AgentLedger::since(int64_t sinceMinuteUnixS, size_t limit)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement query(*m_db, R"(
            SELECT minute_start_unix_s, card_uuid, card_index, observed_seconds, busy_seconds,
                   mean_utilization_percent, energy_joules, service
            FROM usage_minute WHERE minute_start_unix_s >= ?1
            ORDER BY minute_start_unix_s, card_uuid LIMIT ?2)");
        SQLite::bind(query, static_cast<int64_t>(sinceMinuteUnixS), static_cast<int64_t>(limit));
        std::vector<UsageMinute> out;
        while (query.executeStep()) {
            UsageMinute m;
            m.minuteStartUnixS = query.getColumn(0).getInt64();
            m.cardUuid = query.getColumn(1).getString();
            m.cardIndex = static_cast<uint32_t>(query.getColumn(2).getInt());
            m.observedSeconds = query.getColumn(3).getDouble();
            m.busySeconds = query.getColumn(4).getDouble();
            m.meanUtilizationPercent = optionalDouble(query.getColumn(5));
            m.energyJoules = optionalDouble(query.getColumn(6));
            m.service = query.getColumn(7).getString();
            out.push_back(std::move(m));
        }
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read usage: {}", m_path, e.what())};
    }
}

int64_t AgentLedger::oldestMinuteUnixS()
{
    std::lock_guard lock(m_mutex);
    try {
        return m_db->execAndGet("SELECT coalesce(min(minute_start_unix_s), 0) FROM usage_minute")
            .getInt64();
    } catch (const SQLite::Exception &) {
        return 0;
    }
}

void AgentLedger::dropBefore(int64_t minuteUnixS)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement drop(*m_db, "DELETE FROM usage_minute WHERE minute_start_unix_s < ?1");
        drop.bind(1, static_cast<int64_t>(minuteUnixS));
        drop.exec();
        // The ring keeps its newest 100,000 events on disk; older ones are history.
        m_db->exec("DELETE FROM event WHERE sequence < (SELECT max(sequence) FROM event) - 100000");
    } catch (const SQLite::Exception &) {
        // Retention is best effort; the next hour tries again.
    }
}

void AgentLedger::append(const Event &event)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement insert(*m_db,
                                 "INSERT OR REPLACE INTO event VALUES (?1,?2,?3,?4,?5,?6,?7,?8)");
        SQLite::bind(insert, static_cast<int64_t>(event.sequence),
                     static_cast<int64_t>(event.timeUnixMs), static_cast<int>(event.kind),
                     static_cast<int>(event.severity));
        bindOptional(insert, 5, event.cardIndex);
        insert.bind(6, event.netdev);
        bindOptional(insert, 7, event.xid);
        insert.bind(8, event.message);
        insert.exec();
    } catch (const SQLite::Exception &) {
        // The event still reaches live subscribers; only its survival of a restart is lost.
    }
}

std::vector<Event> AgentLedger::loadRecent(size_t count)
{
    std::lock_guard lock(m_mutex);
    std::vector<Event> out;
    try {
        SQLite::Statement query(*m_db, R"(
            SELECT * FROM (SELECT sequence, time_unix_ms, kind, severity, card_index, netdev, xid,
                                  message FROM event ORDER BY sequence DESC LIMIT ?1)
            ORDER BY sequence)");
        query.bind(1, static_cast<int64_t>(count));
        while (query.executeStep()) {
            Event e;
            e.sequence = static_cast<uint64_t>(query.getColumn(0).getInt64());
            e.timeUnixMs = query.getColumn(1).getInt64();
            e.kind = static_cast<EventKind>(query.getColumn(2).getInt());
            e.severity = static_cast<Severity>(query.getColumn(3).getInt());
            if (!query.getColumn(4).isNull())
                e.cardIndex = static_cast<uint32_t>(query.getColumn(4).getInt());
            e.netdev = query.getColumn(5).getString();
            if (!query.getColumn(6).isNull())
                e.xid = static_cast<uint32_t>(query.getColumn(6).getInt());
            e.message = query.getColumn(7).getString();
            out.push_back(std::move(e));
        }
    } catch (const SQLite::Exception &) {
    }
    return out;
}

Status AgentLedger::put(const std::string &kind, const std::string &key, const std::string &value)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement upsert(*m_db, "INSERT OR REPLACE INTO node_record VALUES (?1, ?2, ?3)");
        SQLite::bind(upsert, kind, key, value);
        upsert.exec();
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot keep {} {}: {}", m_path, kind, key, e.what())};
    }
}

Status AgentLedger::remove(const std::string &kind, const std::string &key)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement drop(*m_db, "DELETE FROM node_record WHERE kind = ?1 AND key = ?2");
        SQLite::bind(drop, kind, key);
        drop.exec();
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot forget {} {}: {}", m_path, kind, key, e.what())};
    }
}

Result<std::vector<std::pair<std::string, std::string>>> AgentLedger::all(const std::string &kind)
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement query(*m_db,
                                "SELECT key, value FROM node_record WHERE kind = ?1 ORDER BY key");
        query.bind(1, kind);
        std::vector<std::pair<std::string, std::string>> out;
        while (query.executeStep())
            out.emplace_back(query.getColumn(0).getString(), query.getColumn(1).getString());
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read {} records: {}", m_path, kind, e.what())};
    }
}

}  // namespace meridian
