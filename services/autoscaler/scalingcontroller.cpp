#include "scalingcontroller.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "fleet/fleetstate.h"
#include "scaling/placement.h"
#include "scaling/stepexecutor.h"
#include "scalingclients.h"
#include "servicestate.h"
#include "transport/fleetclient.h"

namespace meridian {

namespace {

constexpr size_t kJournalShown = 60;
constexpr size_t kAuditShown = 80;
constexpr const char *kModeSetting = "approval_mode";

bool inFlight(StepState s)
{
    return s == StepState::Approved || s == StepState::Leasing || s == StepState::Provisioned ||
           s == StepState::Starting;
}

bool holdsCapacity(StepState s)
{
    return inFlight(s) || s == StepState::Serving;
}

}  // namespace

std::optional<ApprovalMode> approvalModeFromName(std::string_view name)
{
    for (ApprovalMode mode :
         {ApprovalMode::Manual, ApprovalMode::Assisted, ApprovalMode::Automatic})
        if (approvalModeName(mode) == name)
            return mode;
    return std::nullopt;
}

std::string_view approvalModeName(ApprovalMode mode)
{
    switch (mode) {
    case ApprovalMode::Manual: return "manual";
    case ApprovalMode::Assisted: return "assisted";
    case ApprovalMode::Automatic: return "automatic";
    }
    return "assisted";
}

ScalingController::ScalingController(std::vector<InferenceService> services,
                                     ScalingJournal &journal, const FleetState &localFleet,
                                     std::string poolAddress, ClientSecurity security,
                                     const Clock &clock, ScalingControllerOptions options)
    : m_journal(journal)
    , m_localFleet(localFleet)
    , m_clock(clock)
    , m_options(std::move(options))
    , m_rentedFleet(std::make_unique<FleetState>())
    , m_mode(m_options.mode)
{
    m_rentedClient = std::make_unique<FleetClient>(*m_rentedFleet, clock, m_options.rentedAgents);
    m_pool = std::make_unique<GrpcCapacityPool>(std::move(poolAddress), security,
                                                m_options.callTimeoutMs, m_options.requestedBy);
    m_replicas =
        std::make_unique<GrpcReplicas>(security, m_options.requestedBy, m_options.callTimeoutMs);
    m_security = std::move(security);
    m_startedMs = clock.nowUnixMs();
    m_executor =
        std::make_unique<StepExecutor>(m_journal, *m_pool, *m_replicas, m_options.requestedBy);
    for (InferenceService &s : services) {
        auto state = std::make_unique<ServiceState>();
        state->profile = DailyProfile(std::max(1, m_options.policy.forecastDays));
        state->view.service = s;
        state->service = std::move(s);
        m_services.push_back(std::move(state));
    }
    if (m_options.modeInJournal) {
        auto kept = m_journal.setting(kModeSetting);
        if (!kept) {
            m_view.problem =
                "the approval mode an operator set could not be read, so the "
                "configured one is used: " +
                kept.error().message;
        } else if (kept.value()) {
            if (auto mode = approvalModeFromName(*kept.value()))
                m_mode = *mode;
        }
    }
    m_view.mode = m_mode;
    for (const auto &s : m_services)
        m_view.services.push_back(s->view);
}

ScalingController::~ScalingController()
{
    stop();
}

void ScalingController::start()
{
    // A failed pass is in the view; the next one tries again.
    m_passes.start(std::chrono::milliseconds(m_options.intervalMs), [this] { tick().ok(); });
}

void ScalingController::stop()
{
    m_passes.stop();
    m_rentedClient->stop();
}

ScalingView ScalingController::view() const
{
    std::lock_guard lock(m_mutex);
    return m_view;
}

void ScalingController::audit(const std::string &who, const std::string &what,
                              const std::string &why)
{
    m_journal.audit({m_clock.nowUnixMs(), who, what, why})
        .ok();  // a failure shows in the next pass
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

int ScalingController::replicasPerNode(const InferenceService &service,
                                       const std::string &cardModel, int cardsPerNode) const
{
    if (service.replicaRequestsPerSecond(cardModel) <= 0)
        return 0;
    return cardsPerNode / std::max(1, service.cardsPerReplica);
}

Status ScalingController::tick()
{
    const int64_t now = m_clock.nowUnixMs();
    std::vector<std::string> problems;
    m_localLayout = m_localFleet.snapshot(now).layout;
    const auto leases = m_pool->leases();
    if (leases) {
        followRentedAgents();
        if (auto offers = m_pool->offers())
            m_offers = std::move(offers).value();
        else
            problems.push_back(offers.error().message);
    } else {
        problems.push_back(leases.error().message);
    }

    auto open = m_journal.openSteps();
    if (!open) {
        std::lock_guard lock(m_mutex);
        m_view.problem = open.error().message;
        m_view.atMs = now;
        return open.error();
    }
    // Every replica's readings once a pass, not once a service.
    const std::vector<ReplicaReading> local = m_localFleet.replicaReadings(now);
    const std::vector<ReplicaReading> rented = m_rentedFleet->replicaReadings(now);
    for (auto &state : m_services)
        decide(*state, open.value(), local, rented, now, problems);

    if (leases) {
        open = m_journal.openSteps();  // with this pass's plans and releases
        if (open) {
            setReplicaTargets(open.value());
            if (auto actions = m_executor->advance(now))
                auditActions(actions.value(), open.value(), now);
            else
                problems.push_back(actions.error().message);
        } else {
            problems.push_back(open.error().message);
        }
    }

    ScalingView view;
    view.atMs = now;
    if (auto steps = m_journal.recentSteps(kJournalShown))
        view.journal = std::move(steps).value();
    else
        problems.push_back(steps.error().message);
    if (auto entries = m_journal.recentAudit(kAuditShown))
        view.audit = std::move(entries).value();
    else
        problems.push_back(entries.error().message);
    for (const auto &state : m_services)
        view.services.push_back(state->view);
    std::string problem;
    for (const std::string &p : problems)
        problem += (problem.empty() ? "" : "; ") + p;
    view.problem = problem;
    std::lock_guard lock(m_mutex);
    view.mode = m_mode;
    m_view = std::move(view);
    return problems.empty() ? Status{} : Status{Error{problem}};
}

void ScalingController::decide(ServiceState &state, const std::vector<JournalStep> &open,
                               const std::vector<ReplicaReading> &local,
                               const std::vector<ReplicaReading> &rented, int64_t now,
                               std::vector<std::string> &problems)
{
    const InferenceService &service = state.service;
    ServiceScalingView &v = state.view;
    v.notes.clear();
    ServiceSignals signals;
    signals.atMs = now;
    int ready = 0, readyRented = 0, coldStarting = 0;
    std::optional<double> e2e;
    std::vector<std::string> seenIds;  // the replicas reporting, to match them to steps
    const auto count = [&](const std::vector<ReplicaReading> &readings, bool isRented) {
        for (const ReplicaReading &r : readings) {
            if (r.signals.service != service.name)
                continue;
            seenIds.push_back(r.signals.replicaId);
            if (!r.signals.requestsPerSecond) {
                ++coldStarting;  // loading weights: it answers nothing yet
                continue;
            }
            ++ready;
            readyRented += isRented;
            signals.arrivalRps += *r.signals.requestsPerSecond;
            signals.waitingRequests += r.signals.waitingRequests.value_or(0);
            signals.runningRequests += r.signals.runningRequests.value_or(0);
            if (r.signals.ttftP95Seconds)
                signals.ttftP95Seconds =
                    std::max(signals.ttftP95Seconds.value_or(0), *r.signals.ttftP95Seconds);
            if (r.signals.e2eP95Seconds)
                e2e = std::max(e2e.value_or(0), *r.signals.e2eP95Seconds);
        }
    };
    count(local, false);
    count(rented, true);

    // What the journal has ordered and not yet seen serving.
    int ordered = 0, pending = 0, pendingLocal = 0, pendingReplicas = 0, rentedCards = 0;
    double pendingCny = 0, rentedCny = 0;
    std::optional<int64_t> lastUp;
    for (const JournalStep &step : open) {
        if (step.service != service.name)
            continue;
        const auto offer =
            std::find_if(m_offers.begin(), m_offers.end(),
                         [&](const CloudOfferView &o) { return o.offerId == step.offerId; });
        const bool isLocal = step.offerId == kLocalOffer;
        const int cards = isLocal ? 0 : offer != m_offers.end() ? offer->cardsPerNode : 8;
        const int replicas = isLocal ? 1
                             : offer != m_offers.end()
                                 ? replicasPerNode(service, offer->cardModel, offer->cardsPerNode)
                                 : cards / std::max(1, service.cardsPerReplica);
        if (step.state == StepState::Planned) {
            ++pending;
            pendingLocal += isLocal;
            pendingReplicas += replicas;
            pendingCny += step.cnyPerHour;
            continue;
        }
        if (holdsCapacity(step.state)) {
            rentedCards += cards;
            rentedCny += step.cnyPerHour;
            // From the journal, so a restarted console keeps the no-reversal window too.
            lastUp = std::max(lastUp.value_or(0), step.createdUnixMs);
        }
        if (inFlight(step.state)) {
            const std::string prefix = step.idempotencyKey + "/";
            const auto seen = std::count_if(
                seenIds.begin(), seenIds.end(),
                [&](const std::string &id) { return id.compare(0, prefix.size(), prefix) == 0; });
            ordered += std::max(0, replicas - static_cast<int>(seen));
        }
    }
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_lastScaleUpMs.find(service.name); it != m_lastScaleUpMs.end())
            lastUp = std::max(lastUp.value_or(0), it->second);
    }

