// Each pass's decision per service: the policy asked with what the replicas and the
// journal say, the decision shown in the view, and the steps it leads to.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "auditwords.h"
#include "keptdemand.h"
#include "replicaplaces.h"
#include "replicatally.h"
#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

ScalingDecision ScalingController::askPolicy(ServiceState &state, const ReplicaCount &replicas,
                                             const JournalCount &journal, int64_t nowMs)
{
    const InferenceService &service = state.service;
    state.signals.push_back(replicas.signals);
    state.signals.back().servingReplicas = replicas.ready;
    forgetOldSignals(state.signals, nowMs, state.policy);

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
    input.latencyObjectiveSeconds = service.objectiveP95Seconds;
    input.lastScaleUpMs = journal.lastScaleUpMs;
    if (state.policy.forecastDays > 0)
        input.forecastRps = state.profile.forecast(nowMs, state.policy.forecastLeadMs);
    if (state.policy.surgeCover > 1)
        input.usualRps = state.profile.usualRate(nowMs, state.policy.surgeBaseWindowMs);
    state.view.forecastRps = input.forecastRps;
    return decideReplicas(input, state.policy);
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
    v.planVersion = OperatorAsks::planVersion(open, state.service.name).value_or(0);
    v.history.push_back({nowMs, replicas.signals.arrivalRps, replicas.signals.waitingRequests,
                         replicas.ttftP95Seconds, replicas.e2eP95Seconds, replicas.ready, starting,
                         decision.desiredReplicas, replicas.queueDelayP95Seconds});
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
    ReplicaCount replicas = countReplicas(state.service.name, local, rented, now);
    // What waits at its load balancer waits too.
    if (state.balancer)
        addBalancerLoad(replicas.signals, *state.balancer, state.balancerBefore);
    JournalCount journal = countJournal(state.service, open, replicas.seenIds, m_offers);
    // A plan approved this run, before its steps show.
    if (const auto approved = m_asks.lastScaleUpMs(state.service.name))
        journal.lastScaleUpMs = std::max(journal.lastScaleUpMs.value_or(0), *approved);
    // Replicas already on their way out serve what they hold, but the pass plans without
    // them: the release under way has already answered the need that started it.
    replicas.ready = std::max(0, replicas.ready - journal.going);
    replicas.readyRented = std::max(0, replicas.readyRented - journal.goingRented);
    if (readsDemandMinutes(state.policy))
        if (Status kept = rememberDemand(state, m_journal, replicas.signals.arrivalRps, now); !kept)
            problems.push_back(kept.message());
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
    const ApprovalMode mode = m_asks.mode();
    const bool planRequested = m_asks.planRequested(service.name);
    std::vector<LocalFree> local;
    std::vector<std::string> limits;
    if (!service.localPool.empty())
        local = freeLocalCards(
            state.service, m_localLayout.get(), open,
            [this](const std::string &address) { return m_replicas->heldCards(address); }, limits);
    const std::vector<CloudOfferView> offers =
        m_offerHolds.usable(m_offers, m_clock.steadyMs(), limits);
    std::string offersMissingWhy;
    if (!m_poolSilence.empty())
        offersMissingWhy = "the capacity pool's offers are not known: " + m_poolSilence;
    else if (offers.size() < m_offers.size())
        offersMissingWhy = "no other allowed cloud offer within the price cap";
    const PlacementPlan placement =
        placeReplicas(service, shortReplicas, local, offers, v.rentedCards, v.rentedCnyPerHour,
                      std::move(offersMissingWhy));
    for (const std::string &note : placement.notes) {
        if (std::find(limits.begin(), limits.end(), note) == limits.end())
            limits.push_back(note);  // one line a cap, however many offers it held back
    }
    v.notes.insert(v.notes.end(), limits.begin(), limits.end());
    sayLimits(state, limits);
    int placeable = 0;
    for (const CloudPlacement &p : placement.cloud)
        placeable += p.replicas;
    for (const LocalPlacement &p : placement.local)
        placeable += p.replicas;
    int pending = journal.pending;
    if (pending > 0 && mode != ApprovalMode::Manual && placeable > journal.pendingReplicas) {
        // The need outgrew the plan waiting for approval, and the caps allow more: one
        // plan for all of it replaces it. Nobody turned it down: it is superseded.
        if (auto dropped = m_asks.dropPlan(service.name, StepState::Superseded); !dropped) {
            problems.push_back(dropped.error().message);
        } else {
            m_asks.audit(m_options.requestedBy,
                         fmt::format("superseded the plan for {}: {} step(s)", service.name,
                                     dropped.value()),
                         "superseded by a larger plan: " + decision.why);
            pending = 0;
        }
    }
    if (pending == 0 && (mode != ApprovalMode::Manual || planRequested))
        plan(state, placement, std::move(local), decision.why, nowMs, problems);
}

void ScalingController::sayLimits(ServiceState &state, const std::vector<std::string> &limits)
{
    for (const std::string &limit : limitsNotSaid(state.limitsSaid, limits))
        m_asks.audit(m_options.requestedBy,
                     fmt::format("scaling of {} is limited", state.service.name), limit);
}

void ScalingController::auditActions(const std::vector<Recovery> &actions,
                                     const std::vector<JournalStep> &open, int64_t)
{
    for (const Recovery &a : actions) {
        if (std::string what = actionWords(a, open); !what.empty())
            m_asks.audit(m_options.requestedBy, what, a.why);
    }
}

void ScalingController::holdOffersGivenBack(const std::vector<Recovery> &actions,
                                            const std::vector<JournalStep> &open)
{
    for (const Recovery &a : actions) {
        if (a.kind != RecoveryKind::GiveUp)
            continue;
        for (const JournalStep &step : open)
            if (step.id == a.stepId)
                m_offerHolds.hold(step.offerId, a.why, m_clock.steadyMs());
    }
}

}  // namespace meridian
