#include "replicaplaces.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>

namespace meridian {

namespace {

struct LocalNode {
    std::string nodeId;
    std::string address;
    std::vector<uint32_t> cards;        // the cards the service runs on ...
    std::vector<std::string> models;    // ... and their models
    std::set<std::string> otherModels;  // those of the cards it cannot run on
};

std::optional<LocalNode> localNode(const std::string &nodeId, const InferenceService &service,
                                   const FleetLayout *pass)
{
    if (!pass)
        return std::nullopt;
    const FleetLayout &layout = *pass;
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

}  // namespace

std::vector<LocalFree> freeLocalCards(const InferenceService &service, const FleetLayout *layout,
                                      const std::vector<JournalStep> &open,
                                      const HeldCards &heldCards, std::vector<std::string> &notes)
{
    const int perReplica = std::max(1, service.cardsPerReplica);
    std::vector<LocalFree> out;
    for (const std::string &nodeId : service.localPool) {
        const std::optional<LocalNode> node = localNode(nodeId, service, layout);
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
        auto held = heldCards(node->address);
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

std::vector<ReplicaTarget> replicaTargets(const std::vector<JournalStep> &open,
                                          const std::vector<InferenceService> &services,
                                          const PoolLeases &books, const FleetLayout *layout)
{
    std::vector<ReplicaTarget> targets;
    for (const JournalStep &step : open) {
        const auto service = std::find_if(services.begin(), services.end(),
                                          [&](const auto &s) { return s.name == step.service; });
        if (service == services.end())
            continue;
        const InferenceService &declared = *service;
        ReplicaTarget t;
        t.stepKey = step.idempotencyKey;
        t.service = step.service;
        t.model = declared.model;
        t.cardsPerReplica = std::max(1, declared.cardsPerReplica);
        if (step.offerId == kLocalOffer) {
            const std::optional<LocalNode> node = localNode(step.nodeId, declared, layout);
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
    return targets;
}

PlacementPlan placeReplicas(const InferenceService &service, int shortReplicas,
                            const std::vector<LocalFree> &local,
                            const std::vector<CloudOfferView> &offers, int rentedCards,
                            double rentedCnyPerHour, std::string offersMissingWhy)
{
    const double replicaRps =
        service.runsOn.empty() ? 0
                               : service.replicaRequestsPerSecond(service.runsOn.front().cardModel);
    PlacementRequest request;
    request.neededRps = shortReplicas * replicaRps;
    request.offersMissingWhy = std::move(offersMissingWhy);
    for (const LocalFree &free : local) {
        auto it =
            std::find_if(request.local.begin(), request.local.end(),
                         [&](const LocalCapacity &c) { return c.cardModel == free.cardModel; });
        if (it == request.local.end())
            request.local.push_back({free.cardModel, 0});
        it = std::find_if(request.local.begin(), request.local.end(),
                          [&](const LocalCapacity &c) { return c.cardModel == free.cardModel; });
        // Whole replicas a node: cards split over two nodes make none.
        it->freeCards += free.freeCards / std::max(1, service.cardsPerReplica) *
                         std::max(1, service.cardsPerReplica);
    }
    request.offers = offers;
    request.rentedCards = rentedCards;
    request.rentedCnyPerHour = rentedCnyPerHour;
    PlacementPlan placement = planPlacement(service, request);
    if (placement.cloud.empty() && placement.local.empty() && placement.notes.empty())
        placement.notes.push_back("no free local cards and no cloud offer it may rent");
    return placement;
}

const CloudLease *leaseOfStep(const PoolLeases &books, const JournalStep &step)
{
    const auto it = std::find_if(books.leases.begin(), books.leases.end(),
                                 [&](const CloudLease &l) { return l.leaseId == step.leaseId; });
    return it == books.leases.end() ? nullptr : &*it;
}

std::vector<const JournalStep *> releaseOrder(const std::string &service,
                                              const std::vector<JournalStep> &open,
                                              const PoolLeases &books, int64_t nowMs)
{
    std::vector<const JournalStep *> serving;
    for (const JournalStep &step : open) {
        if (step.service == service && step.state == StepState::Serving)
            serving.push_back(&step);
    }
    std::reverse(serving.begin(), serving.end());  // the newest first: the oldest are proven
    // ... but first the lease whose paid hour ends soonest: the others' hours are paid
    // for anyway, and may yet be needed.
    const auto paidEnd = [&](const JournalStep *step) {
        const CloudLease *lease =
            step->offerId == kLocalOffer ? nullptr : leaseOfStep(books, *step);
        return lease ? paidUntil(*lease, nowMs / 1000) : std::numeric_limits<int64_t>::max();
    };
    std::stable_sort(
        serving.begin(), serving.end(),
        [&](const JournalStep *a, const JournalStep *b) { return paidEnd(a) < paidEnd(b); });
    return serving;
}

std::vector<JournalStep> planSteps(const InferenceService &service, const PlacementPlan &placement,
                                   std::vector<LocalFree> local, StepState state, int64_t nowMs)
{
    // Keys name a step to the pool and the agents for ever: unique across plans made in
    // the same millisecond and across restarts.
    const uint32_t salt = std::random_device{}();
    std::vector<JournalStep> steps;
    const auto step = [&](const std::string &offerId) {
        JournalStep s;
        s.service = service.name;
        s.idempotencyKey =
            fmt::format("{}-{}-{:08x}-{}", service.name, nowMs, salt, steps.size() + 1);
        s.state = state;
        s.offerId = offerId;
        return s;
    };
    const int perReplica = std::max(1, service.cardsPerReplica);
    for (const LocalPlacement &p : placement.local) {
        // One step a replica, on the pool's nodes in order.
        int wanted = p.replicas;
        for (LocalFree &free : local) {
            for (; wanted > 0 && free.cardModel == p.cardModel && free.freeCards >= perReplica;
                 --wanted, free.freeCards -= perReplica) {
                steps.push_back(step(std::string(kLocalOffer)));
                steps.back().nodeId = free.nodeId;
            }
        }
    }
    for (const CloudPlacement &p : placement.cloud) {
        for (int n = 0; n < p.nodes; ++n) {
            steps.push_back(step(p.offerId));
            steps.back().cnyPerHour = p.cnyPerHour / std::max(1, p.nodes);
        }
    }
    return steps;
}

}  // namespace meridian
