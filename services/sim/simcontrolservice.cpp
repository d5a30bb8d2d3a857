#include "simcontrolservice.h"

#include <cmath>

namespace meridian {

namespace {

constexpr std::pair<FaultKind, v1::FaultKind> kKinds[] = {
    {FaultKind::Crash, v1::FAULT_KIND_AGENT_CRASH},
    {FaultKind::Hang, v1::FAULT_KIND_AGENT_HANG},
    {FaultKind::Slow, v1::FAULT_KIND_SLOW_AGENT},
    {FaultKind::Xid79, v1::FAULT_KIND_XID_79},
    {FaultKind::EccDoubleBit, v1::FAULT_KIND_ECC_DOUBLE_BIT},
    {FaultKind::ThermalThrottle, v1::FAULT_KIND_THERMAL_THROTTLE},
    {FaultKind::LinkDown, v1::FAULT_KIND_LINK_DOWN},
    {FaultKind::LinkFlap, v1::FAULT_KIND_LINK_FLAP},
    {FaultKind::PfcStorm, v1::FAULT_KIND_PFC_STORM},
    {FaultKind::EcnCongestion, v1::FAULT_KIND_ECN_CONGESTION},
    {FaultKind::GarbageValues, v1::FAULT_KIND_GARBAGE_VALUES},
};

}  // namespace

v1::FaultKind toProto(FaultKind kind)
{
    for (const auto &[k, p] : kKinds) {
        if (k == kind)
            return p;
    }
    return v1::FAULT_KIND_UNSPECIFIED;
}

std::optional<FaultKind> fromProto(v1::FaultKind kind)
{
    for (const auto &[k, p] : kKinds) {
        if (p == kind)
            return k;
    }
    return std::nullopt;
}

grpc::ServerUnaryReactor *SimControlService::InjectFault(grpc::CallbackServerContext *context,
                                                         const v1::InjectFaultRequest *request,
                                                         v1::InjectFaultResponse *)
{
    auto *reactor = context->DefaultReactor();
    const v1::Fault &f = request->fault();
    const auto kind = fromProto(f.kind());
    if (!kind) {
        reactor->Finish({grpc::StatusCode::INVALID_ARGUMENT, "fault kind is required"});
        return reactor;
    }
    FaultSpec spec;
    spec.nodeId = f.node_id();
    spec.dataCenter = f.data_center();
    spec.kind = *kind;
    if (f.has_card_index())
        spec.card = f.card_index();
    spec.netdev = f.netdev();
    spec.durationMs = static_cast<int64_t>(f.duration_seconds()) * 1000;
    spec.delayMs = static_cast<int>(f.delay_ms());
    const auto hit = m_fleet.inject(spec);
    reactor->Finish(hit ? grpc::Status::OK
                        : grpc::Status(grpc::StatusCode::NOT_FOUND, hit.error().message));
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
        for (FaultKind k : n.faults)
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

grpc::ServerUnaryReactor *SimControlService::SetServiceLoad(
    grpc::CallbackServerContext *context, const v1::SetServiceLoadRequest *request,
    v1::SetServiceLoadResponse *)
{
    std::optional<double> rps;
    if (request->has_requests_per_second())
        rps = request->requests_per_second();
    grpc::Status status = grpc::Status::OK;
    if (rps && !(std::isfinite(*rps) && *rps >= 0 && *rps <= 1e6))
        status = {grpc::StatusCode::INVALID_ARGUMENT, "requests_per_second out of range"};
    else if (!m_fleet.setServiceDemand(request->service(), rps))
        status = {grpc::StatusCode::NOT_FOUND,
                  "no inference service '" + request->service() + "' in the simulator"};
    auto *reactor = context->DefaultReactor();
    reactor->Finish(status);
    return reactor;
}

}  // namespace meridian
