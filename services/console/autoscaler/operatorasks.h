// What operators ask of the controller, and what its passes read of it: the approval mode
// (kept in the journal where asked, so it outlives a restart), a plan asked for in manual
// mode, surplus approved to go, a plan approved or rejected by the version they saw. Each
// ask is written to the audit log with who. Asked from the UI or gRPC threads and read by
// the controller's passes, under a mutex of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "scalingcontrol.h"
#include "scalingjournal.h"

namespace meridian {

class OperatorAsks {
public:
    // `services`: the names the controller runs; `wake`: starts a pass now.
    OperatorAsks(ScalingJournal &journal, const Clock &clock, ApprovalMode mode,
                 std::set<std::string> services, std::function<void()> wake);

    // Keeps the mode an operator sets in the journal, and takes the one kept there now;
    // "" or why it could not be read (the configured one is used then).
    std::string keepModeInJournal();

    Status setMode(ApprovalMode mode, const std::string &who);
    Status requestPlan(const std::string &service, const std::string &who);
    Status approvePlan(const std::string &service, const std::string &who,
                       std::optional<int64_t> shownVersion);
    Status rejectPlan(const std::string &service, const std::string &who, const std::string &why);
    Status approveRelease(const std::string &service, const std::string &who);

    // For the passes.
    ApprovalMode mode() const;
    bool planRequested(const std::string &service) const;
    void planMade(const std::string &service);
    bool releaseApproved(const std::string &service) const;
    void releaseDone(const std::string &service);
    // A scale-up went ahead now (approved, or automatic): no reversal for a while.
    void scaledUp(const std::string &service, int64_t nowMs);
    std::optional<int64_t> lastScaleUpMs(const std::string &service) const;
    // Moves the service's planned steps to `to` (rejected or superseded); how many.
    Result<int> dropPlan(const std::string &service, StepState to);
    // A plan is its planned steps; the newest one's id names it.
    static std::optional<int64_t> planVersion(const std::vector<JournalStep> &open,
                                              const std::string &service);

    // Written to the audit log; an entry the log could not take is said by the next pass.
    void audit(const std::string &who, const std::string &what, const std::string &why);
    std::string takeAuditProblem();

private:
    // The journal's setting that keeps an operator's approval mode over a restart.
    static constexpr const char *kModeSetting = "approval_mode";
    Status knownService(const std::string &service) const;

    ScalingJournal &m_journal;
    const Clock &m_clock;
    const std::set<std::string> m_services;
    std::function<void()> m_wake;
    bool m_modeInJournal = false;
    mutable std::mutex m_mutex;
    ApprovalMode m_mode;
    std::set<std::string> m_planRequested;    // services, manual mode
    std::set<std::string> m_releaseApproved;  // services
    std::map<std::string, int64_t> m_lastScaleUpMs;
    std::string m_auditProblem;
};

}  // namespace meridian
