// ScalingController's member that routes traffic to what it started: every pass, each
// service's load balancer is made equal to the replicas that serve it now (balancer/),
// and a replica whose step is released is drained there before it is stopped.
#include <algorithm>
#include <set>
#include <utility>

#include "balancer/balancersync.h"
#include "balancer/haproxyruntime.h"
#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

namespace {

// A drain that never ends (a stream held open for hours) does not hold a release for ever.
constexpr int64_t kLongestDrainMs = 120'000;

}  // namespace

void ScalingController::readBalancers(int64_t now)
{
    for (auto &state : m_services) {
        const std::optional<LoadBalancerTarget> &target = state->service.loadBalancer;
        if (!target)
            continue;
        auto backend = HaproxyRuntime(target->runtimeApi).backend(target->backend);
        if (!backend) {
            // followReplicas says so in the pass's problems; a silence tells no demand.
            state->balancer.reset();
            state->balancerBefore.reset();
            state->balancerServers.reset();
            continue;
        }
        state->balancerServers = std::move(backend->servers);
        BalancerReading reading{now, backend->queued, std::nullopt};
        if (backend->requestsTotal)
            reading.arrivedTotal = *backend->requestsTotal + static_cast<uint64_t>(backend->open);
        state->balancerBefore = std::exchange(state->balancer, reading);
    }
}

std::set<int64_t> ScalingController::followReplicas(const std::vector<ReplicaReading> &local,
                                                    const std::vector<ReplicaReading> &rented,
                                                    const std::vector<JournalStep> &open,
                                                    int64_t now, std::vector<std::string> &problems)
{
    std::vector<ReplicaReading> all = local;
    all.insert(all.end(), rented.begin(), rented.end());
    std::set<int64_t> draining;
    for (auto &state : m_services) {
        const std::optional<LoadBalancerTarget> &target = state->service.loadBalancer;
        if (!target)
            continue;
        // Replicas whose step is being released are drained before they are stopped.
        std::vector<const JournalStep *> releasing;
        for (const JournalStep &step : open) {
            if (step.service == state->service.name && step.state == StepState::Releasing)
                releasing.push_back(&step);
        }
        std::vector<ReadyReplica> ready = readyReplicas(state->service.name, all);
        std::erase_if(ready, [&](const ReadyReplica &r) {
            return std::any_of(releasing.begin(), releasing.end(), [&](const JournalStep *s) {
                return r.replicaId.rfind(s->idempotencyKey + "/", 0) == 0;
            });
        });
        const HaproxyRuntime runtime(target->runtimeApi);
        // The servers read before deciding, where they were: one `show stat` a pass.
        std::optional<std::vector<BalancedServer>> listed =
            std::exchange(state->balancerServers, {});
        auto pass = listed ? syncBalancer(runtime, target->backend, std::move(*listed), ready,
                                          target->serverOptions)
                           : syncBalancer(runtime, target->backend, ready, target->serverOptions);
        if (!pass) {
            problems.push_back(state->service.name + ": " + pass.error().message);
            continue;  // a balancer that does not answer holds no release back
        }
        for (const std::string &what : pass->done)
            audit(m_options.requestedBy, what, "the load balancer follows the ready replicas");
        for (const JournalStep *step : releasing) {
            if (pass->holds(step->idempotencyKey + "/") &&
                now - step->updatedUnixMs < kLongestDrainMs)
                draining.insert(step->id);
        }
    }
    return draining;
}

}  // namespace meridian
