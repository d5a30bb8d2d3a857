// The load balancer's side of a service's demand. With servers at their `maxconn`, the
// queue is at the balancer rather than in the replicas, and the replicas' own arrival
// rate is what they were let admit: below the demand while the queue grows (a full
// service looks merely busy), above it while new replicas drain the queue (the backlog
// counted twice, once waiting and again as arrivals, ordering capacity for it again).
// So what waits at the balancer counts as waiting, and the arrival rate is taken at its
// door between two passes: the growth of every request that came in, those finished
// (HAProxy counts a request once it is done) and those it holds, at a server or queued.
#pragma once

#include <cstdint>
#include <optional>

#include "scalingpolicy.h"

namespace meridian {

struct BalancerReading {
    int64_t atMs = 0;
    int queued = 0;
    std::optional<uint64_t> arrivedTotal;  // finished, plus held now; none: not counted
};

// `before` is the previous pass's reading (none after a restart or a balancer that did not
// answer; a count that went down is a restarted HAProxy; a reading without a count): then
// only the queue is added.
void addBalancerLoad(ServiceSignals &signals, const BalancerReading &now,
                     const std::optional<BalancerReading> &before);

}  // namespace meridian
