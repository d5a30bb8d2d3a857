// ScalingController's members on where a service's capacity comes from and where it
// goes: placement on free cards of its local pool and on cloud offers, plans written to
// the journal, surplus given back, the rented nodes' agents followed, and what each
// step's replicas run on. The pass itself is in scalingcontroller.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "fleet/fleetstate.h"
#include "fleetlink/fleetclient.h"
#include "replicaplaces.h"
#include "replicatally.h"
#include "scalingclients.h"
#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

void ScalingController::plan(ServiceState &state, const PlacementPlan &placement,
                             std::vector<LocalFree> local, const std::string &why, int64_t now,
                             std::vector<std::string> &problems)
{
    const InferenceService &service = state.service;
    ServiceScalingView &v = state.view;
    if (placement.cloud.empty() && placement.local.empty())
        return;
    m_asks.planMade(service.name);
    const bool automatic = m_asks.mode() == ApprovalMode::Automatic;
    const std::vector<JournalStep> steps =
        planSteps(service, placement, std::move(local),
                  automatic ? StepState::Approved : StepState::Planned, now);
    // Every step is journalled before anything is asked of anyone.
    int64_t newestStep = 0;  // names the plan
    for (const JournalStep &step : steps) {
        auto id = m_journal.addStep(step, m_options.requestedBy, why, now);
        if (!id) {
            problems.push_back(id.error().message);
            return;
        }
        newestStep = std::max(newestStep, id.value());
    }
    const int nodes = static_cast<int>(steps.size());
    const auto localSteps = static_cast<int>(std::count_if(
        steps.begin(), steps.end(), [](const JournalStep &s) { return s.offerId == kLocalOffer; }));
    double cnyPerHour = 0;
    for (const JournalStep &step : steps)
        cnyPerHour += step.cnyPerHour;
    std::string offers =
        localSteps > 0 ? fmt::format("{} replica(s) on free local cards", localSteps) : "";
    for (const CloudPlacement &p : placement.cloud)
        offers += fmt::format("{}{}×{}", offers.empty() ? "" : ", ", p.nodes, p.offerId);
    m_asks.audit(
        m_options.requestedBy,
        fmt::format("planned {} step(s) for {}: {}, {:.2f} CNY/h{}", nodes, service.name, offers,
                    cnyPerHour, automatic ? ", approved automatically within its caps" : ""),
        why);
    if (automatic)
        m_asks.scaledUp(service.name, now);
    v.pendingSteps = automatic ? 0 : nodes;
    v.pendingLocalSteps = automatic ? 0 : localSteps;
    v.pendingCnyPerHour = automatic ? 0 : cnyPerHour;
    v.planVersion = automatic ? 0 : newestStep;
}

bool ScalingController::startRelease(const JournalStep &step, int64_t now,
                                     std::vector<std::string> &problems, const std::string &what,
                                     const std::string &why)
{
    if (Status s = m_journal.moveStep(step.id, StepState::Releasing, {}, {}, now); !s) {
        problems.push_back(s.error().message);
        return false;
    }
    m_asks.audit(m_options.requestedBy, what, why);
    return true;
}

void ScalingController::releaseSurplus(ServiceState &state, const std::vector<JournalStep> &open,
                                       int surplus, int64_t now, std::vector<std::string> &problems)
{
    const InferenceService &service = state.service;
    ServiceScalingView &v = state.view;
    const PoolLeases &books = m_pool->lastLeases();
    // Paid hours are counted on the pool's clock, which stamped the leases: a jump of this
    // host's clock gives back nothing early and keeps nothing into a new hour.
    const int64_t paidNowMs = poolNowUnixMs(books, now, m_clock.steadyMs());
    const std::vector<const JournalStep *> serving =
        releaseOrder(service.name, open, books, paidNowMs);
    const bool approved =
        m_asks.mode() == ApprovalMode::Automatic || m_asks.releaseApproved(service.name);
    int surplusSteps = 0;
    bool rentedLeft = false;
    for (const JournalStep *step : serving) {
        if (step->offerId == kLocalOffer)
            continue;
        rentedLeft = true;
        const CloudLease *lease = leaseOfStep(books, *step);
        if (!lease)
            continue;
        const int replicas =
            replicasPerNode(service, lease->cardModel, static_cast<int>(lease->cardsPerNode));
        if (replicas <= 0 || replicas > surplus)
            break;
        surplus -= replicas;
        ++surplusSteps;
        if (!approved || !releaseNow(*lease, paidNowMs / 1000))
            continue;  // paid to the end of its hour: it may yet be needed
        if (!startRelease(
                *step, now, problems,
                fmt::format("release lease {} ({}) of {}", lease->leaseId,
                            lease->nodeIds.empty() ? "" : lease->nodeIds.front(), service.name),
                fmt::format("surplus at the end of its paid hour: {}", v.why)))
            return;
    }
    // Replicas on our own cards cost nothing more to keep: they go only once nothing
    // rented is left, and as gradually as the policy sheds capacity.
    int localSurplus = v.localReplicas + v.rentedReplicas - v.desiredReplicas;
    for (const JournalStep *step : serving) {
        if (rentedLeft || step->offerId != kLocalOffer || localSurplus < 1)
            continue;
        --localSurplus;
        ++surplusSteps;
        if (!approved)
            continue;
        if (!startRelease(*step, now, problems,
                          fmt::format("stop replica {}/r1 on {} of {}", step->idempotencyKey,
                                      step->nodeId, service.name),
                          fmt::format("surplus local capacity: {}", v.why)))
            return;
    }
    v.surplusSteps = surplusSteps;
    v.releaseApproved = m_asks.releaseApproved(service.name);
    if (surplusSteps == 0)
        m_asks.releaseDone(service.name);
}

void ScalingController::setReplicaTargets(const std::vector<JournalStep> &open)
{
    std::vector<InferenceService> services;
    for (const auto &s : m_services)
        services.push_back(s->service);
    m_replicas->setTargets(
        replicaTargets(open, services, m_pool->lastLeases(), m_localLayout.get()));
}

}  // namespace meridian