    state.signals.push_back(signals);
    const int64_t keepMs =
        std::max(m_options.policy.scaleDownWindowMs, m_options.policy.stableWindowMs) + 60'000;
    std::erase_if(state.signals, [&](const ServiceSignals &s) { return now - s.atMs > keepMs; });

    const double replicaRps =
        service.runsOn.empty() ? 0
                               : service.replicaRequestsPerSecond(service.runsOn.front().cardModel);
    PolicyInput input;
    input.nowMs = now;
    input.history = state.signals;
    input.readyReplicas = ready;
    input.startingReplicas = coldStarting + ordered;
    input.minReplicas = service.minReplicas;
    input.maxReplicas = service.maxReplicas;
    input.replicaRps = replicaRps > 0 ? replicaRps : 1;
    input.ttftObjectiveSeconds = service.ttftP95Seconds;
    input.lastScaleUpMs = lastUp;
    if (m_options.policy.forecastDays > 0) {
        state.profile.record(now, signals.arrivalRps);
        input.forecastRps = state.profile.forecast(now, m_options.policy.forecastLeadMs);
        input.forecastHourRps = state.profile.forecast(now, 3'600'000);
    }
    const ScalingDecision decision = decideReplicas(input, m_options.policy);

    v.localReplicas = ready - readyRented;
    v.rentedReplicas = readyRented;
    v.startingReplicas = coldStarting + ordered;
    v.desiredReplicas = decision.desiredReplicas;
    v.reason = decision.reason;
    v.why = decision.why;
    v.rentedCards = rentedCards;
    v.rentedCnyPerHour = rentedCny;
    v.pendingSteps = pending;
    v.pendingLocalSteps = pendingLocal;
    v.pendingCnyPerHour = pendingCny;
    v.planVersion = planVersion(open, service.name).value_or(0);
    v.history.push_back({now, signals.arrivalRps, signals.waitingRequests, signals.ttftP95Seconds,
                         e2e, ready, coldStarting + ordered, decision.desiredReplicas});
    std::erase_if(v.history,
                  [&](const ServicePoint &p) { return now - p.atMs > m_options.historyMs; });

