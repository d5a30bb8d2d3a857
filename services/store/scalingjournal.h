// The scaling journal and audit log in the history file. A step is written (and
// committed, synchronously) before the call it stands for is made, so after a crash the
// journal says what may have happened and reconcile() says what to do about it.
// Thread-safe; one connection of its own.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/result.h"
#include "scaling/stepexecutor.h"

namespace SQLite {
class Database;
}

namespace meridian {

struct AuditEntry {
    int64_t atUnixMs = 0;
    std::string who;
    std::string what;
    std::string why;
};

class ScalingJournal final : public StepJournal {
public:
    static Result<std::unique_ptr<ScalingJournal>> open(const std::string &historyFile);
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

private:
    ScalingJournal(std::unique_ptr<SQLite::Database> db, std::string path);
    Result<std::vector<JournalStep>> steps(const char *where);

    std::unique_ptr<SQLite::Database> m_db;
    std::string m_path;
    std::mutex m_mutex;
};

std::string_view stepStateName(StepState state);

}  // namespace meridian
