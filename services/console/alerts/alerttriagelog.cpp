#include "alerttriagelog.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "history/historyschema.h"
#include "sqlite/sqlitewriter.h"

namespace meridian {

namespace {

const char *actionName(TriageAction::Kind kind)
{
    return kind == TriageAction::Kind::Acknowledge ? "acknowledge" : "note";
}

}  // namespace

Result<std::unique_ptr<AlertTriageLog>> AlertTriageLog::open(const std::string &historyFile)
{
    auto db = openSqliteFile(historyFile, historySchema());
    if (!db)
        return db.error();
    return std::unique_ptr<AlertTriageLog>(new AlertTriageLog(std::move(db).value(), historyFile));
}

AlertTriageLog::AlertTriageLog(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_connection(std::move(db)), m_path(std::move(path))
{}

AlertTriageLog::AlertTriageLog(SqliteWriter &writer, std::string path)
    : m_connection(writer), m_path(std::move(path))
{}

std::unique_ptr<AlertTriageLog> AlertTriageLog::onWriter(SqliteWriter &history)
{
    return std::unique_ptr<AlertTriageLog>(new AlertTriageLog(history, history.path()));
}

AlertTriageLog::~AlertTriageLog() = default;

Status AlertTriageLog::record(const TriageAction &action)
{
    try {
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement insert(db, R"(
                INSERT INTO alert_action (at_unix_ms, alert_key, action, who, text)
                VALUES (?, ?, ?, ?, ?))");
            SQLite::bind(insert, action.atUnixMs, action.alertKey, actionName(action.kind),
                         action.who, action.text);
            insert.exec();
            const bool ack = action.kind == TriageAction::Kind::Acknowledge;
            if (ack)
                acknowledgeIncidentLocked(db, action.alertKey, action.who, action.atUnixMs);
            auditLocked(db, action.atUnixMs, action.who,
                        fmt::format("{} alert {}", ack ? "acknowledged" : "noted", action.alertKey),
                        ack ? std::string() : action.text);
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot record the {} of alert {}: {}", m_path,
                                 actionName(action.kind), action.alertKey, e.what())};
    }
}

Result<std::vector<TriageAction>> AlertTriageLog::actionsAfter(int64_t lastId)
{
    try {
        std::vector<TriageAction> out;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement query(db, R"(
                SELECT id, at_unix_ms, alert_key, action, who, text FROM alert_action
                WHERE id > ? ORDER BY id)");
            query.bind(1, lastId);
            while (query.executeStep()) {
                TriageAction a;
                a.id = query.getColumn(0).getInt64();
                a.atUnixMs = query.getColumn(1).getInt64();
                a.alertKey = query.getColumn(2).getString();
                a.kind = query.getColumn(3).getString() == "note" ? TriageAction::Kind::Note
                                                                  : TriageAction::Kind::Acknowledge;
                a.who = query.getColumn(4).getString();
                a.text = query.getColumn(5).getString();
                out.push_back(std::move(a));
            }
        });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read alert acknowledgements: {}", m_path, e.what())};
    }
}

Result<int64_t> AlertTriageLog::addSilence(const SilenceRule &rule, int64_t nowUnixMs)
{
    try {
        int64_t id = 0;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement insert(db, R"(
                INSERT INTO alert_silence (created_unix_ms, alert_key, kind, node, data_center,
                    until_unix_ms, who, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?))");
            SQLite::bind(insert, nowUnixMs, rule.alertKey,
                         rule.kind ? alertKindName(*rule.kind) : "", rule.node, rule.dataCenter,
                         rule.untilMs, rule.by, rule.reason);
            insert.exec();
            id = db.getLastInsertRowid();
            auditLocked(db, nowUnixMs, rule.by,
                        fmt::format("silenced {} (silence {})", silenceScope(rule), id),
                        rule.reason);
        });
        return id;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot record a silence: {}", m_path, e.what())};
    }
}

Status AlertTriageLog::liftSilence(int64_t id, int64_t nowUnixMs, const std::string &who)
{
    try {
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement update(db,
                                     "UPDATE alert_silence SET lifted_unix_ms = ? "
                                     "WHERE id = ? AND lifted_unix_ms IS NULL");
            SQLite::bind(update, nowUnixMs, id);
            if (update.exec() > 0)
                auditLocked(db, nowUnixMs, who, fmt::format("lifted silence {}", id), {});
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot lift silence {}: {}", m_path, id, e.what())};
    }
}