    const int have = ready + coldStarting + ordered;
    if (now - m_startedMs < m_options.warmUpMs) {
        v.notes.push_back("starting up: waiting for the replicas to report");
        v.surplusSteps = 0;
        return;
    }
    ApprovalMode mode;
    bool planRequested;
    {
        std::lock_guard lock(m_mutex);
        mode = m_mode;
        planRequested = m_planRequested.count(service.name) > 0;
    }
    if (decision.desiredReplicas > have) {
        std::vector<LocalFree> local;
        if (!service.localPool.empty())
            local = freeLocalCards(state, open, v.notes);
        const PlacementPlan placement = place(state, decision.desiredReplicas - have, local);
        for (const std::string &note : placement.notes) {
            if (std::find(v.notes.begin(), v.notes.end(), note) == v.notes.end())
                v.notes.push_back(note);  // one line a cap, however many offers it held back
        }
        int placeable = 0;
        for (const CloudPlacement &p : placement.cloud)
            placeable += p.replicas;
        for (const LocalPlacement &p : placement.local)
            placeable += p.replicas;
        if (pending > 0 && mode != ApprovalMode::Manual && placeable > pendingReplicas) {
            // The need outgrew the plan waiting for approval, and the caps allow more: one
            // plan for all of it replaces it. Nobody turned it down: it is superseded.
            if (auto dropped = dropPlan(service.name, StepState::Superseded); !dropped) {
                problems.push_back(dropped.error().message);
            } else {
                audit(m_options.requestedBy,
                      fmt::format("superseded the plan for {}: {} step(s)", service.name,
                                  dropped.value()),
                      "superseded by a larger plan: " + decision.why);
                pending = 0;
            }
        }
        if (pending == 0 && (mode != ApprovalMode::Manual || planRequested))
            plan(state, placement, std::move(local), decision.why, now, problems);
        v.surplusSteps = 0;
        return;
    }
    if (pending > 0 && decision.desiredReplicas <= have) {
        // The peak a waiting plan was for is over: it is not asked to go ahead any more.
        if (Status s = rejectPlan(service.name, m_options.requestedBy,
                                  "no longer needed: " + decision.why);
            !s)
            problems.push_back(s.error().message);
        v.pendingSteps = 0;
        v.pendingLocalSteps = 0;
        v.pendingCnyPerHour = 0;
    }
    if (decision.neededReplicas < ready && ordered == 0)
        releaseSurplus(state, open, ready - decision.neededReplicas, now, problems);
    else
        v.surplusSteps = 0;
}

