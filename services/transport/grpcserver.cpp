#include "grpcserver.h"

#include <fmt/format.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <chrono>

namespace meridian {

ServerLimits ServerLimits::forNodes(int nodes)
{
    ServerLimits limits;
    limits.memoryBytes += static_cast<size_t>(std::max(nodes, 0)) * (512 << 10);
    return limits;
}

Result<std::unique_ptr<grpc::Server>> startGrpcServer(const std::vector<ListenSpec> &addresses,
                                                      const ServerSecurity &security,
                                                      const std::vector<grpc::Service *> &services,
                                                      const ServerLimits &limits)
{
    for (const ListenSpec &spec : addresses) {
        if (Status policy = checkListenPolicy(spec.address, security); !policy)
            return policy.error();
    }
    auto credentials = serverCredentials(security);
    if (!credentials)
        return credentials.error();
    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;
    for (const ListenSpec &spec : addresses)
        builder.AddListeningPort(spec.address, credentials.value(), spec.selectedPort);
    for (grpc::Service *service : services)
        builder.RegisterService(service);
    // Silent clients that vanish (laptop lid closed) are found and their streams freed.
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 60'000);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10'000);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    // A peer that pings faster than that is cut off after two strikes.
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 2);
    // Bounds on what a peer can make us hold, before any token is checked.
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, limits.maxStreamsPerConnection);
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, limits.maxConnectionAgeMs);
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                               limits.maxConnectionAgeGraceMs);
    builder.SetMaxReceiveMessageSize(limits.maxReceiveMessageBytes);
    grpc::ResourceQuota quota("meridian-server");
    quota.Resize(limits.memoryBytes);
    builder.SetResourceQuota(quota);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server) {
        std::string list;
        for (const ListenSpec &spec : addresses)
            list += (list.empty() ? "" : ", ") + spec.address;
        return Error{fmt::format("cannot listen on {} (address in use or not valid?)", list)};
    }
    for (const ListenSpec &spec : addresses) {
        if (spec.selectedPort && *spec.selectedPort == 0)
            return Error{fmt::format("cannot listen on {}", spec.address)};
    }
    return server;
}

void stopGrpcServer(grpc::Server &server, int deadlineMs)
{
    server.Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(deadlineMs));
    server.Wait();
}

}  // namespace meridian
