// The NodeAgent gRPC service (callback API) over a NodeDirectory. Streams are driven
// by the Scheduler thread; callbacks only encode and write, never block.
// Owned by the server's thread; safe to call from gRPC's threads.
#pragma once

#include <memory>
#include <mutex>
#include <set>

#include "core/scheduler.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "noderuntime.h"
#include "wire/clientroom.h"
#include "wire/security.h"

namespace meridian {

class NodeAgentService final : public v1::NodeAgent::CallbackService {
public:
    NodeAgentService(NodeDirectory &nodes, Authorizer authorizer, Scheduler &scheduler);
    ~NodeAgentService() override;

    grpc::ServerUnaryReactor *GetInventory(grpc::CallbackServerContext *context,
                                           const v1::GetInventoryRequest *request,
                                           v1::NodeInventory *response) override;
    grpc::ServerWriteReactor<v1::TelemetryBatch> *StreamTelemetry(
        grpc::CallbackServerContext *context, const v1::StreamTelemetryRequest *request) override;
    grpc::ServerWriteReactor<v1::Event> *StreamEvents(
        grpc::CallbackServerContext *context, const v1::StreamEventsRequest *request) override;
    grpc::ServerUnaryReactor *GetFabric(grpc::CallbackServerContext *context,
                                        const v1::GetFabricRequest *request,
                                        v1::FabricReport *response) override;
    grpc::ServerWriteReactor<v1::UsageChunk> *GetUsage(grpc::CallbackServerContext *context,
                                                       const v1::GetUsageRequest *request) override;
    grpc::ServerUnaryReactor *ListWorkloads(grpc::CallbackServerContext *context,
                                            const v1::ListWorkloadsRequest *request,
                                            v1::ListWorkloadsResponse *response) override;
    grpc::ServerUnaryReactor *ApplyWorkload(grpc::CallbackServerContext *context,
                                            const v1::ApplyWorkloadRequest *request,
                                            v1::ApplyWorkloadResponse *response) override;

    // Answers every call held by a hung node (before the server shuts down).
    void releaseParked();
    // Called when a node's hang is cleared.
    void releaseParked(NodeRuntime *node);

private:
    // Resolves the node and checks role and availability; on failure the reactor is
    // already finished and nullptr node is returned.
    grpc::ServerUnaryReactor *unary(grpc::CallbackServerContext *context, Role role,
                                    std::function<grpc::Status(NodeRuntime &)> work);

    // Resolves the node, checks the token and takes the caller's place among the open
    // streams; OK, or the status to finish the stream with at once.
    grpc::Status admitStream(grpc::CallbackServerContext *context, NodeRuntime **node,
                             ClientRoom::Slot *slot);

    NodeDirectory &m_nodes;
    Authorizer m_authorizer;
    std::shared_ptr<ClientRoom> m_streams;  // null without tokens
    Scheduler &m_scheduler;
    std::mutex m_parkedMutex;
    std::multimap<NodeRuntime *, grpc::ServerUnaryReactor *> m_parked;
};

}  // namespace meridian
