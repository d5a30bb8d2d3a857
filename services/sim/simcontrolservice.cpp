#include "simcontrolservice.h"

#include "simfleet.h"

namespace meridian {

namespace {

std::optional<SimFaultKind> cardFault(v1::FaultKind kind)
{
    switch (kind) {
    case v1::FAULT_KIND_XID_79: return SimFaultKind::Xid79;
    case v1::FAULT_KIND_ECC_DOUBLE_BIT: return SimFaultKind::EccDoubleBit;
    case v1::FAULT_KIND_THERMAL_THROTTLE: return SimFaultKind::ThermalThrottle;
    case v1::FAULT_KIND_LINK_DOWN: return SimFaultKind::LinkDown;
    case v1::FAULT_KIND_LINK_FLAP: return SimFaultKind::LinkFlap;
    case v1::FAULT_KIND_PFC_STORM: return SimFaultKind::PfcStorm;
    case v1::FAULT_KIND_GARBAGE_VALUES: return SimFaultKind::Garbage;
    default: return std::nullopt;
    }
}

v1::FaultKind toProto(SimFaultKind kind)
{
    switch (kind) {
    case SimFaultKind::Xid79: return v1::FAULT_KIND_XID_79;
    case SimFaultKind::EccDoubleBit: return v1::FAULT_KIND_ECC_DOUBLE_BIT;
    case SimFaultKind::ThermalThrottle: return v1::FAULT_KIND_THERMAL_THROTTLE;
    case SimFaultKind::LinkDown: return v1::FAULT_KIND_LINK_DOWN;
    case SimFaultKind::LinkFlap: return v1::FAULT_KIND_LINK_FLAP;
    case SimFaultKind::PfcStorm: return v1::FAULT_KIND_PFC_STORM;
    case SimFaultKind::Garbage: return v1::FAULT_KIND_GARBAGE_VALUES;
    }
    return v1::FAULT_KIND_UNSPECIFIED;
}

}  // namespace

grpc::ServerUnaryReactor *SimControlService::InjectFault(grpc::CallbackServerContext *context,
                                                         const v1::InjectFaultRequest *request,
                                                         v1::InjectFaultResponse *)
{
    auto *reactor = context->DefaultReactor();
    const v1::Fault &f = request->fault();
    const int64_t durationMs = static_cast<int64_t>(f.duration_seconds()) * 1000;
    Status status;
    if (const auto kind = cardFault(f.kind())) {
        SimFault fault;
        fault.kind = *kind;
        if (f.has_card_index())
            fault.card = f.card_index();
        fault.netdev = f.netdev();
        fault.untilUnixMs = durationMs ? m_fleet.clock().nowUnixMs() + durationMs : 0;
        status = m_fleet.injectCardFault(f.node_id(), fault);
    } else if (f.kind() == v1::FAULT_KIND_AGENT_CRASH) {
        status = m_fleet.injectAgentFault(f.node_id(), AgentFault::Crash, durationMs);
    } else if (f.kind() == v1::FAULT_KIND_AGENT_HANG) {
        status = m_fleet.injectAgentFault(f.node_id(), AgentFault::Hang, durationMs);
    } else if (f.kind() == v1::FAULT_KIND_SLOW_AGENT) {
        status = m_fleet.injectAgentFault(f.node_id(), AgentFault::Slow, durationMs,
                                          static_cast<int>(f.delay_ms()));
    } else {
        status = Error{"fault kind is required"};
    }
    reactor->Finish(status ? grpc::Status::OK
                           : grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, status.message()));
    return reactor;
}

grpc::ServerUnaryReactor *SimControlService::ClearFaults(grpc::CallbackServerContext *context,
                                                         const v1::ClearFaultsRequest *request,
                                                         v1::ClearFaultsResponse *response)
{
    response->set_cleared(static_cast<uint32_t>(m_fleet.clearFaults(request->node_id())));
    auto *reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

grpc::ServerUnaryReactor *SimControlService::ListNodes(grpc::CallbackServerContext *context,
                                                       const v1::ListNodesRequest *,
                                                       v1::ListNodesResponse *response)
{
    for (const SimNodeView &n : m_fleet.nodes()) {
        v1::SimNode *node = response->add_nodes();
        node->set_node_id(n.nodeId);
        node->set_data_center(n.dataCenter);
        node->set_address(n.address);
        node->set_cards(static_cast<uint32_t>(n.cards));
        for (SimFaultKind k : n.faults)
            node->add_active_faults(toProto(k));
        if (n.down)
            node->add_active_faults(v1::FAULT_KIND_AGENT_CRASH);
        if (n.hung)
            node->add_active_faults(v1::FAULT_KIND_AGENT_HANG);
    }
    auto *reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

}  // namespace meridian
