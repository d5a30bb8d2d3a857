#include "remotescalingcontrol.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <chrono>

#include "meridian/v1/scaling_control.grpc.pb.h"
#include "scalingviewwire.h"
#include "wire/calldeadline.h"

namespace meridian {

namespace {

// The controller's own refusals (a replaced plan, an unknown service) are its words to
// the operator; anything else is about reaching it.
std::string failureText(const std::string &address, const grpc::Status &status)
{
    switch (status.error_code()) {
    case grpc::StatusCode::FAILED_PRECONDITION: return status.error_message();
    case grpc::StatusCode::DEADLINE_EXCEEDED:
        return fmt::format("meridian-scaled at {} did not answer in time", address);
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
        return fmt::format("meridian-scaled at {} refused this console: {}", address,
                           status.error_message());
    case grpc::StatusCode::UNIMPLEMENTED:
        return fmt::format("{} does not serve ScalingControl: is it meridian-scaled?", address);
    default:
        return fmt::format("meridian-scaled at {} is not reachable: {}", address,
                           status.error_message());
    }
}

std::string clockTime(int64_t unixMs)
{
    const std::time_t seconds = static_cast<std::time_t>(unixMs / 1000);
    std::tm local{};
    localtime_r(&seconds, &local);
    return fmt::format("{:02}:{:02}:{:02}", local.tm_hour, local.tm_min, local.tm_sec);
}

}  // namespace

struct RemoteScalingControl::Stub {
    std::unique_ptr<v1::ScalingControl::Stub> stub;
};

RemoteScalingControl::RemoteScalingControl(std::string address, ClientSecurity security,
                                           const Clock &clock, RemoteScalingOptions options)
    : m_address(std::move(address))
    , m_clock(clock)
    , m_options(options)
    , m_stub(std::make_unique<Stub>(
          Stub{v1::ScalingControl::NewStub(makeChannel(m_address, security))}))
    , m_polls(clock)
{
    m_unreachable = "not heard from yet";
    m_unreachableSinceMs = clock.nowUnixMs();
    m_view.atMs = m_unreachableSinceMs;
    m_view.problem = fmt::format("waiting for meridian-scaled at {}", m_address);
}

RemoteScalingControl::~RemoteScalingControl()
{
    stop();
}

void RemoteScalingControl::start()
{
    m_polls.start(std::chrono::milliseconds(m_options.pollIntervalMs), [this] {
        static_cast<void>(poll());  // an unreachable controller is in the view, with since when
    });
}

void RemoteScalingControl::stop()
{
    m_polls.stop();
}

Status RemoteScalingControl::poll()
{
    grpc::ClientContext context;
    setCallDeadline(context, m_options.callTimeoutMs);
    v1::ScalingViewReply reply;
    const grpc::Status status =
        m_stub->stub->GetScalingView(&context, v1::GetScalingViewRequest{}, &reply);
    const int64_t now = m_clock.nowUnixMs();
    std::lock_guard lock(m_mutex);
    if (status.ok()) {
        m_view = fromWire(reply);
        m_controllerId = reply.controller_id();
        m_unreachable.clear();
        return {};
    }
    if (m_unreachable.empty())
        m_unreachableSinceMs = now;
    m_unreachable = failureText(m_address, status);
    // The last view stays on screen, marked stale: the plans and steps it shows are the
    // controller's, which goes on without the console.
    m_view.atMs = now;
    m_view.problem = fmt::format(
        "{} (since {}); what is shown is from then, and the controller "
        "goes on by itself",
        m_unreachable, clockTime(m_unreachableSinceMs));
    return Error{m_unreachable};
}

std::string RemoteScalingControl::controllerId() const
{
    std::lock_guard lock(m_mutex);
    return m_controllerId;
}

ScalingView RemoteScalingControl::view() const
{
    std::lock_guard lock(m_mutex);
    return m_view;
}

Status RemoteScalingControl::send(
    const char *what, const std::function<grpc::Status(Stub &, grpc::ClientContext &)> &call)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_unreachable.empty())
            return Error{fmt::format("{}: not sent, {}", what, m_unreachable)};
    }
    grpc::ClientContext context;
    setCallDeadline(context, m_options.callTimeoutMs);
    const grpc::Status status = call(*m_stub, context);
    static_cast<void>(poll());  // the command's answer matters here; the view says the rest
    if (status.ok())
        return {};
    return Error{failureText(m_address, status)};
}

namespace {

v1::ServiceCommandRequest serviceRequest(const std::string &service, const std::string &who)
{
    v1::ServiceCommandRequest request;
    request.set_service(service);
    request.set_operator_name(who);
    return request;
}

}  // namespace

Status RemoteScalingControl::setMode(ApprovalMode mode, const std::string &who)
{
    v1::SetApprovalModeRequest request;
    request.set_mode(static_cast<v1::ApprovalMode>(approvalModeToWire(mode)));
    request.set_operator_name(who);
    return send("approval mode", [&](Stub &stub, grpc::ClientContext &context) {
        v1::ScalingCommandReply reply;
        return stub.stub->SetApprovalMode(&context, request, &reply);
    });
}

Status RemoteScalingControl::requestPlan(const std::string &service, const std::string &who)
{
    const v1::ServiceCommandRequest request = serviceRequest(service, who);
    return send("plan now", [&](Stub &stub, grpc::ClientContext &context) {
        v1::ScalingCommandReply reply;
        return stub.stub->RequestPlan(&context, request, &reply);
    });
}

Status RemoteScalingControl::approvePlan(const std::string &service, const std::string &who,
                                         std::optional<int64_t> shownVersion)
{
    if (!shownVersion)
        return Error{"approval names the plan shown; no plan was shown"};
    v1::ApprovePlanRequest request;
    request.set_service(service);
    request.set_operator_name(who);
    request.set_plan_version(*shownVersion);
    return send("approval", [&](Stub &stub, grpc::ClientContext &context) {
        v1::ScalingCommandReply reply;
        return stub.stub->ApprovePlan(&context, request, &reply);
    });
}

Status RemoteScalingControl::rejectPlan(const std::string &service, const std::string &who,
                                        const std::string &why)
{
    v1::RejectPlanRequest request;
    request.set_service(service);
    request.set_operator_name(who);
    request.set_why(why);
    return send("rejection", [&](Stub &stub, grpc::ClientContext &context) {
        v1::ScalingCommandReply reply;
        return stub.stub->RejectPlan(&context, request, &reply);
    });
}

Status RemoteScalingControl::approveRelease(const std::string &service, const std::string &who)
{
    const v1::ServiceCommandRequest request = serviceRequest(service, who);
    return send("release", [&](Stub &stub, grpc::ClientContext &context) {
        v1::ScalingCommandReply reply;
        return stub.stub->ApproveRelease(&context, request, &reply);
    });
}

}  // namespace meridian
