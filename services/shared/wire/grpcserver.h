// Starts a gRPC server for our services on one or more addresses, with server
// reflection and the standard health service so ordinary gRPC tools can talk to it.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "guardedlistener.h"
#include "security.h"

namespace grpc {
class Server;
class ServerCompletionQueue;
class Service;
}  // namespace grpc

namespace meridian {

struct ListenSpec {
    std::string address;  // "127.0.0.1:0" picks a free port
    int *selectedPort = nullptr;
};

// What one peer may cost the server before any token is checked: HTTP/2 floods (the
// rapid reset, thousands of open streams) are bounded by these, not by good manners.
struct ServerLimits {
    int maxStreamsPerConnection = 32;       // the console holds three per agent
    size_t memoryBytes = 64 << 20;          // gRPC's own buffers and calls, all peers
    int maxConnectionAgeMs = 2 * 3600'000;  // then GOAWAY; clients reconnect and resume
    int maxConnectionAgeGraceMs = 60'000;
    // A connection with no call open this long is closed (GOAWAY), so an authenticated
    // client that went quiet gives its slot back; a client reconnects for its next call.
    int maxConnectionIdleMs = 5 * 60'000;
    int maxReceiveMessageBytes = 1 << 20;  // our requests are a few hundred bytes

    // A server that plays `nodes` agents (the simulator) carries their streams.
    static ServerLimits forNodes(int nodes);
};

Result<std::unique_ptr<grpc::Server>> startGrpcServer(const std::vector<ListenSpec> &addresses,
                                                      const ServerSecurity &security,
                                                      const std::vector<grpc::Service *> &services,
                                                      const ServerLimits &limits = {});

// The agent's server: the same gRPC server, reached only through a GuardedListener that
// caps connections, terminates TLS and closes clients that abuse HTTP/2. The time a new
// connection has to authenticate is the security's (its file's), not `guard`'s.
struct GuardedGrpcServer {
    std::unique_ptr<grpc::Server> server;
    std::unique_ptr<GuardedListener> listener;
    std::unique_ptr<grpc::ServerCompletionQueue> poller;
    std::thread pollerThread;
    ~GuardedGrpcServer();
    void stop(int deadlineMs);
};

Result<std::unique_ptr<GuardedGrpcServer>> startGuardedGrpcServer(
    const std::vector<ListenSpec> &addresses, const ServerSecurity &security,
    const std::vector<grpc::Service *> &services, const ServerLimits &limits = {},
    GuardOptions guard = {});

// Stops accepting, cancels every call and waits (at most deadlineMs) for them to end.
void stopGrpcServer(grpc::Server &server, int deadlineMs = 2000);

}  // namespace meridian
