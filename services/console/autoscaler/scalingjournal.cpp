#include "scalingjournal.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include "history/historyschema.h"
#include "sqlite/sqlitewriter.h"

namespace meridian {

Result<std::unique_ptr<ScalingJournal>> ScalingJournal::open(const std::string &historyFile)
{
    return openFile(historyFile, historySchema());
}

Result<std::unique_ptr<ScalingJournal>> ScalingJournal::openOwn(const std::string &journalFile)
{
    return openFile(journalFile, scalingJournalSchema());
}

Result<std::unique_ptr<ScalingJournal>> ScalingJournal::openFile(const std::string &path,
                                                                 const SqliteSchema &schema)
{
    auto db = openSqliteFile(path, schema);
    if (!db)
        return db.error();
    // Every step must be on disk before the call it stands for is made.
    db.value()->exec("PRAGMA synchronous = FULL");
    return std::unique_ptr<ScalingJournal>(new ScalingJournal(std::move(db).value(), path));
}

ScalingJournal::ScalingJournal(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_connection(std::move(db)), m_path(std::move(path))
{}

ScalingJournal::ScalingJournal(SqliteWriter &writer, std::string path)
    : m_connection(writer), m_path(std::move(path))
{}

std::unique_ptr<ScalingJournal> ScalingJournal::onWriter(SqliteWriter &history)
{
    return std::unique_ptr<ScalingJournal>(new ScalingJournal(history, history.path()));
}

class ScalingJournal::DurableWrite {
public:
    DurableWrite(SQLite::Database &db, const SqliteConnection &connection)
        : m_db(connection.onSharedWriter() ? &db : nullptr)
    {
        if (m_db)
            m_db->exec("PRAGMA synchronous = FULL");
    }
    ~DurableWrite()
    {
        try {
            if (m_db)
                m_db->exec("PRAGMA synchronous = NORMAL");
        } catch (const SQLite::Exception &) {
            // The history's batches then commit durably too: slower, never less safe.
        }
    }

private:
    SQLite::Database *m_db;  // null on a connection of the journal's own (always FULL)
};

ScalingJournal::~ScalingJournal() = default;

Result<int64_t> ScalingJournal::addStep(const JournalStep &step, const std::string &requestedBy,
                                        const std::string &reason, int64_t nowUnixMs)
{
    try {
        int64_t id = 0;
        m_connection.run([&](SQLite::Database &db) {
            const DurableWrite durable(db, m_connection);
            SQLite::Statement insert(db, R"(
                INSERT INTO scaling_step (service, idempotency_key, state, offer_id, lease_id,
                    node_id, requested_by, reason, created_unix_ms, updated_unix_ms, cny_per_hour)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10))");
            SQLite::bind(insert, step.service, step.idempotencyKey,
                         std::string(stepStateName(step.state)), step.offerId, step.leaseId,
                         step.nodeId, requestedBy, reason, nowUnixMs, step.cnyPerHour);
            insert.exec();
            id = db.getLastInsertRowid();
            if (m_stepObserver)
                m_stepObserver(id, step.state);
        });
        return id;
    } catch (const SQLite::Exception &e) {
        return Error{
            fmt::format("{}: cannot journal step {}: {}", m_path, step.idempotencyKey, e.what())};
    }
}

Status ScalingJournal::moveStep(int64_t id, StepState state, const std::string &leaseId,
                                const std::string &nodeId, int64_t nowUnixMs)
{
    try {
        bool found = false;
        m_connection.run([&](SQLite::Database &db) {
            const DurableWrite durable(db, m_connection);
            SQLite::Statement update(db, R"(
                UPDATE scaling_step SET state = ?2,
                    lease_id = CASE WHEN ?3 = '' THEN lease_id ELSE ?3 END,
                    node_id = CASE WHEN ?4 = '' THEN node_id ELSE ?4 END,
                    updated_unix_ms = ?5
                WHERE id = ?1)");
            SQLite::bind(update, id, std::string(stepStateName(state)), leaseId, nodeId, nowUnixMs);
            found = update.exec() == 1;
            if (found && m_stepObserver)
                m_stepObserver(id, state);
        });
        if (!found)
            return Error{fmt::format("{}: no scaling step {}", m_path, id)};
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot move scaling step {}: {}", m_path, id, e.what())};
    }
}

void ScalingJournal::setStepObserver(std::function<void(int64_t, StepState)> observer)
{
    // Set where it is called, so no write is half way through an observer being replaced.
    m_connection.run([&](SQLite::Database &) { m_stepObserver = std::move(observer); });
}

Status ScalingJournal::setSetting(const std::string &name, const std::string &value,
                                  int64_t nowUnixMs)
{
    try {
        m_connection.run([&](SQLite::Database &db) {
            const DurableWrite durable(db, m_connection);
            SQLite::Statement upsert(db, R"(
                INSERT INTO controller_setting (name, value, updated_unix_ms) VALUES (?1, ?2, ?3)
                ON CONFLICT (name) DO UPDATE SET value = ?2, updated_unix_ms = ?3)");
            SQLite::bind(upsert, name, value, nowUnixMs);
            upsert.exec();
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot keep the setting {}: {}", m_path, name, e.what())};
    }
}

Result<std::optional<std::string>> ScalingJournal::setting(const std::string &name)
{
    try {
        std::optional<std::string> value;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement query(db, "SELECT value FROM controller_setting WHERE name = ?1");
            query.bind(1, name);
            if (query.executeStep())
                value = query.getColumn(0).getString();
        });
        return value;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read the setting {}: {}", m_path, name, e.what())};
    }
}

namespace {

// The steps a WHERE clause picks, read on a connection of the caller's.
Result<std::vector<JournalStep>> readSteps(SQLite::Database &db, const std::string &where,
                                           const std::string &path)
{
    std::vector<JournalStep> out;
    SQLite::Statement query(db, fmt::format(R"(
        SELECT id, service, idempotency_key, state, offer_id, lease_id, node_id,
               updated_unix_ms, created_unix_ms, cny_per_hour, requested_by, reason
        FROM scaling_step {})",
                                            where));
    while (query.executeStep()) {
        JournalStep s;
        s.id = query.getColumn(0).getInt64();
        s.service = query.getColumn(1).getString();
        s.idempotencyKey = query.getColumn(2).getString();
        const auto state = stepStateFromName(query.getColumn(3).getString());
        if (!state) {
            return Error{fmt::format("{}: scaling step {} has an unknown state '{}'", path, s.id,
                                     query.getColumn(3).getString())};
        }
        s.state = *state;
        s.offerId = query.getColumn(4).getString();
        s.leaseId = query.getColumn(5).getString();
        s.nodeId = query.getColumn(6).getString();
        s.updatedUnixMs = query.getColumn(7).getInt64();
        s.createdUnixMs = query.getColumn(8).getInt64();
        s.cnyPerHour = query.getColumn(9).getDouble();
        s.requestedBy = query.getColumn(10).getString();
        s.reason = query.getColumn(11).getString();
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

Result<std::vector<JournalStep>> ScalingJournal::steps(const char *where)
{
    try {
        Result<std::vector<JournalStep>> out = std::vector<JournalStep>{};
        m_connection.run([&](SQLite::Database &db) { out = readSteps(db, where, m_path); });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read the scaling journal: {}", m_path, e.what())};
    }
}

Result<std::vector<JournalStep>> journalStepsCreatedBetween(SQLite::Database &db, int64_t fromMs,
                                                            int64_t toMs, size_t count)
{
    try {
        return readSteps(db,
                         fmt::format("WHERE created_unix_ms >= {} AND created_unix_ms < {} "
                                     "ORDER BY created_unix_ms DESC, id DESC LIMIT {}",
                                     fromMs, toMs, count),
                         db.getFilename());
    } catch (const SQLite::Exception &e) {
        return Error{
            fmt::format("{}: cannot read the scaling journal: {}", db.getFilename(), e.what())};
    }
}

Result<std::vector<JournalStep>> ScalingJournal::openSteps()
{
    return steps("WHERE state NOT IN ('done', 'failed', 'rejected', 'superseded') ORDER BY id");
}

Result<std::vector<JournalStep>> ScalingJournal::recentSteps(size_t count)
{
    return steps(fmt::format("WHERE id IN (SELECT id FROM scaling_step ORDER BY id DESC LIMIT {}) "
                             "ORDER BY id",
                             count)
                     .c_str());
}

Status ScalingJournal::audit(const AuditEntry &entry)
{
    try {
        m_connection.run([&](SQLite::Database &db) {
            const DurableWrite durable(db, m_connection);
            SQLite::Statement insert(db,
                                     "INSERT INTO audit_log (at_unix_ms, who, what, why) "
                                     "VALUES (?1, ?2, ?3, ?4)");
            SQLite::bind(insert, entry.atUnixMs, entry.who, entry.what, entry.why);
            insert.exec();
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot write the audit log: {}", m_path, e.what())};
    }
}

namespace {

constexpr int64_t kDemandHoursKept = 400 * 24;  // as long as the usage roll-ups

// The hour's row made again from its minutes (a minute may be written more than once as
// it fills), and hours past the 400 days let go.
void keepDemandHourLocked(SQLite::Database &db, const std::string &service, int64_t hour)
{
    SQLite::Statement upsert(db, R"(
        INSERT INTO demand_hour (service, hour_index, arrival_rps_mean, minutes)
        SELECT ?1, ?2, avg(arrival_rps_sum / samples), count(*) FROM demand_minute
        WHERE service = ?1 AND minute_index BETWEEN ?2 * 60 AND ?2 * 60 + 59
        HAVING count(*) > 0
        ON CONFLICT (service, hour_index) DO UPDATE
        SET arrival_rps_mean = excluded.arrival_rps_mean, minutes = excluded.minutes)");
    SQLite::bind(upsert, service, hour);
    upsert.exec();
    SQLite::Statement drop(db, "DELETE FROM demand_hour WHERE service = ?1 AND hour_index < ?2");
    SQLite::bind(drop, service, hour - kDemandHoursKept);
    drop.exec();
}

}  // namespace

Status ScalingJournal::keepDemandMinute(const std::string &service, const DemandMinute &minute,
                                        int64_t keepFromIndex)
{
    try {
        // Not durable per minute: a minute lost to a crash only thins the forecast.
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Transaction tx(db);
            SQLite::Statement upsert(db, R"(
                INSERT INTO demand_minute (service, minute_index, arrival_rps_sum, samples)
                VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (service, minute_index) DO UPDATE
                SET arrival_rps_sum = excluded.arrival_rps_sum, samples = excluded.samples)");
            SQLite::bind(upsert, service, minute.index, minute.sum, minute.samples);
            upsert.exec();
            // The hour first, while its minutes are all there.
            keepDemandHourLocked(db, service, minute.index / 60);
            SQLite::Statement drop(
                db, "DELETE FROM demand_minute WHERE service = ?1 AND minute_index < ?2");
            SQLite::bind(drop, service, keepFromIndex);
            drop.exec();
            tx.commit();
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot keep {}'s demand for the daily forecast: {}", m_path,
                                 service, e.what())};
    }
}

Result<std::vector<DemandMinute>> ScalingJournal::demandMinutes(const std::string &service,
                                                                int64_t fromIndex)
{
    try {
        std::vector<DemandMinute> out;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement query(db, R"(
                SELECT minute_index, arrival_rps_sum, samples FROM demand_minute
                WHERE service = ?1 AND minute_index >= ?2 ORDER BY minute_index)");
            SQLite::bind(query, service, fromIndex);
            while (query.executeStep()) {
                out.push_back({query.getColumn(0).getInt64(), query.getColumn(1).getDouble(),
                               query.getColumn(2).getInt()});
            }
        });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{
            fmt::format("{}: cannot read {}'s kept demand: {}", m_path, service, e.what())};
    }
}

Result<std::vector<AuditEntry>> ScalingJournal::recentAudit(size_t count)
{
    try {
        std::vector<AuditEntry> out;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement query(db, R"(
                SELECT at_unix_ms, who, what, why FROM (
                    SELECT * FROM audit_log ORDER BY id DESC LIMIT ?1) ORDER BY id)");
            query.bind(1, static_cast<int64_t>(count));
            while (query.executeStep()) {
                out.push_back({query.getColumn(0).getInt64(), query.getColumn(1).getString(),
                               query.getColumn(2).getString(), query.getColumn(3).getString()});
            }
        });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read the audit log: {}", m_path, e.what())};
    }
}

}  // namespace meridian
