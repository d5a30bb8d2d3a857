// ScalingController's members on where a service's capacity comes from and where it
// goes: placement on free cards of its local pool and on cloud offers, plans written to
// the journal, surplus given back, the rented nodes' agents followed, and what each
// step's replicas run on. The pass itself is in scalingcontroller.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <random>

#include "fleet/fleetstate.h"
#include "fleetlink/fleetclient.h"
#include "scalingclients.h"
#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

PlacementPlan ScalingController::place(const ServiceState &state, int shortReplicas,
                                       const std::vector<LocalFree> &local) const
{
    const InferenceService &service = state.service;
    const double replicaRps =
        service.runsOn.empty() ? 0
                               : service.replicaRequestsPerSecond(service.runsOn.front().cardModel);
    PlacementRequest request;
    request.neededRps = shortReplicas * replicaRps;
    for (const LocalFree &free : local) {
        auto it =
            std::find_if(request.local.begin(), request.local.end(),
                         [&](const LocalCapacity &c) { return c.cardModel == free.cardModel; });
        if (it == request.local.end())
            request.local.push_back({free.cardModel, 0});
        it = std::find_if(request.local.begin(), request.local.end(),
                          [&](const LocalCapacity &c) { return c.cardModel == free.cardModel; });
        // Whole replicas a node: cards split over two nodes make none.
        it->freeCards += free.freeCards / std::max(1, state.service.cardsPerReplica) *
                         std::max(1, state.service.cardsPerReplica);
    }
    request.offers = m_offers;
    request.rentedCards = state.view.rentedCards;
    request.rentedCnyPerHour = state.view.rentedCnyPerHour;
    PlacementPlan placement = planPlacement(service, request);
    if (placement.cloud.empty() && placement.local.empty() && placement.notes.empty())
        placement.notes.push_back("no free local cards and no cloud offer it may rent");
    return placement;
}

void ScalingController::plan(ServiceState &state, const PlacementPlan &placement,
                             std::vector<LocalFree> local, const std::string &why, int64_t now,
                             std::vector<std::string> &problems)
{
    const InferenceService &service = state.service;
    ServiceScalingView &v = state.view;
    if (placement.cloud.empty() && placement.local.empty())
        return;
    ApprovalMode mode;
    {
        std::lock_guard lock(m_mutex);
        mode = m_mode;
        m_planRequested.erase(service.name);
    }
    const bool automatic = mode == ApprovalMode::Automatic;
    // Keys name a step to the pool and the agents for ever: unique across plans made in
    // the same millisecond and across restarts.
    const uint32_t salt = std::random_device{}();
    int nodes = 0;
    double cnyPerHour = 0;
    int64_t newestStep = 0;  // names the plan
    std::string offers;
    int localSteps = 0;
    // Every step is journalled before anything is asked of anyone.
    const auto journal = [&](const JournalStep &step) {
        auto id = m_journal.addStep(step, m_options.requestedBy, why, now);
        if (!id) {
            problems.push_back(id.error().message);
            return false;
        }
        newestStep = std::max(newestStep, id.value());
        return true;
    };
    const int perReplica = std::max(1, service.cardsPerReplica);
    for (const LocalPlacement &p : placement.local) {
        // One step a replica, on the pool's nodes in order.
        int wanted = p.replicas;
        for (LocalFree &free : local) {
            for (; wanted > 0 && free.cardModel == p.cardModel && free.freeCards >= perReplica;
                 --wanted, free.freeCards -= perReplica) {
                JournalStep step;
                step.service = service.name;
                step.idempotencyKey =
                    fmt::format("{}-{}-{:08x}-{}", service.name, now, salt, ++nodes);
                step.state = automatic ? StepState::Approved : StepState::Planned;
                step.offerId = std::string(kLocalOffer);
                step.nodeId = free.nodeId;
                if (!journal(step))
                    return;
                ++localSteps;
            }
        }
    }
    if (localSteps > 0)
        offers = fmt::format("{} replica(s) on free local cards", localSteps);
    for (const CloudPlacement &p : placement.cloud) {
        for (int n = 0; n < p.nodes; ++n) {
            JournalStep step;
            step.service = service.name;
            step.idempotencyKey = fmt::format("{}-{}-{:08x}-{}", service.name, now, salt, ++nodes);
            step.state = automatic ? StepState::Approved : StepState::Planned;
            step.offerId = p.offerId;
            step.cnyPerHour = p.cnyPerHour / std::max(1, p.nodes);
            if (!journal(step))
                return;
        }
        cnyPerHour += p.cnyPerHour;
        offers += fmt::format("{}{}×{}", offers.empty() ? "" : ", ", p.nodes, p.offerId);
    }
    audit(m_options.requestedBy,
          fmt::format("planned {} step(s) for {}: {}, {:.2f} CNY/h{}", nodes, service.name, offers,
                      cnyPerHour, automatic ? ", approved automatically within its caps" : ""),
          why);
    if (automatic) {
        std::lock_guard lock(m_mutex);
        m_lastScaleUpMs[service.name] = now;
    }
    v.pendingSteps = automatic ? 0 : nodes;
    v.pendingLocalSteps = automatic ? 0 : localSteps;
    v.pendingCnyPerHour = automatic ? 0 : cnyPerHour;
    v.planVersion = automatic ? 0 : newestStep;
}

