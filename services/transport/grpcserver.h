// Starts a gRPC server for our services on one or more addresses, with server
// reflection and the standard health service so ordinary gRPC tools can talk to it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "security.h"

namespace grpc {
class Server;
class Service;
}  // namespace grpc

namespace meridian {

struct ListenSpec {
    std::string address;  // "127.0.0.1:0" picks a free port
    int *selectedPort = nullptr;
};

Result<std::unique_ptr<grpc::Server>> startGrpcServer(const std::vector<ListenSpec> &addresses,
                                                      const ServerSecurity &security,
                                                      const std::vector<grpc::Service *> &services);

// Stops accepting, cancels every call and waits (at most deadlineMs) for them to end.
void stopGrpcServer(grpc::Server &server, int deadlineMs = 2000);

}  // namespace meridian
