// ScalingController's life and its pass: start, stop, the view, and each tick (the replicas
// and the journal counted, every service decided, the steps advanced). Operators' commands
// are in scalingcontrollercommands.cpp, the decisions in scalingcontrollerdecisions.cpp,
// where capacity comes from and goes in scalingcontrollercapacity.cpp, the remembered
// demand in scalingcontrollerdemand.cpp.
#include "scalingcontroller.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "balancerfollow.h"
#include "fleet/fleetstate.h"
#include "fleetlink/fleetclient.h"
#include "keptdemand.h"
#include "scaling/placement.h"
#include "scaling/stepexecutor.h"
#include "scalingclients.h"
#include "servicestate.h"

namespace meridian {

namespace {

constexpr size_t kJournalShown = 60;
constexpr size_t kAuditShown = 80;

std::set<std::string> serviceNames(const std::vector<InferenceService> &services)
{
    std::set<std::string> names;
    for (const InferenceService &s : services)
        names.insert(s.name);
    return names;
}

// The names a lease may not give us: every node of our own inventory, by the agent's id, the
// inventory's name and the agent's address.
std::set<std::string> ownNodeNames(const FleetLayout *layout)
{
    std::set<std::string> names;
    if (!layout)
        return names;
    for (const auto *column : {&layout->nodeId, &layout->nodeHint, &layout->nodeAddress})
        for (const std::string &name : *column)
            if (!name.empty())
                names.insert(name);
    return names;
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
    , m_asks(journal, clock, m_options.mode, serviceNames(services), [this] { m_passes.wake(); })
    , m_rented(security, clock, m_options.rentedAgents)
    , m_passes(clock)
    , m_offerHolds(m_options.offerHoldMs)
{
    m_pool = std::make_unique<GrpcCapacityPool>(std::move(poolAddress), security, clock,
                                                m_options.callTimeoutMs, m_options.requestedBy);
    m_replicas =
        std::make_unique<GrpcReplicas>(security, m_options.requestedBy, m_options.callTimeoutMs);
    m_startedMs = clock.nowUnixMs();
    m_executor =
        std::make_unique<StepExecutor>(m_journal, *m_pool, *m_replicas, m_options.requestedBy);
    m_executor->setNodeAnswerTimeoutMs(m_options.nodeAnswerTimeoutMs);
    for (InferenceService &s : services) {
        auto state = std::make_unique<ServiceState>();
        const auto own = m_options.servicePolicies.find(s.name);
        state->policy = own != m_options.servicePolicies.end() ? own->second : m_options.policy;
        state->profile = DailyProfile(std::max(1, state->policy.forecastDays));
        state->view.service = s;
        state->service = std::move(s);
        m_services.push_back(std::move(state));
    }
    for (auto &state : m_services) {
        if (std::string lost = restoreDemand(*state, m_journal, m_startedMs); !lost.empty())
            m_view.problem = std::move(lost);
    }
    if (m_options.modeInJournal) {
        if (std::string lost = m_asks.keepModeInJournal(); !lost.empty())
            m_view.problem += (m_view.problem.empty() ? "" : "; ") + lost;
    }
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
    m_rented.stop();
}

ScalingView ScalingController::view() const
{
    ScalingView view;
    {
        std::lock_guard lock(m_mutex);
        view = m_view;
    }
    view.mode = m_asks.mode();  // as set, before the next pass
    return view;
}

Status ScalingController::tick()
{
    const int64_t now = m_clock.nowUnixMs();
    std::vector<std::string> problems;
    if (std::string lost = m_asks.takeAuditProblem(); !lost.empty())
        problems.push_back(std::move(lost));
    m_localLayout = m_localFleet.snapshot(now).layout;
    const bool poolAnswered = readPool(problems);
    auto open = m_journal.openSteps();
    if (!open) {
        std::lock_guard lock(m_mutex);
        m_view.problem = open.error().message;
        m_view.atMs = now;
        return open.error();
    }
    // Every replica's readings once a pass, not once a service.
    std::vector<ReplicaReading> local = m_localFleet.replicaReadings(now);
    const std::vector<ReplicaReading> rented = m_rented.fleet().replicaReadings(now);
    for (auto &state : m_services)
        readBalancer(*state, now);
    for (auto &state : m_services)
        decide(*state, open.value(), local, rented, now, problems);

    local.insert(local.end(), rented.begin(), rented.end());
    if (!poolAnswered) {
        followBalancers(local, open.value(), now, problems);
    } else if (open = m_journal.openSteps(); open) {  // with this pass's plans and releases
        std::set<int64_t> draining = followBalancers(local, open.value(), now, problems);
        setReplicaTargets(open.value());
        m_executor->setOwnNodes(ownNodeNames(m_localLayout.get()));
        if (auto actions = m_executor->advance(now, std::move(draining), m_clock.steadyMs())) {
            auditActions(actions.value(), open.value(), now);
            holdOffersGivenBack(actions.value(), open.value());
        } else
            problems.push_back(actions.error().message);
        // The nodes of leases released in this pass are gone: let go of their agents now,
        // not at the next pass, so their silence is never read as a fault of theirs.
        m_rented.follow(m_pool->lastLeases().agents);
    } else {
        problems.push_back(open.error().message);
    }
    return publishView(now, problems);
}

bool ScalingController::readPool(std::vector<std::string> &problems)
{
    const auto leases = m_pool->leases();
    if (!leases) {
        problems.push_back(leases.error().message);
        m_poolSilence = leases.error().message;
        return false;
    }
    m_rented.follow(m_pool->lastLeases().agents);
    if (auto offers = m_pool->offers()) {
        m_offers = std::move(offers).value();
        m_poolSilence.clear();
    } else {
        problems.push_back(offers.error().message);
        m_poolSilence = offers.error().message;
    }
    return true;
}

std::set<int64_t> ScalingController::followBalancers(const std::vector<ReplicaReading> &replicas,
                                                     const std::vector<JournalStep> &open,
                                                     int64_t now,
                                                     std::vector<std::string> &problems)
{
    std::set<int64_t> draining;
    for (auto &state : m_services) {
        BalancerFollowed followed = followReplicas(*state, replicas, open, now);
        if (!followed.problem.empty())
            problems.push_back(followed.problem);
        for (const std::string &what : followed.done)
            m_asks.audit(m_options.requestedBy, what,
                         "the load balancer follows the ready replicas");
        draining.merge(followed.draining);
    }
    return draining;
}

Status ScalingController::publishView(int64_t now, const std::vector<std::string> &problems)
{
    ScalingView view;
    view.atMs = now;
    std::vector<std::string> said = problems;
    if (auto steps = m_journal.recentSteps(kJournalShown))
        view.journal = std::move(steps).value();
    else
        said.push_back(steps.error().message);
    if (auto entries = m_journal.recentAudit(kAuditShown))
        view.audit = std::move(entries).value();
    else
        said.push_back(entries.error().message);
    for (const auto &state : m_services)
        view.services.push_back(state->view);
    std::string problem;
    for (const std::string &p : said)
        problem += (problem.empty() ? "" : "; ") + p;
    view.problem = problem;
    std::lock_guard lock(m_mutex);
    m_view = std::move(view);
    return said.empty() ? Status{} : Status{Error{problem}};
}

}  // namespace meridian
