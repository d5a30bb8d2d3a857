// What one pass of the controller counts for a service, before it asks the policy: its
// replicas as they report (serving, with their summed signals, or cold-starting) and what
// the journal holds for it (plans waiting, capacity held, replicas ordered and not yet
// reporting, those going). Pure: the pass gives the readings, the steps and the offers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/inferenceservice.h"
#include "fleet/fleetstate.h"
#include "scaling/journalstep.h"
#include "scaling/placement.h"
#include "scaling/scalingpolicy.h"

namespace meridian {

struct ReplicaCount {
    ServiceSignals signals;
    int ready = 0;
    int readyRented = 0;
    int coldStarting = 0;
    std::optional<double> ttftP95Seconds;  // the worst replica's, as are these
    std::optional<double> queueDelayP95Seconds;
    std::optional<double> e2eP95Seconds;
    std::vector<std::string> seenIds;  // to match replicas to the steps that ordered them
};

ReplicaCount countReplicas(const std::string &service, const std::vector<ReplicaReading> &local,
                           const std::vector<ReplicaReading> &rented, int64_t nowMs);

struct JournalCount {
    int ordered = 0;
    int pending = 0;
    int pendingLocal = 0;
    int pendingReplicas = 0;
    int rentedCards = 0;
    double pendingCny = 0;
    double rentedCny = 0;
    std::optional<int64_t> lastScaleUpMs;
    // Replicas still reporting whose step is being released (draining, then stopped):
    // they serve what they hold, but they are not capacity to plan with, or a second
    // pass would shed another for the same need.
    int going = 0;
    int goingRented = 0;
};

// `seenIds`: the replicas reporting now (ReplicaCount::seenIds); `offers`: the pool's.
JournalCount countJournal(const InferenceService &service, const std::vector<JournalStep> &open,
                          const std::vector<std::string> &seenIds,
                          const std::vector<CloudOfferView> &offers);

// How many of the service's replicas a node of `cardsPerNode` cards of the model holds.
int replicasPerNode(const InferenceService &service, const std::string &cardModel,
                    int cardsPerNode);

}  // namespace meridian
