// SimControl: fault injection into a running meridian-sim from another process.
#pragma once

#include "meridian/v1/sim_control.grpc.pb.h"

namespace meridian {

class SimFleet;

class SimControlService final : public v1::SimControl::CallbackService {
public:
    explicit SimControlService(SimFleet &fleet) : m_fleet(fleet) {}

    grpc::ServerUnaryReactor *InjectFault(grpc::CallbackServerContext *context,
                                          const v1::InjectFaultRequest *request,
                                          v1::InjectFaultResponse *response) override;
    grpc::ServerUnaryReactor *ClearFaults(grpc::CallbackServerContext *context,
                                          const v1::ClearFaultsRequest *request,
                                          v1::ClearFaultsResponse *response) override;
    grpc::ServerUnaryReactor *ListNodes(grpc::CallbackServerContext *context,
                                        const v1::ListNodesRequest *request,
                                        v1::ListNodesResponse *response) override;

private:
    SimFleet &m_fleet;
};

}  // namespace meridian
