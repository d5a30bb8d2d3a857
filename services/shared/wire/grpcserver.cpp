#include "grpcserver.h"

#include <fmt/format.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include "guardedlistener.h"
#include "tlsterminator.h"

#include <algorithm>
#include <chrono>

namespace meridian {

ServerLimits ServerLimits::forNodes(int nodes)
{
    ServerLimits limits;
    limits.memoryBytes += static_cast<size_t>(std::max(nodes, 0)) * (512 << 10);
    return limits;
}

namespace {

// What every server of ours has, whichever door it listens through.
void configure(grpc::ServerBuilder &builder, const std::vector<grpc::Service *> &services,
               const ServerLimits &limits)
{
    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
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
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, limits.maxConnectionIdleMs);
    builder.SetMaxReceiveMessageSize(limits.maxReceiveMessageBytes);
    grpc::ResourceQuota quota("meridian-server");
    quota.Resize(limits.memoryBytes);
    builder.SetResourceQuota(quota);
}

Status checkPolicies(const std::vector<ListenSpec> &addresses, const ServerSecurity &security)
{
    for (const ListenSpec &spec : addresses) {
        if (Status policy = checkListenPolicy(spec.address, security); !policy)
            return policy;
    }
    return {};
}

}  // namespace

Result<std::unique_ptr<grpc::Server>> startGrpcServer(const std::vector<ListenSpec> &addresses,
                                                      const ServerSecurity &security,
                                                      const std::vector<grpc::Service *> &services,
                                                      const ServerLimits &limits)
{
    if (Status policy = checkPolicies(addresses, security); !policy)
        return policy.error();
    auto credentials = serverCredentials(security);
    if (!credentials)
        return credentials.error();
    grpc::ServerBuilder builder;
    for (const ListenSpec &spec : addresses)
        builder.AddListeningPort(spec.address, credentials.value(), spec.selectedPort);
    configure(builder, services, limits);
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

Result<std::unique_ptr<GuardedGrpcServer>> startGuardedGrpcServer(
    const std::vector<ListenSpec> &addresses, const ServerSecurity &security,
    const std::vector<grpc::Service *> &services, const ServerLimits &limits, GuardOptions guard)
{
    if (Status policy = checkPolicies(addresses, security); !policy)
        return policy.error();
    guard.authenticateWithinMs = security.authenticateWithinMs;
    std::shared_ptr<TlsServerContext> tls;
    if (security.tlsEnabled()) {
        auto files = readServerTlsFiles(security);
        if (!files)
            return files.error();
        auto context = TlsServerContext::create(files.value(), security);
        if (!context)
            return context.error();
        tls = std::move(context).value();
    }
    grpc::ServerBuilder builder;  // no listening port: connections arrive through the guard
    configure(builder, services, limits);
    auto running = std::make_unique<GuardedGrpcServer>();
    // Connections handed over by descriptor are read by whoever polls the server's
    // completion queues; a callback-only server has no such poller, so this one is.
    running->poller = builder.AddCompletionQueue();
    running->server = builder.BuildAndStart();
    if (!running->server)
        return Error{"the gRPC server did not start"};
    running->pollerThread = std::thread([queue = running->poller.get()] {
        void *tag = nullptr;
        bool ok = false;
        while (queue->Next(&tag, &ok)) {
        }
    });
    std::vector<std::string> listen;
    std::vector<int *> ports;
    for (const ListenSpec &spec : addresses) {
        listen.push_back(spec.address);
        ports.push_back(spec.selectedPort);
    }
    auto listener =
        GuardedListener::start(*running->server, listen, ports, std::move(tls), std::move(guard));
    if (!listener)
        return listener.error();  // `running` stops what it started, in order
    running->listener = std::move(listener).value();
    return running;
}

GuardedGrpcServer::~GuardedGrpcServer()
{
    stop(2000);
}

void GuardedGrpcServer::stop(int deadlineMs)
{
    listener.reset();  // no new connections; the open ones end, their calls are cancelled
    if (server) {
        stopGrpcServer(*server, deadlineMs);
        server.reset();
    }
    if (poller) {
        poller->Shutdown();
        if (pollerThread.joinable())
            pollerThread.join();
        poller.reset();
    }
}

void stopGrpcServer(grpc::Server &server, int deadlineMs)
{
    server.Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(deadlineMs));
    server.Wait();
}

}  // namespace meridian
