// meridian-scaled's ScalingControl service: the console's window onto a controller that
// runs elsewhere. Reading the view needs a read-only token; every decision needs an
// operator's, and is audited as "<operator> (token <name>)", so the log says both who
// clicked and which console's credentials carried it.
#pragma once

#include "meridian/v1/scaling_control.grpc.pb.h"
#include "scalingcontrol.h"
#include "wire/security.h"

namespace meridian {

class ScalingControlService final : public v1::ScalingControl::CallbackService {
public:
    ScalingControlService(ScalingControl &controller, std::string controllerId,
                          std::vector<TokenGrant> tokens);

    grpc::ServerUnaryReactor *GetScalingView(grpc::CallbackServerContext *context,
                                             const v1::GetScalingViewRequest *request,
                                             v1::ScalingViewReply *response) override;
    grpc::ServerUnaryReactor *SetApprovalMode(grpc::CallbackServerContext *context,
                                              const v1::SetApprovalModeRequest *request,
                                              v1::ScalingCommandReply *response) override;
    grpc::ServerUnaryReactor *RequestPlan(grpc::CallbackServerContext *context,
                                          const v1::ServiceCommandRequest *request,
                                          v1::ScalingCommandReply *response) override;
    grpc::ServerUnaryReactor *ApprovePlan(grpc::CallbackServerContext *context,
                                          const v1::ApprovePlanRequest *request,
                                          v1::ScalingCommandReply *response) override;
    grpc::ServerUnaryReactor *RejectPlan(grpc::CallbackServerContext *context,
                                         const v1::RejectPlanRequest *request,
                                         v1::ScalingCommandReply *response) override;
    grpc::ServerUnaryReactor *ApproveRelease(grpc::CallbackServerContext *context,
                                             const v1::ServiceCommandRequest *request,
                                             v1::ScalingCommandReply *response) override;

private:
    // Checks the operator role, names the caller, runs the command and answers.
    grpc::ServerUnaryReactor *command(grpc::CallbackServerContext *context,
                                      const std::string &operatorName,
                                      const std::function<Status(const std::string &who)> &run);

    ScalingControl &m_controller;
    std::string m_controllerId;
    Authorizer m_authorizer;
};

}  // namespace meridian
