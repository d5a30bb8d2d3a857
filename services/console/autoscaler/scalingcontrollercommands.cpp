// What operators ask of the controller: the approval mode, a plan now, a plan approved or
// rejected (by the version they saw), the surplus given back; each written to the audit log.
#include <fmt/format.h>

#include <algorithm>

#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

void ScalingController::audit(const std::string &who, const std::string &what,
                              const std::string &why)
{
    if (Status written = m_journal.audit({m_clock.nowUnixMs(), who, what, why}); !written) {
        std::lock_guard lock(m_mutex);
        m_auditProblem = "the audit log lost an entry: " + written.error().message;
    }
}

Status ScalingController::setMode(ApprovalMode mode, const std::string &who)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_mode == mode)
            return {};
        m_mode = mode;
        m_view.mode = mode;
    }
    const int64_t now = m_clock.nowUnixMs();
    if (m_options.modeInJournal) {
        if (Status kept =
                m_journal.setSetting(kModeSetting, std::string(approvalModeName(mode)), now);
            !kept)
            return kept;
    }
    return m_journal.audit(
        {now, who, fmt::format("approval mode {}", approvalModeName(mode)), "set by an operator"});
}

Status ScalingController::requestPlan(const std::string &service, const std::string &who)
{
    if (!knows(service))
        return Error{fmt::format("no inference service is named {}", service)};
    {
        std::lock_guard lock(m_mutex);
        m_planRequested.insert(service);
    }
    audit(who, fmt::format("asked for a plan for {}", service), "manual mode");
    return {};
}

Status ScalingController::approveRelease(const std::string &service, const std::string &who)
{
    if (!knows(service))
        return Error{fmt::format("no inference service is named {}", service)};
    {
        std::lock_guard lock(m_mutex);
        m_releaseApproved.insert(service);
    }
    audit(who, fmt::format("approved giving back surplus rented nodes of {}", service),
          "at the end of their paid hour");
    return {};
}

bool ScalingController::knows(const std::string &service) const
{
    // m_services is fixed after construction.
    return std::any_of(m_services.begin(), m_services.end(),
                       [&](const auto &s) { return s->service.name == service; });
}

std::optional<int64_t> ScalingController::planVersion(const std::vector<JournalStep> &open,
                                                      const std::string &service)
{
    // A plan is its planned steps; ids only grow, so the newest one names the plan.
    std::optional<int64_t> version;
    for (const JournalStep &step : open) {
        if (step.service == service && step.state == StepState::Planned)
            version = std::max(version.value_or(0), step.id);
    }
    return version;
}

Status ScalingController::approvePlan(const std::string &service, const std::string &who,
                                      std::optional<int64_t> shownVersion)
{
    auto open = m_journal.openSteps();
    if (!open)
        return open.error();
    const std::optional<int64_t> current = planVersion(open.value(), service);
    if (!current)
        return Error{fmt::format("{} has no plan waiting for approval", service)};
    if (shownVersion && *shownVersion != *current)
        return Error{
            fmt::format("The plan for {} changed since it was shown (plan {} is now "
                        "plan {}): look at the new one and approve it if it is right",
                        service, *shownVersion, *current)};
    const int64_t now = m_clock.nowUnixMs();
    int approved = 0;
    double cnyPerHour = 0;
    for (const JournalStep &step : open.value()) {
        if (step.service != service || step.state != StepState::Planned)
            continue;
        if (Status s = m_journal.moveStep(step.id, StepState::Approved, {}, {}, now); !s)
            return s;
        ++approved;
        cnyPerHour += step.cnyPerHour;
    }
    {
        std::lock_guard lock(m_mutex);
        m_lastScaleUpMs[service] = now;
    }
    audit(who,
          fmt::format("approved plan {} for {}: {} step(s), {:.2f} CNY/h", *current, service,
                      approved, cnyPerHour),
          "one click");
    m_passes.wake();  // go ahead now, not at the next interval
    return {};
}

Status ScalingController::rejectPlan(const std::string &service, const std::string &who,
                                     const std::string &why)
{
    auto dropped = dropPlan(service, StepState::Rejected);
    if (!dropped)
        return dropped.error();
    if (dropped.value() == 0)
        return Error{fmt::format("{} has no plan waiting for approval", service)};
    audit(who, fmt::format("rejected the plan for {}: {} step(s)", service, dropped.value()), why);
    return {};
}

Result<int> ScalingController::dropPlan(const std::string &service, StepState to)
{
    auto open = m_journal.openSteps();
    if (!open)
        return open.error();
    const int64_t now = m_clock.nowUnixMs();
    int dropped = 0;
    for (const JournalStep &step : open.value()) {
        if (step.service != service || step.state != StepState::Planned)
            continue;
        if (Status s = m_journal.moveStep(step.id, to, {}, {}, now); !s)
            return s.error();
        ++dropped;
    }
    return dropped;
}

}  // namespace meridian