Result<int64_t> AlertTriageLog::forgetBefore(int64_t cutoffUnixMs)
{
    static constexpr const char *kForget[] = {
        "DELETE FROM alert_action WHERE at_unix_ms < ?1",
        "DELETE FROM alert_silence WHERE until_unix_ms < ?1 OR lifted_unix_ms < ?1",
        "DELETE FROM alert_incident WHERE resolved_unix_ms < ?1",
        "DELETE FROM audit_log WHERE at_unix_ms < ?1",
    };
    try {
        int64_t forgotten = 0;
        m_connection.run([&](SQLite::Database &db) {
            for (const char *sql : kForget) {
                SQLite::Statement forget(db, sql);
                forget.bind(1, static_cast<int64_t>(cutoffUnixMs));
                forgotten += forget.exec();
            }
        });
        return forgotten;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot forget the triage before {}: {}", m_path, cutoffUnixMs,
                                 e.what())};
    }
}

Status AlertTriageLog::audit(int64_t atUnixMs, const std::string &who, const std::string &what,
                             const std::string &why)
{
    try {
        m_connection.run([&](SQLite::Database &db) { auditLocked(db, atUnixMs, who, what, why); });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot audit '{}': {}", m_path, what, e.what())};
    }
}

void AlertTriageLog::auditLocked(SQLite::Database &db, int64_t atUnixMs, const std::string &who,
                                 const std::string &what, const std::string &why)
{
    SQLite::Statement insert(
        db, "INSERT INTO audit_log (at_unix_ms, who, what, why) VALUES (?, ?, ?, ?)");
    SQLite::bind(insert, atUnixMs, who, what, why);
    insert.exec();
}

std::string silenceScope(const SilenceRule &rule)
{
    std::vector<std::string> parts;
    if (!rule.alertKey.empty())
        parts.push_back("alert " + rule.alertKey);
    if (rule.kind)
        parts.push_back(alertKindName(*rule.kind));
    if (!rule.node.empty())
        parts.push_back("on " + rule.node);
    if (!rule.dataCenter.empty())
        parts.push_back("in " + rule.dataCenter);
    if (parts.empty() && !rule.matchers.empty())
        return rule.matchersText();
    return parts.empty() ? std::string("everything") : fmt::format("{}", fmt::join(parts, " "));
}

Status AlertTriageLog::recordDelivery(const std::string &alertKey, bool firing, int64_t nowUnixMs,
                                      const std::optional<AlertIncident> &started)
{
    try {
        m_connection.run([&](SQLite::Database &db) {
            if (firing) {
                SQLite::Statement insert(db,
                                         "INSERT OR REPLACE INTO alert_delivery "
                                         "(alert_key, firing_sent_unix_ms) VALUES (?, ?)");
                SQLite::bind(insert, alertKey, nowUnixMs);
                insert.exec();
                if (started)
                    insertIncidentLocked(db, *started);
            } else {
                SQLite::Statement remove(db, "DELETE FROM alert_delivery WHERE alert_key = ?");
                remove.bind(1, alertKey);
                remove.exec();
                resolveIncidentLocked(db, alertKey, nowUnixMs);
            }
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot record what was sent of alert {}: {}", m_path,
                                 alertKey, e.what())};
    }
}

Result<std::vector<AlertIncident>> AlertTriageLog::incidents(int64_t fromMs, int64_t toMs)
{
    try {
        std::vector<AlertIncident> out;
        m_connection.run([&](SQLite::Database &db) { out = incidentsLocked(db, fromMs, toMs); });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{
            fmt::format("{}: cannot read the alerts' response times: {}", m_path, e.what())};
    }
}

Result<std::set<std::string>> AlertTriageLog::firingDelivered()
{
    try {
        std::set<std::string> out;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement query(db, "SELECT alert_key FROM alert_delivery");
            while (query.executeStep())
                out.insert(query.getColumn(0).getString());
        });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read which alerts were sent: {}", m_path, e.what())};
    }
}

Result<std::vector<SilenceRule>> AlertTriageLog::activeSilences(int64_t nowUnixMs)
{
    try {
        std::vector<SilenceRule> out;
        m_connection.run([&](SQLite::Database &db) {
            SQLite::Statement query(db, R"(
                SELECT id, alert_key, kind, node, data_center, until_unix_ms, who, reason
                FROM alert_silence WHERE until_unix_ms > ? AND lifted_unix_ms IS NULL
                ORDER BY id)");
            query.bind(1, nowUnixMs);
            while (query.executeStep()) {
                SilenceRule r;
                r.id = query.getColumn(0).getInt64();
                r.alertKey = query.getColumn(1).getString();
                const std::string kind = query.getColumn(2).getString();
                if (!kind.empty()) {
                    r.kind = alertKindFromName(kind);
                    if (!r.kind)
                        continue;  // a kind this console does not know: it cannot match
                }
                r.node = query.getColumn(3).getString();
                r.dataCenter = query.getColumn(4).getString();
                r.untilMs = query.getColumn(5).getInt64();
                r.by = query.getColumn(6).getString();
                r.reason = query.getColumn(7).getString();
                out.push_back(std::move(r));
            }
        });
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read silences: {}", m_path, e.what())};
    }
}

}  // namespace meridian
