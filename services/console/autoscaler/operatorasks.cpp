#include "operatorasks.h"

#include <fmt/format.h>

#include <algorithm>

namespace meridian {

OperatorAsks::OperatorAsks(ScalingJournal &journal, const Clock &clock, ApprovalMode mode,
                           std::set<std::string> services, std::function<void()> wake)
    : m_journal(journal)
    , m_clock(clock)
    , m_services(std::move(services))
    , m_wake(std::move(wake))
    , m_mode(mode)
{}

std::string OperatorAsks::keepModeInJournal()
{
    m_modeInJournal = true;
    auto kept = m_journal.setting(kModeSetting);
    if (!kept)
        return "the approval mode an operator set could not be read, so the configured one is "
               "used: " +
               kept.error().message;
    if (kept.value()) {
        if (auto mode = approvalModeFromName(*kept.value())) {
            std::lock_guard lock(m_mutex);
            m_mode = *mode;
        }
    }
    return {};
}

ApprovalMode OperatorAsks::mode() const
{
    std::lock_guard lock(m_mutex);
    return m_mode;
}

bool OperatorAsks::planRequested(const std::string &service) const
{
    std::lock_guard lock(m_mutex);
    return m_planRequested.count(service) > 0;
}

void OperatorAsks::planMade(const std::string &service)
{
    std::lock_guard lock(m_mutex);
    m_planRequested.erase(service);
}

bool OperatorAsks::releaseApproved(const std::string &service) const
{
    std::lock_guard lock(m_mutex);
    return m_releaseApproved.count(service) > 0;
}

void OperatorAsks::releaseDone(const std::string &service)
{
    std::lock_guard lock(m_mutex);
    m_releaseApproved.erase(service);
}

void OperatorAsks::scaledUp(const std::string &service, int64_t nowMs)
{
    std::lock_guard lock(m_mutex);
    m_lastScaleUpMs[service] = nowMs;
}

std::optional<int64_t> OperatorAsks::lastScaleUpMs(const std::string &service) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_lastScaleUpMs.find(service);
    return it == m_lastScaleUpMs.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

void OperatorAsks::audit(const std::string &who, const std::string &what, const std::string &why)
{
    if (Status written = m_journal.audit({m_clock.nowUnixMs(), who, what, why}); !written) {
        std::lock_guard lock(m_mutex);
        m_auditProblem = "the audit log lost an entry: " + written.error().message;
    }
}

std::string OperatorAsks::takeAuditProblem()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_auditProblem, {});
}

Status OperatorAsks::knownService(const std::string &service) const
{
    if (m_services.count(service))
        return {};
    return Error{fmt::format("no inference service is named {}", service)};
}

Status OperatorAsks::setMode(ApprovalMode mode, const std::string &who)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_mode == mode)
            return {};
        m_mode = mode;
    }
    const int64_t now = m_clock.nowUnixMs();
    if (m_modeInJournal) {
        if (Status kept =
                m_journal.setSetting(kModeSetting, std::string(approvalModeName(mode)), now);
            !kept)
            return kept;
    }
    return m_journal.audit(
        {now, who, fmt::format("approval mode {}", approvalModeName(mode)), "set by an operator"});
}

Status OperatorAsks::requestPlan(const std::string &service, const std::string &who)
{
    if (Status known = knownService(service); !known)
        return known;
    {
        std::lock_guard lock(m_mutex);
        m_planRequested.insert(service);
    }
    audit(who, fmt::format("asked for a plan for {}", service), "manual mode");
    return {};
}

Status OperatorAsks::approveRelease(const std::string &service, const std::string &who)
{
    if (Status known = knownService(service); !known)
        return known;
    {
        std::lock_guard lock(m_mutex);
        m_releaseApproved.insert(service);
    }
    audit(who, fmt::format("approved giving back surplus rented nodes of {}", service),
          "at the end of their paid hour");
    return {};
}

std::optional<int64_t> OperatorAsks::planVersion(const std::vector<JournalStep> &open,
                                                 const std::string &service)
{
    // Ids only grow, so the newest planned step names the plan.
    std::optional<int64_t> version;
    for (const JournalStep &step : open) {
        if (step.service == service && step.state == StepState::Planned)
            version = std::max(version.value_or(0), step.id);
    }
    return version;
}

Status OperatorAsks::approvePlan(const std::string &service, const std::string &who,
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
    scaledUp(service, now);
    audit(who,
          fmt::format("approved plan {} for {}: {} step(s), {:.2f} CNY/h", *current, service,
                      approved, cnyPerHour),
          "one click");
    if (m_wake)
        m_wake();  // go ahead now, not at the next interval
    return {};
}

Status OperatorAsks::rejectPlan(const std::string &service, const std::string &who,
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

Result<int> OperatorAsks::dropPlan(const std::string &service, StepState to)
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
