// SimControl: fault injection into a running meridian-sim from another process.
#pragma once

#include <optional>

#include "faultplan.h"
#include "meridian/v1/sim_control.grpc.pb.h"
#include "simfleetcontrol.h"

namespace meridian {

// The wire spelling of a fault kind and back (the `meridian-sim fault` command uses it).
v1::FaultKind toProto(FaultKind kind);
std::optional<FaultKind> fromProto(v1::FaultKind kind);

class SimControlService final : public v1::SimControl::CallbackService {
public:
    explicit SimControlService(SimFleetControl &fleet) : m_fleet(fleet) {}

    grpc::ServerUnaryReactor *InjectFault(grpc::CallbackServerContext *context,
                                          const v1::InjectFaultRequest *request,
                                          v1::InjectFaultResponse *response) override;
    grpc::ServerUnaryReactor *ClearFaults(grpc::CallbackServerContext *context,
                                          const v1::ClearFaultsRequest *request,
                                          v1::ClearFaultsResponse *response) override;
    grpc::ServerUnaryReactor *ListNodes(grpc::CallbackServerContext *context,
                                        const v1::ListNodesRequest *request,
                                        v1::ListNodesResponse *response) override;
    grpc::ServerUnaryReactor *SetServiceLoad(grpc::CallbackServerContext *context,
                                             const v1::SetServiceLoadRequest *request,
                                             v1::SetServiceLoadResponse *response) override;

private:
    SimFleetControl &m_fleet;
};

}  // namespace meridian
