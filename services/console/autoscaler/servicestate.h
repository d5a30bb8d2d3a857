// What the controller keeps per inference service between passes. Private to the
// autoscaler's own files; it needs nothing of the controller's, so the controller's
// header only names it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "balancer/haproxyruntime.h"
#include "core/inferenceservice.h"
#include "scaling/balancerdemand.h"
#include "scaling/dailyprofile.h"
#include "scaling/scalingpolicy.h"
#include "scalingcontrol.h"

namespace meridian {

struct ScalingServiceState {
    InferenceService service;
    std::vector<ServiceSignals> signals;  // what the policy reads, oldest first
    // The daily shape of its demand, from this run's passes (a restart starts it again).
    DailyProfile profile;
    ServiceScalingView view;
    ScalingPolicyConfig policy;  // its own, or the controller's
    // What held its last scale-up back (no local cards it can run on, caps, no offer):
    // each cause is audited once when it appears, not at every pass while it lasts.
    std::set<std::string> limitsSaid;
    // Its load balancer on the last two passes that reached it (none: no balancer, or it
    // did not answer): what waits there, and the rate at its door.
    std::optional<BalancerReading> balancer;
    std::optional<BalancerReading> balancerBefore;
    // The backend's servers as this pass read them, for the pass's sync to follow the
    // replicas on; none once used, or when the balancer did not answer.
    std::optional<std::vector<BalancedServer>> balancerServers;
};

}  // namespace meridian