void ScalingController::auditActions(const std::vector<Recovery> &actions,
                                     const std::vector<JournalStep> &open, int64_t)
{
    for (const Recovery &a : actions) {
        const auto step = std::find_if(open.begin(), open.end(),
                                       [&](const JournalStep &s) { return s.id == a.stepId; });
        const std::string key = step != open.end() ? step->idempotencyKey : std::string();
        std::string what;
        switch (a.kind) {
        case RecoveryKind::Lease:
            what =
                fmt::format("lease {} for step {}", step != open.end() ? step->offerId : "", key);
            break;
        case RecoveryKind::StartReplica:
            what = fmt::format("start replicas of step {} on {}", key, a.nodeId);
            break;
        case RecoveryKind::StopReplica:
            what = fmt::format("stop replicas of step {} on {}", key, a.nodeId);
            break;
        case RecoveryKind::MarkServing:
            what = fmt::format("step {} serves on {}", key, a.nodeId);
            break;
        case RecoveryKind::Release:
        case RecoveryKind::GiveUp:
        case RecoveryKind::ReleaseOrphan:
            what =
                fmt::format("release lease {}{}", a.leaseId, key.empty() ? "" : " of step " + key);
            break;
        case RecoveryKind::MarkFailed: what = fmt::format("step {} failed", key); break;
        case RecoveryKind::MarkDone: what = fmt::format("step {} done", key); break;
        default: continue;  // waiting and holding are not actions
        }
        audit(m_options.requestedBy, what, a.why);
    }
}

}  // namespace meridian