void ScalingController::releaseSurplus(ServiceState &state, const std::vector<JournalStep> &open,
                                       int surplus, int64_t now, std::vector<std::string> &problems)
{
    const InferenceService &service = state.service;
    ServiceScalingView &v = state.view;
    std::vector<const JournalStep *> serving;
    for (const JournalStep &step : open) {
        if (step.service == service.name && step.state == StepState::Serving)
            serving.push_back(&step);
    }
    std::reverse(serving.begin(), serving.end());  // the newest first: the oldest are proven
    // ... but first the lease whose paid hour ends soonest: the others' hours are paid
    // for anyway, and may yet be needed.
    const auto leaseOf = [&](const JournalStep *step) -> const CloudLease * {
        const auto &leases = m_pool->lastLeases().leases;
        const auto it = std::find_if(leases.begin(), leases.end(), [&](const CloudLease &l) {
            return l.leaseId == step->leaseId;
        });
        return it == leases.end() ? nullptr : &*it;
    };
    const auto paidEnd = [&](const JournalStep *step) {
        const CloudLease *lease = step->offerId == kLocalOffer ? nullptr : leaseOf(step);
        return lease ? paidUntil(*lease, now / 1000) : std::numeric_limits<int64_t>::max();
    };
    std::stable_sort(
        serving.begin(), serving.end(),
        [&](const JournalStep *a, const JournalStep *b) { return paidEnd(a) < paidEnd(b); });
    bool approved;
    {
        std::lock_guard lock(m_mutex);
        approved = m_mode == ApprovalMode::Automatic || m_releaseApproved.count(service.name);
    }
    int surplusSteps = 0;
    bool rentedLeft = false;
    for (const JournalStep *step : serving) {
        if (step->offerId == kLocalOffer)
            continue;
        rentedLeft = true;
        const CloudLease *lease = leaseOf(step);
        if (!lease)
            continue;
        const int replicas =
            replicasPerNode(service, lease->cardModel, static_cast<int>(lease->cardsPerNode));
        if (replicas <= 0 || replicas > surplus)
            break;
        surplus -= replicas;
        ++surplusSteps;
        if (!approved || !releaseNow(*lease, now / 1000))
            continue;  // paid to the end of its hour: it may yet be needed
        if (Status s = m_journal.moveStep(step->id, StepState::Releasing, {}, {}, now); !s) {
            problems.push_back(s.error().message);
            return;
        }
        audit(m_options.requestedBy,
              fmt::format("release lease {} ({}) of {}", lease->leaseId,
                          lease->nodeIds.empty() ? "" : lease->nodeIds.front(), service.name),
              fmt::format("surplus at the end of its paid hour: {}", v.why));
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
        if (Status s = m_journal.moveStep(step->id, StepState::Releasing, {}, {}, now); !s) {
            problems.push_back(s.error().message);
            return;
        }
        audit(m_options.requestedBy,
              fmt::format("stop replica {}/r1 on {} of {}", step->idempotencyKey, step->nodeId,
                          service.name),
              fmt::format("surplus local capacity: {}", v.why));
    }
    v.surplusSteps = surplusSteps;
    std::lock_guard lock(m_mutex);
    v.releaseApproved = m_releaseApproved.count(service.name) > 0;
    if (surplusSteps == 0)
        m_releaseApproved.erase(service.name);
}

void ScalingController::followRentedAgents()
{
    std::set<std::string> wanted;
    FleetInventory fresh;
    fresh.security = m_security;
    for (const LeasedAgent &agent : m_pool->lastLeases().agents) {
        wanted.insert(agent.address);
        if (!m_followed.count(agent.address))
            fresh.agents.push_back({agent.nodeId, agent.address, "cloud"});
    }
    if (!fresh.agents.empty())
        m_rentedClient->connect(fresh);
    for (const std::string &address : m_followed) {
        if (!wanted.count(address))
            m_rentedClient->disconnect(address);
    }
    m_followed = std::move(wanted);
}

