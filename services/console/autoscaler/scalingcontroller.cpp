#include "scalingcontroller.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "fleet/fleetstate.h"
#include "fleetlink/fleetclient.h"
#include "scaling/placement.h"
#include "scaling/stepexecutor.h"
#include "scalingclients.h"
#include "servicestate.h"

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
    , m_passes(clock)
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
    if (m_options.policy.forecastDays > 0)
        restoreDemand();
    if (m_options.modeInJournal) {
        auto kept = m_journal.setting(kModeSetting);
        if (!kept) {
            m_view.problem += m_view.problem.empty() ? "" : "; ";
            m_view.problem +=
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
    m_passes.start(std::chrono::milliseconds(m_options.intervalMs), [this] {
        static_cast<void>(tick());  // what went wrong is in the view it publishes
    });
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
    {
        std::lock_guard lock(m_mutex);
        if (!m_auditProblem.empty())
            problems.push_back(std::exchange(m_auditProblem, {}));
    }
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

ScalingController::ReplicaCount ScalingController::countReplicas(
    const std::string &service, const std::vector<ReplicaReading> &local,
    const std::vector<ReplicaReading> &rented, int64_t nowMs)
{
    ReplicaCount count;
    count.signals.atMs = nowMs;
    const auto add = [&](const std::vector<ReplicaReading> &readings, bool isRented) {
        for (const ReplicaReading &r : readings) {
            if (r.signals.service != service)
                continue;
            count.seenIds.push_back(r.signals.replicaId);
            if (!r.signals.requestsPerSecond) {
                ++count.coldStarting;  // loading weights: it answers nothing yet
                continue;
            }
            ++count.ready;
            count.readyRented += isRented;
            ServiceSignals &s = count.signals;
            s.arrivalRps += *r.signals.requestsPerSecond;
            s.waitingRequests += r.signals.waitingRequests.value_or(0);
            s.runningRequests += r.signals.runningRequests.value_or(0);
            if (r.signals.ttftP95Seconds)
                s.ttftP95Seconds =
                    std::max(s.ttftP95Seconds.value_or(0), *r.signals.ttftP95Seconds);
            if (r.signals.e2eP95Seconds)
                count.e2eP95Seconds =
                    std::max(count.e2eP95Seconds.value_or(0), *r.signals.e2eP95Seconds);
        }
    };
    add(local, false);
    add(rented, true);
    return count;
}

ScalingController::JournalCount ScalingController::countJournal(
    const InferenceService &service, const std::vector<JournalStep> &open,
    const std::vector<std::string> &seenIds) const
{
    JournalCount count;
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
            ++count.pending;
            count.pendingLocal += isLocal;
            count.pendingReplicas += replicas;
            count.pendingCny += step.cnyPerHour;
            continue;
        }
        if (holdsCapacity(step.state)) {
            count.rentedCards += cards;
            count.rentedCny += step.cnyPerHour;
            // From the journal, so a restarted console keeps the no-reversal window too.
            count.lastScaleUpMs = std::max(count.lastScaleUpMs.value_or(0), step.createdUnixMs);
        }
        if (inFlight(step.state)) {
            // Replicas are named after their step's key: those not reporting yet are coming.
            const std::string prefix = step.idempotencyKey + "/";
            const auto seen = std::count_if(
                seenIds.begin(), seenIds.end(),
                [&](const std::string &id) { return id.compare(0, prefix.size(), prefix) == 0; });
            count.ordered += std::max(0, replicas - static_cast<int>(seen));
        }
    }
    std::lock_guard lock(m_mutex);
    if (const auto it = m_lastScaleUpMs.find(service.name); it != m_lastScaleUpMs.end())
        count.lastScaleUpMs = std::max(count.lastScaleUpMs.value_or(0), it->second);
    return count;
}

ScalingDecision ScalingController::askPolicy(ServiceState &state, const ReplicaCount &replicas,
                                             const JournalCount &journal, int64_t nowMs)
{
    const InferenceService &service = state.service;
    state.signals.push_back(replicas.signals);
    const int64_t keptMs =
        std::max(m_options.policy.scaleDownWindowMs, m_options.policy.stableWindowMs) + 60'000;
    std::erase_if(state.signals, [&](const ServiceSignals &s) { return nowMs - s.atMs > keptMs; });

    const double replicaRps =
        service.runsOn.empty() ? 0
                               : service.replicaRequestsPerSecond(service.runsOn.front().cardModel);
    PolicyInput input;
    input.nowMs = nowMs;
    input.history = state.signals;
    input.readyReplicas = replicas.ready;
    input.startingReplicas = replicas.coldStarting + journal.ordered;
    input.minReplicas = service.minReplicas;
    input.maxReplicas = service.maxReplicas;
    input.replicaRps = replicaRps > 0 ? replicaRps : 1;
    input.ttftObjectiveSeconds = service.ttftP95Seconds;
    input.lastScaleUpMs = journal.lastScaleUpMs;
    if (m_options.policy.forecastDays > 0) {
        input.forecastRps = state.profile.forecast(nowMs, m_options.policy.forecastLeadMs);
        input.forecastHourRps = state.profile.forecast(nowMs, 3'600'000);
    }
    state.view.forecastRps = input.forecastRps;
    return decideReplicas(input, m_options.policy);
}

