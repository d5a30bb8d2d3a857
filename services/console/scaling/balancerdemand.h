// The load balancer's side of a service's demand. With servers at their `maxconn`, the
// queue is at the balancer rather than in the replicas, and the replicas' own arrival
// rate is what they were let admit: below the demand while the queue grows (a full
// service looks merely busy), above it while new replicas drain the queue (the backlog
// counted twice, once waiting and again as arrivals, ordering capacity for it again).
// So what waits at the balancer counts as waiting, and the rate at its door, from the
// growth of its request count between two passes, is the arrival rate.
#pragma once

#include <cstdint>
#include <optional>

#include "scalingpolicy.h"

namespace meridian {

struct BalancerReading {
    int64_t atMs = 0;
    int queued = 0;
    uint64_t requestsTotal = 0;
};

// `before` is the previous pass's reading (none after a restart or a balancer that did not
// answer; a count that went down is a restarted HAProxy): then only the queue is added.
void addBalancerLoad(ServiceSignals &signals, const BalancerReading &now,
                     const std::optional<BalancerReading> &before);

}  // namespace meridian
