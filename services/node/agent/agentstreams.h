// The NodeAgent server streams: telemetry batches on the scheduler's clock, events
// from the node's ring (backlog, then live), and usage minutes in chunks. Each reactor
// frees itself in OnDone; scheduled work reaches it only through a lockable cell.
#pragma once

#include <grpcpp/support/server_callback.h>

#include "agent/noderuntime.h"
#include "core/scheduler.h"
#include "meridian/v1/node_agent.pb.h"
#include "wire/clientroom.h"

namespace meridian {

// What every call to a stopped (crashed) agent answers.
grpc::Status agentNotRunning();

// Each holds `slot`, the caller's place among the agent's open streams, until it ends.
grpc::ServerWriteReactor<v1::TelemetryBatch> *newTelemetryStream(NodeRuntime &node,
                                                                 Scheduler &scheduler,
                                                                 uint32_t intervalMs,
                                                                 ClientRoom::Slot slot);
grpc::ServerWriteReactor<v1::Event> *newEventStream(NodeRuntime &node, Scheduler &scheduler,
                                                    uint64_t afterSequence, ClientRoom::Slot slot);
grpc::ServerWriteReactor<v1::UsageChunk> *newUsageStream(NodeRuntime &node,
                                                         int64_t sinceMinuteUnixS,
                                                         ClientRoom::Slot slot);

// A stream refused before it started (unknown node, bad token, agent down).
template <typename Message>
class FailedStream final : public grpc::ServerWriteReactor<Message> {
public:
    explicit FailedStream(const grpc::Status &status) { this->Finish(status); }
    void OnDone() override { delete this; }
};

}  // namespace meridian
