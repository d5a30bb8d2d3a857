// How a service's load balancer follows what the controller started: each pass reads what
// waits at its door and its servers (one `show stat`), then makes its servers equal to the
// replicas serving now, a replica whose step is being released drained there before it is
// stopped (balancer/). Per service; the controller runs it for each that has a balancer.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fleet/fleetstate.h"
#include "scaling/journalstep.h"
#include "servicestate.h"

namespace meridian {

// Reads the service's balancer for this pass's decisions; one that does not answer leaves
// no reading (followReplicas then says why).
void readBalancer(ScalingServiceState &state, int64_t nowMs);

struct BalancerFollowed {
    std::set<int64_t> draining;     // releasing steps whose replicas it still holds
    std::vector<std::string> done;  // what changed there, in words, for the audit log
    std::string problem;            // set: it did not answer (and holds no release back)
};

// `replicas`: every replica's readings, local and rented; `open`: the journal's open steps.
BalancerFollowed followReplicas(ScalingServiceState &state,
                                const std::vector<ReplicaReading> &replicas,
                                const std::vector<JournalStep> &open, int64_t nowMs);

}  // namespace meridian
