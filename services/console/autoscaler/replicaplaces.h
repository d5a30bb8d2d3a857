// Where a service's replicas go: the cards of its local pool no replica holds and no
// approved step is about to take (and, said, why a pool node offers none), and for each
// open step the node and cards its replicas run on (a local node's cards the service runs
// on; a leased node's whole card set). Pure: the pass gives the fleet, the books and what
// each node's agent says its replicas hold.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/inferenceservice.h"
#include "core/result.h"
#include "fleet/fleetstate.h"
#include "fleetlink/leasesync.h"
#include "scaling/journalstep.h"
#include "scaling/placement.h"
#include "scalingclients.h"

namespace meridian {

struct LocalFree {
    std::string nodeId;
    std::string cardModel;
    int freeCards = 0;
};

// The cards each replica on the node at `address` holds (its agent's word).
using HeldCards = std::function<Result<std::vector<uint32_t>>(const std::string &address)>;

std::vector<LocalFree> freeLocalCards(const InferenceService &service, const FleetLayout *layout,
                                      const std::vector<JournalStep> &open,
                                      const HeldCards &heldCards, std::vector<std::string> &notes);

// Places `shortReplicas` more of the service on the free local cards (whole replicas a
// node) and the offers, within its caps given what it rents now; says why where it cannot.
PlacementPlan placeReplicas(const InferenceService &service, int shortReplicas,
                            const std::vector<LocalFree> &local,
                            const std::vector<CloudOfferView> &offers, int rentedCards,
                            double rentedCnyPerHour, std::string offersMissingWhy = {});

// The steps of a plan: one a replica on the free local cards (in the pool's order), one a
// node of each offer, each under a key of its own that names it to the pool and the agents
// for ever.
std::vector<JournalStep> planSteps(const InferenceService &service, const PlacementPlan &placement,
                                   std::vector<LocalFree> local, StepState state, int64_t nowMs);

// The lease a step holds in the pool's books, or null.
const CloudLease *leaseOfStep(const PoolLeases &books, const JournalStep &step);
// The service's serving steps in the order its surplus goes: the lease whose paid hour ends
// soonest first (the others' hours are paid anyway), and among equals the newest.
std::vector<const JournalStep *> releaseOrder(const std::string &service,
                                              const std::vector<JournalStep> &open,
                                              const PoolLeases &books, int64_t nowMs);

// Every open step of a declared service, as the replica runner is to keep it.
std::vector<ReplicaTarget> replicaTargets(const std::vector<JournalStep> &open,
                                          const std::vector<InferenceService> &services,
                                          const PoolLeases &books, const FleetLayout *layout);

}  // namespace meridian