void ScalingController::setReplicaTargets(const std::vector<JournalStep> &open)
{
    std::vector<ReplicaTarget> targets;
    const PoolLeases &books = m_pool->lastLeases();
    for (const JournalStep &step : open) {
        const auto service = std::find_if(m_services.begin(), m_services.end(), [&](const auto &s) {
            return s->service.name == step.service;
        });
        if (service == m_services.end())
            continue;
        const InferenceService &declared = (*service)->service;
        ReplicaTarget t;
        t.stepKey = step.idempotencyKey;
        t.service = step.service;
        t.model = declared.model;
        t.cardsPerReplica = std::max(1, declared.cardsPerReplica);
        if (step.offerId == kLocalOffer) {
            const std::optional<LocalNode> node = localNode(step.nodeId, declared);
            t.nodeId = step.nodeId;
            if (node) {
                t.address = node->address;
                t.cards = node->cards;
            }
            t.replicas = 1;
            targets.push_back(std::move(t));
            continue;
        }
        if (step.leaseId.empty())
            continue;
        const auto lease =
            std::find_if(books.leases.begin(), books.leases.end(),
                         [&](const CloudLease &l) { return l.leaseId == step.leaseId; });
        if (lease == books.leases.end())
            continue;
        t.nodeId = !step.nodeId.empty()      ? step.nodeId
                   : !lease->nodeIds.empty() ? lease->nodeIds.front()
                                             : std::string();
        for (const LeasedAgent &agent : books.agents) {
            if (agent.nodeId == t.nodeId)
                t.address = agent.address;
        }
        for (uint32_t c = 0; c < lease->cardsPerNode; ++c)
            t.cards.push_back(c);
        t.replicas = static_cast<int>(lease->cardsPerNode) / t.cardsPerReplica;
        targets.push_back(std::move(t));
    }
    m_replicas->setTargets(std::move(targets));
}

std::optional<ScalingController::LocalNode> ScalingController::localNode(
    const std::string &nodeId, const InferenceService &service) const
{
    if (!m_localLayout)
        return std::nullopt;
    const FleetLayout &layout = *m_localLayout;
    for (NodeHandle n = 0; n < layout.nodeCount(); ++n) {
        if (layout.nodeId[n] != nodeId)
            continue;
        LocalNode node{nodeId, layout.nodeAddress[n], {}, {}, {}};
        for (CardHandle c : layout.nodeCards[n]) {
            if (service.replicaRequestsPerSecond(layout.cardModel[c]) > 0) {
                node.cards.push_back(layout.cardIndex[c]);
                node.models.push_back(layout.cardModel[c]);
            } else {
                node.otherModels.insert(layout.cardModel[c]);
            }
        }
        return node;
    }
    return std::nullopt;
}

std::vector<ScalingController::LocalFree> ScalingController::freeLocalCards(
    const ServiceState &state, const std::vector<JournalStep> &open,
    std::vector<std::string> &notes)
{
    const InferenceService &service = state.service;
    const int perReplica = std::max(1, service.cardsPerReplica);
    std::vector<LocalFree> out;
    for (const std::string &nodeId : service.localPool) {
        const std::optional<LocalNode> node = localNode(nodeId, service);
        if (!node) {
            notes.push_back("local pool node " + nodeId + " is not in the fleet");
            continue;
        }
        if (node->cards.empty()) {
            // Said, not skipped: a model spelt two ways once left eight cards idle while
            // the controller rented.
            std::string models;
            for (const std::string &m : node->otherModels)
                models += (models.empty() ? "" : ", ") + m;
            std::string runsOn;
            for (const CardCapability &c : service.runsOn)
                runsOn += (runsOn.empty() ? "" : ", ") + c.cardModel;
            notes.push_back(fmt::format(
                "local pool node {}: its cards ({}) are none that {} "
                "runs on ({})",
                nodeId, models.empty() ? "none reported" : models, service.name, runsOn));
            continue;
        }
        auto held = m_replicas->heldCards(node->address);
        if (!held) {
            notes.push_back("local pool node " + nodeId + ": " + held.error().message);
            continue;
        }
        // Approved steps on their way to this node will take cards too. Planned ones do
        // not count: a new plan replaces them.
        int promised = 0;
        for (const JournalStep &step : open) {
            if (step.offerId == kLocalOffer && step.nodeId == nodeId &&
                step.state == StepState::Approved)
                promised += perReplica;
        }
        std::map<std::string, int> freeByModel;
        for (size_t i = 0; i < node->cards.size(); ++i) {
            if (std::find(held.value().begin(), held.value().end(), node->cards[i]) ==
                held.value().end())
                ++freeByModel[node->models[i]];
        }
        for (auto &[model, free] : freeByModel) {
            const int take = std::min(free, promised);
            promised -= take;
            if (free - take >= perReplica)
                out.push_back({nodeId, model, free - take});
        }
    }
    return out;
}

}  // namespace meridian
