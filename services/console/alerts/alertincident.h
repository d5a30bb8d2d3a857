// One occurrence of an alert the receivers were told of, as the history file keeps it for
// the fault-response clock (schema 7): when it began and was sent, when and by whom it
// was acknowledged, when it resolved. Written with the delivery and the acknowledgement
// (alerttriagelog.h); read back period by period for the report (responseclock.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace meridian {

struct Alert;

struct AlertIncident {
    std::string alertKey;
    std::string kind;  // alertKindName
    std::string severity;
    std::string dataCenter;
    std::string subject;
    int64_t startedMs = 0;  // the condition began (before its pending duration)
    int64_t sentMs = 0;     // the receivers were told: the clock starts here
    std::optional<int64_t> acknowledgedMs;
    std::string acknowledgedBy;
    std::optional<int64_t> resolvedMs;
};

// The incident an alert is as it is first sent at `sentMs`.
AlertIncident incidentOf(const Alert &alert, int64_t sentMs);

// Called inside a transaction of the history file's (SqliteConnection::run).
// A new occurrence; one already recorded (another console sent it too) is kept as it was.
void insertIncidentLocked(SQLite::Database &db, const AlertIncident &incident);
// The open, unacknowledged occurrence of the alert is acknowledged.
void acknowledgeIncidentLocked(SQLite::Database &db, const std::string &alertKey,
                               const std::string &who, int64_t atMs);
// The open occurrence of the alert resolved.
void resolveIncidentLocked(SQLite::Database &db, const std::string &alertKey, int64_t atMs);
// The occurrences open at `atMs` (begun, not yet resolved), begun within `lookBackMs`
// before it (an occurrence no console saw resolve stays open for ever), oldest first.
std::vector<AlertIncident> incidentsOpenAtLocked(SQLite::Database &db, int64_t atMs,
                                                 int64_t lookBackMs);
// The occurrences sent within [fromMs, toMs), oldest first.
std::vector<AlertIncident> incidentsLocked(SQLite::Database &db, int64_t fromMs, int64_t toMs);

}  // namespace meridian
