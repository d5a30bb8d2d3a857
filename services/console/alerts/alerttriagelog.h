// What people did about alerts, in the history file: acknowledgements and notes with who
// and when, and silences. Every console on the same file reads them back, so the night
// shift and the day shift see one triage. Thread-safe. In a console it writes on the
// history file's writer thread (onWriter); opened on a file, it has its own connection.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "alert.h"
#include "alertincident.h"
#include "core/result.h"
#include "sqlite/sqliteconnection.h"

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteWriter;

struct TriageAction {
    enum class Kind { Acknowledge, Note };
    int64_t id = 0;  // increasing: read on from the last one seen
    int64_t atUnixMs = 0;
    std::string alertKey;
    Kind kind = Kind::Acknowledge;
    std::string who;
    std::string text;  // the note
};

// How long what ended stays in the file: as long as the usage's hourly roll-ups.
constexpr int64_t kTriageKeptMs = 400LL * 24 * 3600'000;

class AlertTriageLog final {
public:
    // On the history file's writer thread (the history store's), in turn with the usage
    // minutes. `history` must outlive it.
    static std::unique_ptr<AlertTriageLog> onWriter(SqliteWriter &history);
    // On a history file no store of this process has open.
    static Result<std::unique_ptr<AlertTriageLog>> open(const std::string &historyFile);
    ~AlertTriageLog();

    Status record(const TriageAction &action);
    // Actions after `lastId`, oldest first.
    Result<std::vector<TriageAction>> actionsAfter(int64_t lastId);

    // A new silence; its id.
    Result<int64_t> addSilence(const SilenceRule &rule, int64_t nowUnixMs);
    // Ends a silence early (it stays on record).
    Status liftSilence(int64_t id, int64_t nowUnixMs, const std::string &who = {});
    // A row of the file's audit log (who did what, and why): every acknowledgement, note,
    // silence and lift is one; so is a silence kept in an Alertmanager.
    Status audit(int64_t atUnixMs, const std::string &who, const std::string &what,
                 const std::string &why);
    // Silences in force at `nowUnixMs`.
    Result<std::vector<SilenceRule>> activeSilences(int64_t nowUnixMs);

    // The receivers were told `alertKey` is firing (or, `firing` false, that it resolved);
    // with the occurrence it is (firing), kept for the fault-response clock.
    Status recordDelivery(const std::string &alertKey, bool firing, int64_t nowUnixMs,
                          const std::optional<AlertIncident> &started = std::nullopt);
    // The occurrences sent within [fromMs, toMs), oldest first.
    Result<std::vector<AlertIncident>> incidents(int64_t fromMs, int64_t toMs);
    // The alerts the receivers were told are firing and not yet that they resolved.
    Result<std::set<std::string>> firingDelivered();
    // Forgets what ended before `cutoffUnixMs`: acknowledgements and notes, silences that
    // ended or were lifted, occurrences that resolved, and audit rows. What still holds (an
    // open occurrence, a silence in force, a delivery not yet resolved) is kept whatever its
    // age. How many rows went.
    Result<int64_t> forgetBefore(int64_t cutoffUnixMs);

    const std::string &path() const { return m_path; }

private:
    AlertTriageLog(std::unique_ptr<SQLite::Database> db, std::string path);
    AlertTriageLog(SqliteWriter &writer, std::string path);
    static void auditLocked(SQLite::Database &db, int64_t atUnixMs, const std::string &who,
                            const std::string &what, const std::string &why);

    SqliteConnection m_connection;  // its own, or the history's writer thread
    std::string m_path;
};

// "thermal throttling on wh-3", "alert ecc/wh-2/GPU-…", "everything in wuhu": what a
// silence covers, in the audit log's words.
std::string silenceScope(const SilenceRule &rule);

}  // namespace meridian
