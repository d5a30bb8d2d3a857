#include "placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace meridian {

namespace {

// Local first, the fastest card model first: it is paid for whether used or not. What is
// left to place.
double placeLocally(const InferenceService &service, const PlacementRequest &request,
                    PlacementPlan &plan)
{
    double remaining = request.neededRps;
    std::vector<LocalCapacity> local = request.local;
    std::sort(local.begin(), local.end(), [&](const LocalCapacity &a, const LocalCapacity &b) {
        return service.replicaRequestsPerSecond(a.cardModel) >
               service.replicaRequestsPerSecond(b.cardModel);
    });
    for (const LocalCapacity &pool : local) {
        const double perReplica = service.replicaRequestsPerSecond(pool.cardModel);
        if (remaining <= 0 || perReplica <= 0)
            continue;
        const int possible = pool.freeCards / service.cardsPerReplica;
        const int wanted = static_cast<int>(std::ceil(remaining / perReplica - 1e-9));
        const int replicas = std::min(possible, wanted);
        if (replicas <= 0)
            continue;
        plan.local.push_back({pool.cardModel, replicas});
        plan.placedRps += replicas * perReplica;
        remaining -= replicas * perReplica;
    }
    return remaining;
}

// The offers the service may rent, inside its price cap, best throughput per CNY first;
// an offer above the cap is noted.
std::vector<CloudOfferView> allowedOffers(const InferenceService &service,
                                          const std::vector<CloudOfferView> &all,
                                          PlacementPlan &plan)
{
    const RentLimits &limits = service.rent;
    std::vector<CloudOfferView> offers;
    for (const CloudOfferView &offer : all) {
        const bool allowed = std::find(limits.cardModels.begin(), limits.cardModels.end(),
                                       offer.cardModel) != limits.cardModels.end();
        if (!allowed || service.replicaRequestsPerSecond(offer.cardModel) <= 0)
            continue;
        if (offer.cnyPerCardHour > limits.maxCnyPerCardHour) {
            plan.notes.push_back(
                fmt::format("{} at {:.2f} CNY/card-hour is above the cap of {:.2f}", offer.offerId,
                            offer.cnyPerCardHour, limits.maxCnyPerCardHour));
            continue;
        }
        offers.push_back(offer);
    }
    const auto valueOf = [&](const CloudOfferView &o) {
        return service.replicaRequestsPerSecond(o.cardModel) /
               (o.cnyPerCardHour * service.cardsPerReplica + 1e-9);
    };
    std::sort(offers.begin(), offers.end(), [&](const CloudOfferView &a, const CloudOfferView &b) {
        return valueOf(a) > valueOf(b);
    });
    return offers;
}

// What the service has rented so far, as the caps count it.
struct Rented {
    int cards = 0;
    double cnyPerHour = 0;
};

// Whole nodes of one offer for what remains, within its availability, the card cap and
// the budget (each cap that holds the order back says so); what is still left.
double rentFrom(const InferenceService &service, const CloudOfferView &offer, double remaining,
                Rented &rented, PlacementPlan &plan)
{
    const RentLimits &limits = service.rent;
    const double perReplica = service.replicaRequestsPerSecond(offer.cardModel);
    const int replicasPerNode = offer.cardsPerNode / service.cardsPerReplica;
    if (remaining <= 1e-9 || replicasPerNode <= 0)
        return remaining;
    const double nodeCny = offer.cnyPerCardHour * offer.cardsPerNode;
    int nodes = static_cast<int>(std::ceil(remaining / (perReplica * replicasPerNode) - 1e-9));
    const auto cap = [&](int allowed, const std::string &why) {
        if (allowed < nodes) {
            nodes = std::max(0, allowed);
            plan.notes.push_back(why);
        }
    };
    cap(offer.availableNodes,
        fmt::format("{} has {} nodes free", offer.offerId, offer.availableNodes));
    if (limits.maxCards > 0) {
        cap((limits.maxCards - rented.cards) / offer.cardsPerNode,
            fmt::format("the cap of {} rented cards is reached", limits.maxCards));
    }
    if (limits.budgetCnyPerHour > 0) {
        cap(static_cast<int>((limits.budgetCnyPerHour - rented.cnyPerHour + 1e-9) / nodeCny),
            fmt::format("the budget of {:.0f} CNY/hour is reached", limits.budgetCnyPerHour));
    }
    if (nodes <= 0)
        return remaining;
    // Whole nodes are rented; only the replicas the demand needs are started on them.
    const int replicas = std::min(nodes * replicasPerNode,
                                  static_cast<int>(std::ceil(remaining / perReplica - 1e-9)));
    plan.cloud.push_back({offer.offerId, offer.cardModel, nodes, replicas, nodes * nodeCny});
    plan.placedRps += replicas * perReplica;
    plan.addedCnyPerHour += nodes * nodeCny;
    rented.cards += nodes * offer.cardsPerNode;
    rented.cnyPerHour += nodes * nodeCny;
    return remaining - replicas * perReplica;
}

}  // namespace

PlacementPlan planPlacement(const InferenceService &service, const PlacementRequest &request)
{
    PlacementPlan plan;
    double remaining = placeLocally(service, request, plan);
    if (remaining <= 1e-9)
        return plan;
    // Then the cloud, best throughput per CNY first, inside every cap.
    const std::vector<CloudOfferView> offers = allowedOffers(service, request.offers, plan);
    Rented rented{request.rentedCards, request.rentedCnyPerHour};
    for (const CloudOfferView &offer : offers)
        remaining = rentFrom(service, offer, remaining, rented, plan);
    if (remaining > 1e-9) {
        plan.shortRps = remaining;
        if (service.rent.cardModels.empty())
            plan.notes.push_back("the service may not rent cloud capacity");
        else if (offers.empty() && !request.offersMissingWhy.empty())
            plan.notes.push_back(request.offersMissingWhy);
        else if (offers.empty())
            plan.notes.push_back("no allowed cloud offer within the price cap");
        plan.notes.push_back(fmt::format("{:.2f} req/s cannot be placed", remaining));
    }
    return plan;
}

int64_t paidUntil(const CloudLease &lease, int64_t nowS)
{
    const int64_t increment = std::max<int64_t>(1, lease.billingIncrementSeconds);
    if (nowS <= lease.createdUnixS)
        return lease.createdUnixS + increment;
    const int64_t started = (nowS - lease.createdUnixS) / increment;
    return lease.createdUnixS + (started + 1) * increment;
}

bool releaseNow(const CloudLease &lease, int64_t nowS, int64_t marginS)
{
    return paidUntil(lease, nowS) - nowS <= marginS;
}

}  // namespace meridian