void ScalingController::showPass(ServiceState &state, const ReplicaCount &replicas,
                                 const JournalCount &journal, const ScalingDecision &decision,
                                 const std::vector<JournalStep> &open, int64_t nowMs) const
{
    ServiceScalingView &v = state.view;
    const int starting = replicas.coldStarting + journal.ordered;
    v.localReplicas = replicas.ready - replicas.readyRented;
    v.rentedReplicas = replicas.readyRented;
    v.startingReplicas = starting;
    v.desiredReplicas = decision.desiredReplicas;
    v.reason = decision.reason;
    v.why = decision.why;
    v.rentedCards = journal.rentedCards;
    v.rentedCnyPerHour = journal.rentedCny;
    v.pendingSteps = journal.pending;
    v.pendingLocalSteps = journal.pendingLocal;
    v.pendingCnyPerHour = journal.pendingCny;
    v.planVersion = planVersion(open, state.service.name).value_or(0);
    v.history.push_back({nowMs, replicas.signals.arrivalRps, replicas.signals.waitingRequests,
                         replicas.signals.ttftP95Seconds, replicas.e2eP95Seconds, replicas.ready,
                         starting, decision.desiredReplicas});
    std::erase_if(v.history,
                  [&](const ServicePoint &p) { return nowMs - p.atMs > m_options.historyMs; });
}

void ScalingController::decide(ServiceState &state, const std::vector<JournalStep> &open,
                               const std::vector<ReplicaReading> &local,
                               const std::vector<ReplicaReading> &rented, int64_t now,
                               std::vector<std::string> &problems)
{
    ServiceScalingView &v = state.view;
    v.notes.clear();
    const ReplicaCount replicas = countReplicas(state.service.name, local, rented, now);
    const JournalCount journal = countJournal(state.service, open, replicas.seenIds);
    if (m_options.policy.forecastDays > 0)
        rememberDemand(state, replicas.signals.arrivalRps, now, problems);
    const ScalingDecision decision = askPolicy(state, replicas, journal, now);
    showPass(state, replicas, journal, decision, open, now);

    if (now - m_startedMs < m_options.warmUpMs) {
        v.notes.push_back("starting up: waiting for the replicas to report");
        v.surplusSteps = 0;
        return;
    }
    const int have = replicas.ready + replicas.coldStarting + journal.ordered;
    if (decision.desiredReplicas > have) {
        scaleUp(state, open, decision, decision.desiredReplicas - have, journal, now, problems);
        v.surplusSteps = 0;
        return;
    }
    if (journal.pending > 0) {
        // The peak a waiting plan was for is over: it is not asked to go ahead any more.
        if (Status s = rejectPlan(state.service.name, m_options.requestedBy,
                                  "no longer needed: " + decision.why);
            !s)
            problems.push_back(s.error().message);
        v.pendingSteps = 0;
        v.pendingLocalSteps = 0;
        v.pendingCnyPerHour = 0;
    }
    if (decision.neededReplicas < replicas.ready && journal.ordered == 0)
        releaseSurplus(state, open, replicas.ready - decision.neededReplicas, now, problems);
    else
        v.surplusSteps = 0;
}

void ScalingController::scaleUp(ServiceState &state, const std::vector<JournalStep> &open,
                                const ScalingDecision &decision, int shortReplicas,
                                const JournalCount &journal, int64_t nowMs,
                                std::vector<std::string> &problems)
{
    const InferenceService &service = state.service;
    ServiceScalingView &v = state.view;
    ApprovalMode mode;
    bool planRequested;
    {
        std::lock_guard lock(m_mutex);
        mode = m_mode;
        planRequested = m_planRequested.count(service.name) > 0;
    }
    std::vector<LocalFree> local;
    if (!service.localPool.empty())
        local = freeLocalCards(state, open, v.notes);
    const PlacementPlan placement = place(state, shortReplicas, local);
    for (const std::string &note : placement.notes) {
        if (std::find(v.notes.begin(), v.notes.end(), note) == v.notes.end())
            v.notes.push_back(note);  // one line a cap, however many offers it held back
    }
    int placeable = 0;
    for (const CloudPlacement &p : placement.cloud)
        placeable += p.replicas;
    for (const LocalPlacement &p : placement.local)
        placeable += p.replicas;
    int pending = journal.pending;
    if (pending > 0 && mode != ApprovalMode::Manual && placeable > journal.pendingReplicas) {
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
        plan(state, placement, std::move(local), decision.why, nowMs, problems);
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
