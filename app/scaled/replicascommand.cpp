#include "replicascommand.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "autoscaler/scalingclients.h"
#include "wire/security.h"

namespace meridian {

namespace {

int refused(const std::string &why)
{
    fmt::print(stderr, "meridian-scaled replicas: {}\n", why);
    return 2;
}

std::string_view stateName(ReplicaState state)
{
    switch (state) {
    case ReplicaState::Absent: return "absent";
    case ReplicaState::Starting: return "starting";
    case ReplicaState::Partial: return "partly started";
    case ReplicaState::Serving: return "serving";
    case ReplicaState::Failed: return "failed (the agent's log under DATA_DIR/replicas says why)";
    case ReplicaState::Unknown: return "unknown (the agent did not answer)";
    }
    return "unknown";
}

}  // namespace

int runReplicas(const ReplicasCommand &command)
{
    if (command.action != "start" && command.action != "stop" && command.action != "list")
        return refused(fmt::format("{}: use start, stop or list", command.action));
    if (command.service.empty() && command.name.empty())
        return refused("give --service (and --name where the replicas are not steady-SERVICE)");
    auto security = clientSecurityFromFiles(command.caFile, command.tokenFile);
    if (!security)
        return refused(security.error().message);
    ReplicaTarget target;
    target.stepKey = command.name.empty() ? "steady-" + command.service : command.name;
    target.nodeId = command.agent;
    target.address = command.agent;
    target.service = command.service;
    target.model = command.model.empty() ? command.service : command.model;
    target.cardsPerReplica = command.cardsPerReplica;
    target.replicas = command.count;
    target.cards = command.cards;
    if (target.cards.empty())
        for (uint32_t c = 0; c < 8; ++c)
            target.cards.push_back(c);
    GrpcReplicas replicas(security.value(), "meridian-scaled replicas");
    replicas.setTargets({target});
    const auto state = [&] {
        auto views = replicas.replicas();
        return views && !views->empty() ? views->front().state : ReplicaState::Unknown;
    };
    if (command.action == "start") {
        if (command.service.empty())
            return refused("start: give --service");
        if (Status started = replicas.start(command.agent, target.stepKey, command.service);
            !started)
            return refused(started.message());
        const auto until =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(command.waitSeconds);
        while (state() != ReplicaState::Serving && state() != ReplicaState::Failed &&
               std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::seconds(1));
    } else if (command.action == "stop") {
        if (Status stopped = replicas.stop(command.agent, target.stepKey); !stopped)
            return refused(stopped.message());
    }
    const ReplicaState now = state();
    fmt::print("{} on {}: {} replica(s) {}/r1…: {}\n",
               target.service.empty() ? "replicas" : target.service, command.agent, target.replicas,
               target.stepKey, stateName(now));
    if (command.action == "start" && command.waitSeconds > 0 && now != ReplicaState::Serving)
        return 1;
    return now == ReplicaState::Failed || now == ReplicaState::Unknown ? 1 : 0;
}

}  // namespace meridian
