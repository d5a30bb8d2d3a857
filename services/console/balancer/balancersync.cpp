#include "balancersync.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "haproxyruntime.h"
#include "wire/hostport.h"

namespace meridian {

namespace {

constexpr std::string_view kPrefix = "meridian-";

}  // namespace

std::vector<ReadyReplica> readyReplicas(const std::string &service,
                                        const std::vector<ReplicaReading> &readings)
{
    std::vector<ReadyReplica> out;
    for (const ReplicaReading &r : readings) {
        if (r.signals.service != service || !r.signals.requestsPerSecond ||
            r.signals.servingPort == 0)
            continue;
        auto agent = parseHostPort(r.agentAddress);
        if (!agent)
            continue;
        const bool v6 = agent->host.find(':') != std::string::npos;
        const std::string host = v6 ? "[" + agent->host + "]" : agent->host;
        out.push_back({r.signals.replicaId, fmt::format("{}:{}", host, r.signals.servingPort)});
    }
    return out;
}

std::string balancedServerName(const std::string &replicaId)
{
    std::string name(kPrefix);
    for (const char c : replicaId) {
        const bool kept =
            std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        name += kept ? c : '_';
    }
    return name;
}

bool BalancerPass::holds(const std::string &replicaIdPrefix) const
{
    const std::string name = balancedServerName(replicaIdPrefix);
    return std::any_of(servers.begin(), servers.end(),
                       [&](const std::string &s) { return s.compare(0, name.size(), name) == 0; });
}

Result<BalancerPass> syncBalancer(const HaproxyRuntime &runtime, const std::string &backend,
                                  const std::vector<ReadyReplica> &ready,
                                  const std::string &serverOptions)
{
    auto listed = runtime.servers(backend);
    if (!listed)
        return listed.error();
    return syncBalancer(runtime, backend, std::move(listed).value(), ready, serverOptions);
}

Result<BalancerPass> syncBalancer(const HaproxyRuntime &runtime, const std::string &backend,
                                  std::vector<BalancedServer> listed,
                                  const std::vector<ReadyReplica> &ready,
                                  const std::string &serverOptions)
{
    std::map<std::string, BalancedServer> ours;
    for (BalancedServer &s : listed) {
        if (s.name.compare(0, kPrefix.size(), kPrefix) == 0)
            ours[s.name] = std::move(s);
    }
    BalancerPass pass;
    std::vector<std::string> &done = pass.done;
    std::map<std::string, bool> wanted;
    for (const ReadyReplica &r : ready) {
        const std::string name = balancedServerName(r.replicaId);
        wanted[name] = true;
        if (const auto it = ours.find(name); it != ours.end()) {
            // Drained when its readings paused (an agent a pass late): it serves again.
            if (it->second.draining()) {
                if (Status ready = runtime.readyServer(backend, name); !ready)
                    return ready.error();
                done.push_back(fmt::format("{} back in {}: it serves again", r.replicaId, backend));
            }
            continue;
        }
        if (Status added = runtime.addServer(backend, name, r.address, serverOptions); !added)
            return added.error();
        done.push_back(fmt::format("{} ({}) added to {}", r.replicaId, r.address, backend));
        pass.servers.push_back(name);
    }
    for (const auto &[name, server] : ours) {
        pass.servers.push_back(name);
        if (wanted.count(name))
            continue;
        if (!server.draining()) {
            if (Status drained = runtime.drainServer(backend, name); !drained)
                return drained.error();
            done.push_back(fmt::format("{} drained from {}: {} request(s) still under way", name,
                                       backend, server.sessions));
        } else if (server.sessions == 0) {
            if (Status deleted = runtime.deleteServer(backend, name); !deleted)
                return deleted.error();
            done.push_back(fmt::format("{} deleted from {}: drained", name, backend));
            pass.servers.pop_back();
        }
    }
    return pass;
}

}  // namespace meridian
