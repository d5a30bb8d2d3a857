#include "balancerfollow.h"

#include <algorithm>
#include <utility>

#include "balancer/balancersync.h"
#include "balancer/haproxyruntime.h"

namespace meridian {

namespace {

// A drain that never ends (a stream held open for hours) does not hold a release for ever.
constexpr int64_t kLongestDrainMs = 120'000;

}  // namespace

void readBalancer(ScalingServiceState &state, int64_t nowMs)
{
    const std::optional<LoadBalancerTarget> &target = state.service.loadBalancer;
    if (!target)
        return;
    auto backend = HaproxyRuntime(target->runtimeApi).backend(target->backend);
    if (!backend) {
        // followReplicas says so in the pass's problems; a silence tells no demand.
        state.balancer.reset();
        state.balancerBefore.reset();
        state.balancerServers.reset();
        return;
    }
    state.balancerServers = std::move(backend->servers);
    BalancerReading reading{nowMs, backend->queued, std::nullopt};
    if (backend->requestsTotal)
        reading.arrivedTotal = *backend->requestsTotal + static_cast<uint64_t>(backend->open);
    state.balancerBefore = std::exchange(state.balancer, reading);
}

BalancerFollowed followReplicas(ScalingServiceState &state,
                                const std::vector<ReplicaReading> &replicas,
                                const std::vector<JournalStep> &open, int64_t nowMs)
{
    BalancerFollowed followed;
    const std::optional<LoadBalancerTarget> &target = state.service.loadBalancer;
    if (!target)
        return followed;
    // Replicas whose step is being released are drained before they are stopped.
    std::vector<const JournalStep *> releasing;
    for (const JournalStep &step : open) {
        if (step.service == state.service.name && step.state == StepState::Releasing)
            releasing.push_back(&step);
    }
    std::vector<ReadyReplica> ready = readyReplicas(state.service.name, replicas);
    std::erase_if(ready, [&](const ReadyReplica &r) {
        return std::any_of(releasing.begin(), releasing.end(), [&](const JournalStep *s) {
            return r.replicaId.rfind(s->idempotencyKey + "/", 0) == 0;
        });
    });
    const HaproxyRuntime runtime(target->runtimeApi);
    // The servers read before deciding, where they were: one `show stat` a pass.
    std::optional<std::vector<BalancedServer>> listed = std::exchange(state.balancerServers, {});
    auto pass = listed ? syncBalancer(runtime, target->backend, std::move(*listed), ready,
                                      target->serverOptions)
                       : syncBalancer(runtime, target->backend, ready, target->serverOptions);
    if (!pass) {
        followed.problem = state.service.name + ": " + pass.error().message;
        return followed;
    }
    followed.done = pass->done;
    for (const JournalStep *step : releasing) {
        if (pass->holds(step->idempotencyKey + "/") &&
            nowMs - step->updatedUnixMs < kLongestDrainMs)
            followed.draining.insert(step->id);
    }
    return followed;
}

}  // namespace meridian
