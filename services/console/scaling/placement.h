// Where new replicas go and what they cost: free local cards first (already paid for),
// then the cloud offer that serves the most per CNY, in whole nodes, never above the
// service's price cap, card cap or hourly budget. Rented capacity that is no longer
// needed is released at the end of the billing increment it is paid for, not earlier.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "core/inferenceservice.h"

namespace meridian {

struct LocalCapacity {
    std::string cardModel;
    int freeCards = 0;
};

struct CloudOfferView {
    std::string offerId;
    std::string region;
    std::string cardModel;
    int cardsPerNode = 8;
    int availableNodes = 0;
    double cnyPerCardHour = 0;
};

struct PlacementRequest {
    double neededRps = 0;  // what the new replicas must serve together
    std::vector<LocalCapacity> local;
    std::vector<CloudOfferView> offers;
    int rentedCards = 0;  // already rented for this service
    double rentedCnyPerHour = 0;
    // Why `offers` lacks offers the pool has (held back, or the pool not heard from): said
    // instead of "no allowed cloud offer" when none is left, which would blame the caps.
    std::string offersMissingWhy;
};

struct LocalPlacement {
    std::string cardModel;
    int replicas = 0;
};

struct CloudPlacement {
    std::string offerId;
    std::string cardModel;
    int nodes = 0;
    int replicas = 0;
    double cnyPerHour = 0;
};

struct PlacementPlan {
    std::vector<LocalPlacement> local;
    std::vector<CloudPlacement> cloud;
    double placedRps = 0;
    double shortRps = 0;             // demand no allowed capacity could take
    double addedCnyPerHour = 0;      // what the rented part adds
    std::vector<std::string> notes;  // which cap or shortage held it back
};

PlacementPlan planPlacement(const InferenceService &service, const PlacementRequest &request);

// The end of the billing increment a lease is paying for at `nowS`.
int64_t paidUntil(const CloudLease &lease, int64_t nowS);
// Whether an unneeded lease should be released now: only within `marginS` of the end of
// its paid increment (until then it costs nothing more to keep, and may be needed again).
bool releaseNow(const CloudLease &lease, int64_t nowS, int64_t marginS = 120);

}  // namespace meridian
