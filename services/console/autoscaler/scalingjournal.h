// The scaling journal and audit log: in the console's history file, or in a file of its
// own for meridian-scaled. A step is written (and committed, synchronously) before the
// call it stands for is made, so after a crash the journal says what may have happened
// and reconcile() says what to do about it. Thread-safe. In a console it writes on the
// history file's writer thread (onWriter); opened on a file, it has a connection of its
// own.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "scaling/dailyprofile.h"
#include "scaling/journalstep.h"
#include "scaling/stepexecutor.h"
#include "sqlite/sqliteconnection.h"

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteWriter;
struct SqliteSchema;

class ScalingJournal final : public StepJournal {
public:
    // The journal in the console's history file, written on the file's writer thread
    // (the history store's) in turn with the usage minutes. `history` must outlive it.
    static std::unique_ptr<ScalingJournal> onWriter(SqliteWriter &history);
    // The journal in a history file no store of this process has open (tools, tests).
    static Result<std::unique_ptr<ScalingJournal>> open(const std::string &historyFile);
    // A journal file of its own (meridian-scaled), with settings that outlive a restart.
    static Result<std::unique_ptr<ScalingJournal>> openOwn(const std::string &journalFile);
    ~ScalingJournal() override;

    // A new step in state Planned; its id. The key must be new (it names the step to the
    // pool and the agents for ever).
    Result<int64_t> addStep(const JournalStep &step, const std::string &requestedBy,
                            const std::string &reason, int64_t nowUnixMs);
    // Moves a step on; a lease id or node id that is empty keeps the one recorded.
    Status moveStep(int64_t id, StepState state, const std::string &leaseId,
                    const std::string &nodeId, int64_t nowUnixMs) override;
    // Steps not done, failed or rejected, oldest first.
    Result<std::vector<JournalStep>> openSteps() override;
    // The newest `count` steps, whatever their state, oldest first.
    Result<std::vector<JournalStep>> recentSteps(size_t count);

    Status audit(const AuditEntry &entry);
    Result<std::vector<AuditEntry>> recentAudit(size_t count);

    // Own journal files only (openOwn): a setting and its value; nullopt if never set.
    Status setSetting(const std::string &name, const std::string &value, int64_t nowUnixMs);
    Result<std::optional<std::string>> setting(const std::string &name);

    // A service's finished demand minute, for the daily-shape forecast after a restart;
    // minutes before `keepFromIndex` are dropped as it goes.
    Status keepDemandMinute(const std::string &service, const DemandMinute &minute,
                            int64_t keepFromIndex);
    // The service's kept minutes from `fromIndex` on, oldest first.
    Result<std::vector<DemandMinute>> demandMinutes(const std::string &service, int64_t fromIndex);

    // Called after a step is written or moved and committed, where the journal's writes
    // run (the history's writer thread, or the caller's under the journal's lock): it must
    // not call back. For crash drills
    // (meridian-scaled's MERIDIAN_SCALED_KILL_AFTER): nothing else may rely on it.
    void setStepObserver(std::function<void(int64_t id, StepState state)> observer);

private:
    ScalingJournal(std::unique_ptr<SQLite::Database> db, std::string path);
    ScalingJournal(SqliteWriter &writer, std::string path);
    // Makes the commits made while it lives reach the disk before they return: a shared
    // connection otherwise commits as the history's batches do (synchronous NORMAL).
    class DurableWrite;
    static Result<std::unique_ptr<ScalingJournal>> openFile(const std::string &path,
                                                            const SqliteSchema &schema);
    Result<std::vector<JournalStep>> steps(const char *where);

    SqliteConnection m_connection;  // its own, or the history's writer thread
    std::string m_path;
    std::function<void(int64_t, StepState)> m_stepObserver;
};

// Steps created in [fromMs, toMs), newest first, at most `count`, read on a connection of
// the caller's to the file (a read-only look back, as the fleet time machine takes).
Result<std::vector<JournalStep>> journalStepsCreatedBetween(SQLite::Database &db, int64_t fromMs,
                                                            int64_t toMs, size_t count);

}  // namespace meridian
