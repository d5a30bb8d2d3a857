#include "capacitypoolservice.h"

#include <fmt/format.h>

#include "core/clock.h"
#include "core/scheduler.h"
#include "simfleet.h"

namespace meridian {

namespace {

v1::Offer offer(const char *id, const char *region, v1::Vendor vendor, const char *model,
                double price, uint32_t nodes)
{
    v1::Offer o;
    o.set_offer_id(id);
    o.set_region(region);
    o.set_vendor(vendor);
    o.set_card_model(model);
    o.set_cards_per_node(8);
    o.set_available_nodes(nodes);
    o.set_price_cny_per_card_hour(price);
    o.set_billing_increment_seconds(3600);
    return o;
}

SimNodeKind kindOf(const v1::Offer &o)
{
    if (o.vendor() == v1::VENDOR_HUAWEI)
        return SimNodeKind::Ascend910B;
    return o.card_model().find("H100") != std::string::npos ? SimNodeKind::H100 : SimNodeKind::A100;
}

}  // namespace

CapacityPoolService::CapacityPoolService(SimFleet &fleet) : m_fleet(fleet)
{
    m_offers = {
        offer("cn-east-a100", "cn-east", v1::VENDOR_NVIDIA, "A100-SXM4-80GB", 2.6, 16),
        offer("cn-north-h100", "cn-north", v1::VENDOR_NVIDIA, "H100-SXM5-80GB", 5.8, 8),
        offer("cn-south-910b", "cn-south", v1::VENDOR_HUAWEI, "Ascend 910B", 1.5, 24),
    };
    for (v1::Offer &o : m_offers)
        o.set_typical_provisioning_seconds(
            static_cast<uint32_t>(fleet.options().provisioningSeconds));
}

grpc::ServerUnaryReactor *CapacityPoolService::ListOffers(grpc::CallbackServerContext *context,
                                                          const v1::ListOffersRequest *request,
                                                          v1::ListOffersResponse *response)
{
    std::lock_guard lock(m_mutex);
    for (const v1::Offer &o : m_offers) {
        if (request->region().empty() || request->region() == o.region())
            *response->add_offers() = o;
    }
    auto *reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

grpc::ServerUnaryReactor *CapacityPoolService::Lease(grpc::CallbackServerContext *context,
                                                     const v1::LeaseRequest *request,
                                                     v1::LeaseResponse *response)
{
    auto *reactor = context->DefaultReactor();
    std::lock_guard lock(m_mutex);
    if (request->idempotency_key().empty()) {
        reactor->Finish({grpc::StatusCode::INVALID_ARGUMENT, "idempotency_key is required"});
        return reactor;
    }
    if (const auto it = m_byKey.find(request->idempotency_key()); it != m_byKey.end()) {
        *response->mutable_lease() = m_leases[it->second];
        response->set_replayed(true);
        reactor->Finish(grpc::Status::OK);
        return reactor;
    }
    auto offerIt = std::find_if(m_offers.begin(), m_offers.end(), [&](const v1::Offer &o) {
        return o.offer_id() == request->offer_id();
    });
    if (offerIt == m_offers.end()) {
        reactor->Finish(
            {grpc::StatusCode::NOT_FOUND, fmt::format("no offer '{}'", request->offer_id())});
        return reactor;
    }
    if (request->nodes() == 0 || request->nodes() > offerIt->available_nodes()) {
        reactor->Finish(
            {grpc::StatusCode::RESOURCE_EXHAUSTED,
             fmt::format("offer {} has {} nodes available, asked for {}", offerIt->offer_id(),
                         offerIt->available_nodes(), request->nodes())});
        return reactor;
    }
    offerIt->set_available_nodes(offerIt->available_nodes() - request->nodes());
    v1::Lease lease;
    lease.set_lease_id(fmt::format("lease-{:04}", m_nextLease++));
    lease.set_idempotency_key(request->idempotency_key());
    lease.set_offer_id(offerIt->offer_id());
    lease.set_region(offerIt->region());
    lease.set_card_model(offerIt->card_model());
    lease.set_nodes(request->nodes());
    lease.set_cards_per_node(offerIt->cards_per_node());
    lease.set_price_cny_per_card_hour(offerIt->price_cny_per_card_hour());
    lease.set_billing_increment_seconds(offerIt->billing_increment_seconds());
    lease.set_state(v1::LEASE_STATE_PROVISIONING);
    lease.set_created_unix_ms(m_fleet.clock().nowUnixMs());
    lease.set_requested_by(request->requested_by());
    m_leases[lease.lease_id()] = lease;
    m_byKey[request->idempotency_key()] = lease.lease_id();
    *response->mutable_lease() = lease;
    const std::string id = lease.lease_id();
    m_fleet.scheduler().after(static_cast<int64_t>(m_fleet.options().provisioningSeconds) * 1000,
                              [this, id] { makeReady(id); });
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

void CapacityPoolService::makeReady(const std::string &leaseId)
{
    v1::Lease lease;
    {
        std::lock_guard lock(m_mutex);
        lease = m_leases[leaseId];
        if (lease.state() != v1::LEASE_STATE_PROVISIONING)
            return;
    }
    const auto offerIt = std::find_if(m_offers.begin(), m_offers.end(), [&](const v1::Offer &o) {
        return o.offer_id() == lease.offer_id();
    });
    auto endpoints =
        m_fleet.addCloudNodes(static_cast<int>(lease.nodes()), kindOf(*offerIt), leaseId);
    std::lock_guard lock(m_mutex);
    v1::Lease &stored = m_leases[leaseId];
    if (!endpoints) {
        stored.set_state(v1::LEASE_STATE_FAILED);
        stored.set_message(endpoints.error().message);
        return;
    }
    stored.set_state(v1::LEASE_STATE_READY);
    stored.set_ready_unix_ms(m_fleet.clock().nowUnixMs());
    for (const auto &[nodeId, address] : endpoints.value()) {
        v1::LeasedNode *node = stored.add_leased_nodes();
        node->set_node_id(nodeId);
        node->set_agent_address(address);
    }
}

grpc::ServerUnaryReactor *CapacityPoolService::Release(grpc::CallbackServerContext *context,
                                                       const v1::ReleaseRequest *request,
                                                       v1::ReleaseResponse *response)
{
    auto *reactor = context->DefaultReactor();
    bool hadNodes = false;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_leases.find(request->lease_id());
        if (it == m_leases.end()) {
            reactor->Finish(
                {grpc::StatusCode::NOT_FOUND, fmt::format("no lease '{}'", request->lease_id())});
            return reactor;
        }
        v1::Lease &lease = it->second;
        if (!request->requested_by().empty() && request->requested_by() != lease.requested_by()) {
            reactor->Finish({grpc::StatusCode::PERMISSION_DENIED,
                             fmt::format("lease {} belongs to {}; a controller releases only its "
                                         "own leases",
                                         lease.lease_id(), lease.requested_by())});
            return reactor;
        }
        if (lease.state() != v1::LEASE_STATE_RELEASED) {
            hadNodes = lease.state() == v1::LEASE_STATE_READY;
            lease.set_state(v1::LEASE_STATE_RELEASED);
            lease.set_released_unix_ms(m_fleet.clock().nowUnixMs());
            for (v1::Offer &o : m_offers) {
                if (o.offer_id() == lease.offer_id())
                    o.set_available_nodes(o.available_nodes() + lease.nodes());
            }
        }
        *response->mutable_lease() = lease;
    }
    if (hadNodes) {
        // Stopping a server waits for its calls: not on a gRPC thread of another server.
        const std::string id = request->lease_id();
        m_fleet.scheduler().after(0, [this, id] { m_fleet.removeCloudNodes(id); });
    }
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

grpc::ServerUnaryReactor *CapacityPoolService::ListLeases(grpc::CallbackServerContext *context,
                                                          const v1::ListLeasesRequest *request,
                                                          v1::ListLeasesResponse *response)
{
    std::lock_guard lock(m_mutex);
    for (const auto &[id, lease] : m_leases) {
        if ((request->include_released() || lease.state() != v1::LEASE_STATE_RELEASED) &&
            (request->owner().empty() || request->owner() == lease.requested_by()))
            *response->add_leases() = lease;
    }
    auto *reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

}  // namespace meridian
