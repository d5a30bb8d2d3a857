// ScalingController's member that routes traffic to what it started: every pass, each
// service's load balancer is made equal to the replicas that serve it now (balancer/).
#include "balancer/balancersync.h"
#include "balancer/haproxyruntime.h"
#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

void ScalingController::followReplicas(const std::vector<ReplicaReading> &local,
                                       const std::vector<ReplicaReading> &rented,
                                       std::vector<std::string> &problems)
{
    std::vector<ReplicaReading> all = local;
    all.insert(all.end(), rented.begin(), rented.end());
    for (auto &state : m_services) {
        const std::optional<LoadBalancerTarget> &target = state->service.loadBalancer;
        if (!target)
            continue;
        const HaproxyRuntime runtime(target->runtimeApi);
        auto done = syncBalancer(runtime, target->backend, readyReplicas(state->service.name, all));
        if (!done) {
            problems.push_back(state->service.name + ": " + done.error().message);
            continue;
        }
        for (const std::string &what : done.value())
            audit(m_options.requestedBy, what, "the load balancer follows the ready replicas");
    }
}

}  // namespace meridian
