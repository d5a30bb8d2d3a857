// ScalingController's life and its pass: start, stop, the view, and each tick (the replicas
// and the journal counted, every service decided, the steps advanced). Operators' commands
// are in scalingcontrollercommands.cpp, the decisions in scalingcontrollerdecisions.cpp,
// where capacity comes from and goes in scalingcontrollercapacity.cpp, the remembered
// demand in scalingcontrollerdemand.cpp.
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
        const auto own = m_options.servicePolicies.find(s.name);
        state->policy = own != m_options.servicePolicies.end() ? own->second : m_options.policy;
        state->profile = DailyProfile(std::max(1, state->policy.forecastDays));
        state->view.service = s;
        state->service = std::move(s);
        m_services.push_back(std::move(state));
    }
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
    readBalancers(now);
    for (auto &state : m_services)
        decide(*state, open.value(), local, rented, now, problems);

    if (!leases) {
        followReplicas(local, rented, open.value(), now, problems);
    } else {
        open = m_journal.openSteps();  // with this pass's plans and releases
        if (open) {
            std::set<int64_t> draining = followReplicas(local, rented, open.value(), now, problems);
            setReplicaTargets(open.value());
            if (auto actions = m_executor->advance(now, std::move(draining)))
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
            const auto worst = [](std::optional<double> &into, std::optional<double> value) {
                if (value)
                    into = std::max(into.value_or(0), *value);
            };
            worst(count.ttftP95Seconds, r.signals.ttftP95Seconds);
            worst(count.queueDelayP95Seconds, r.signals.queueDelayP95Seconds);
            worst(count.e2eP95Seconds, r.signals.e2eP95Seconds);
        }
    };
    add(local, false);
    add(rented, true);
    count.signals.latencyP95Seconds =
        objectiveLatency(count.queueDelayP95Seconds, count.ttftP95Seconds);
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
        // Replicas are named after their step's key.
        const std::string prefix = step.idempotencyKey + "/";
        const auto seen = static_cast<int>(std::count_if(
            seenIds.begin(), seenIds.end(),
            [&](const std::string &id) { return id.compare(0, prefix.size(), prefix) == 0; }));
        if (inFlight(step.state))
            count.ordered += std::max(0, replicas - seen);  // those not reporting yet are coming
        if (step.state == StepState::Releasing) {
            count.going += seen;
            count.goingRented += isLocal ? 0 : seen;
        }
    }
    std::lock_guard lock(m_mutex);
    if (const auto it = m_lastScaleUpMs.find(service.name); it != m_lastScaleUpMs.end())
        count.lastScaleUpMs = std::max(count.lastScaleUpMs.value_or(0), it->second);
    return count;
}

}  // namespace meridian
