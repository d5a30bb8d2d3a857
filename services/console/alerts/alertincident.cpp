#include "alertincident.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>

#include "alert.h"

namespace meridian {

AlertIncident incidentOf(const Alert &alert, int64_t sentMs)
{
    AlertIncident incident;
    incident.alertKey = alert.key;
    incident.kind = alertKindName(alert.kind);
    incident.severity = alert.severity == AlertSeverity::Critical ? "critical" : "warning";
    incident.dataCenter = alert.dataCenter;
    incident.subject = alert.subject;
    incident.startedMs = alert.activeSinceMs;
    incident.sentMs = sentMs;
    return incident;
}

void insertIncidentLocked(SQLite::Database &db, const AlertIncident &incident)
{
    SQLite::Statement insert(db, R"(
        INSERT OR IGNORE INTO alert_incident
            (alert_key, kind, severity, data_center, subject, started_unix_ms, sent_unix_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?))");
    SQLite::bind(insert, incident.alertKey, incident.kind, incident.severity, incident.dataCenter,
                 incident.subject, incident.startedMs, incident.sentMs);
    insert.exec();
}

void acknowledgeIncidentLocked(SQLite::Database &db, const std::string &alertKey,
                               const std::string &who, int64_t atMs)
{
    SQLite::Statement update(db, R"(
        UPDATE alert_incident SET acknowledged_unix_ms = ?, acknowledged_by = ?
        WHERE alert_key = ? AND resolved_unix_ms IS NULL AND acknowledged_unix_ms IS NULL)");
    SQLite::bind(update, atMs, who, alertKey);
    update.exec();
}

void resolveIncidentLocked(SQLite::Database &db, const std::string &alertKey, int64_t atMs)
{
    SQLite::Statement update(db, R"(
        UPDATE alert_incident SET resolved_unix_ms = ?
        WHERE alert_key = ? AND resolved_unix_ms IS NULL)");
    SQLite::bind(update, atMs, alertKey);
    update.exec();
}

namespace {

constexpr const char *kIncidentColumns = R"(
        SELECT alert_key, kind, severity, data_center, subject, started_unix_ms, sent_unix_ms,
               acknowledged_unix_ms, acknowledged_by, resolved_unix_ms FROM alert_incident )";

std::vector<AlertIncident> readIncidents(SQLite::Statement &query)
{
    std::vector<AlertIncident> out;
    while (query.executeStep()) {
        AlertIncident i;
        i.alertKey = query.getColumn(0).getString();
        i.kind = query.getColumn(1).getString();
        i.severity = query.getColumn(2).getString();
        i.dataCenter = query.getColumn(3).getString();
        i.subject = query.getColumn(4).getString();
        i.startedMs = query.getColumn(5).getInt64();
        i.sentMs = query.getColumn(6).getInt64();
        if (!query.getColumn(7).isNull())
            i.acknowledgedMs = query.getColumn(7).getInt64();
        i.acknowledgedBy = query.getColumn(8).getString();
        if (!query.getColumn(9).isNull())
            i.resolvedMs = query.getColumn(9).getInt64();
        out.push_back(std::move(i));
    }
    return out;
}

}  // namespace

std::vector<AlertIncident> incidentsOpenAtLocked(SQLite::Database &db, int64_t atMs,
                                                 int64_t lookBackMs)
{
    // Sent is at or after started: the index on sent bounds the scan to the look-back.
    SQLite::Statement query(db, std::string(kIncidentColumns) + R"(
        WHERE sent_unix_ms >= ? AND started_unix_ms <= ?
          AND (resolved_unix_ms IS NULL OR resolved_unix_ms > ?)
        ORDER BY started_unix_ms, id)");
    SQLite::bind(query, atMs - lookBackMs, atMs, atMs);
    return readIncidents(query);
}

std::vector<AlertIncident> incidentsLocked(SQLite::Database &db, int64_t fromMs, int64_t toMs)
{
    SQLite::Statement query(db, std::string(kIncidentColumns) + R"(
        WHERE sent_unix_ms >= ? AND sent_unix_ms < ? ORDER BY sent_unix_ms, id)");
    SQLite::bind(query, fromMs, toMs);
    return readIncidents(query);
}

}  // namespace meridian
