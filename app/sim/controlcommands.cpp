#include "controlcommands.h"

#include <fmt/format.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>

#include "meridian/v1/sim_control.grpc.pb.h"
#include "sim/faultplan.h"
#include "sim/simcontrolservice.h"
#include "wire/calldeadline.h"

namespace meridian {

namespace {

std::unique_ptr<v1::SimControl::Stub> simControl(const std::string &control)
{
    return v1::SimControl::NewStub(
        grpc::CreateChannel(control, grpc::InsecureChannelCredentials()));
}

}  // namespace

int sendFault(const FaultCommand &command)
{
    auto stub = simControl(command.control);
    grpc::ClientContext context;
    setCallDeadline(context, 5000);
    grpc::Status status;
    if (command.kind == "clear") {
        v1::ClearFaultsRequest request;
        request.set_node_id(command.node);
        v1::ClearFaultsResponse response;
        status = stub->ClearFaults(&context, request, &response);
    } else {
        const auto parsed = faultKindFromName(command.kind);
        if (!parsed) {
            fmt::print(stderr, "meridian-sim fault: unknown kind '{}'; use one of {} or clear\n",
                       command.kind, faultKindNames());
            return 2;
        }
        v1::InjectFaultRequest request;
        v1::Fault *fault = request.mutable_fault();
        fault->set_node_id(command.node);
        fault->set_data_center(command.dataCenter);
        fault->set_kind(toProto(*parsed));
        if (command.card >= 0)
            fault->set_card_index(static_cast<uint32_t>(command.card));
        fault->set_duration_seconds(static_cast<uint32_t>(command.durationSeconds));
        fault->set_delay_ms(static_cast<uint32_t>(command.delayMs));
        v1::InjectFaultResponse response;
        status = stub->InjectFault(&context, request, &response);
    }
    if (!status.ok()) {
        fmt::print(stderr, "meridian-sim fault: {}: {}\n", command.control, status.error_message());
        return 1;
    }
    return 0;
}

int sendLoad(const LoadCommand &command)
{
    auto stub = simControl(command.control);
    grpc::ClientContext context;
    setCallDeadline(context, 5000);
    v1::SetServiceLoadRequest request;
    request.set_service(command.service);
    if (!command.daily)
        request.set_requests_per_second(command.rps);
    v1::SetServiceLoadResponse response;
    const grpc::Status status = stub->SetServiceLoad(&context, request, &response);
    if (!status.ok()) {
        fmt::print(stderr, "meridian-sim load: {}: {}\n", command.control, status.error_message());
        return 1;
    }
    return 0;
}

}  // namespace meridian
