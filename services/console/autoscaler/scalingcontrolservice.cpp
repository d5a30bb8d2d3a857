#include "scalingcontrolservice.h"

#include <fmt/format.h>

#include "scalingviewwire.h"

namespace meridian {

namespace {

// Names and reasons come from the network: kept short and printable for the audit log.
std::string cleanText(const std::string &text, size_t limit)
{
    std::string out;
    for (char c : text.substr(0, limit))
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    return out;
}

}  // namespace

ScalingControlService::ScalingControlService(ScalingControl &controller, std::string controllerId,
                                             std::vector<TokenGrant> tokens)
    : m_controller(controller)
    , m_controllerId(std::move(controllerId))
    , m_authorizer(std::move(tokens))
{}

grpc::ServerUnaryReactor *ScalingControlService::GetScalingView(
    grpc::CallbackServerContext *context, const v1::GetScalingViewRequest *,
    v1::ScalingViewReply *response)
{
    auto *reactor = context->DefaultReactor();
    grpc::Status status = m_authorizer.check(*context, Role::ReadOnly);
    if (status.ok())
        toWire(m_controller.view(), m_controllerId, *response);
    reactor->Finish(status);
    return reactor;
}

grpc::ServerUnaryReactor *ScalingControlService::command(
    grpc::CallbackServerContext *context, const std::string &operatorName,
    const std::function<Status(const std::string &who)> &run)
{
    auto *reactor = context->DefaultReactor();
    if (grpc::Status denied = m_authorizer.check(*context, Role::Operator); !denied.ok()) {
        reactor->Finish(denied);
        return reactor;
    }
    std::string who =
        operatorName.empty() ? std::string("an operator") : cleanText(operatorName, 64);
    if (const std::string token = m_authorizer.callerName(*context); !token.empty())
        who += fmt::format(" (token {})", token);
    const Status done = run(who);
    reactor->Finish(done ? grpc::Status::OK
                         : grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, done.message()));
    return reactor;
}

grpc::ServerUnaryReactor *ScalingControlService::SetApprovalMode(
    grpc::CallbackServerContext *context, const v1::SetApprovalModeRequest *request,
    v1::ScalingCommandReply *)
{
    const std::optional<ApprovalMode> mode = approvalModeFromWire(request->mode());
    return command(context, request->operator_name(), [&](const std::string &who) -> Status {
        if (!mode)
            return Error{fmt::format("approval mode {} is not one this controller knows",
                                     static_cast<int>(request->mode()))};
        return m_controller.setMode(*mode, who);
    });
}

grpc::ServerUnaryReactor *ScalingControlService::RequestPlan(
    grpc::CallbackServerContext *context, const v1::ServiceCommandRequest *request,
    v1::ScalingCommandReply *)
{
    return command(context, request->operator_name(), [&](const std::string &who) {
        return m_controller.requestPlan(request->service(), who);
    });
}

grpc::ServerUnaryReactor *ScalingControlService::ApprovePlan(grpc::CallbackServerContext *context,
                                                             const v1::ApprovePlanRequest *request,
                                                             v1::ScalingCommandReply *)
{
    return command(context, request->operator_name(), [&](const std::string &who) -> Status {
        // Over the network an approval always names what was seen: a console that
        // approved "whatever is waiting" could approve a plan nobody looked at.
        if (request->plan_version() <= 0)
            return Error{"an approval must name the plan version it approves"};
        return m_controller.approvePlan(request->service(), who, request->plan_version());
    });
}

grpc::ServerUnaryReactor *ScalingControlService::RejectPlan(grpc::CallbackServerContext *context,
                                                            const v1::RejectPlanRequest *request,
                                                            v1::ScalingCommandReply *)
{
    return command(context, request->operator_name(), [&](const std::string &who) {
        return m_controller.rejectPlan(
            request->service(), who,
            request->why().empty() ? std::string("rejected") : cleanText(request->why(), 500));
    });
}

grpc::ServerUnaryReactor *ScalingControlService::ApproveRelease(
    grpc::CallbackServerContext *context, const v1::ServiceCommandRequest *request,
    v1::ScalingCommandReply *)
{
    return command(context, request->operator_name(), [&](const std::string &who) {
        return m_controller.approveRelease(request->service(), who);
    });
}

}  // namespace meridian
