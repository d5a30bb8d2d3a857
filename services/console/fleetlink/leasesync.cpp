#include "leasesync.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "wire/calldeadline.h"
#include "wire/callfailure.h"

namespace meridian {

Result<PoolLeases> fetchLeases(const std::string &poolAddress, const ClientSecurity &security,
                               int64_t callTimeoutMs)
{
    auto stub = v1::CapacityPool::NewStub(makeChannel(poolAddress, security));
    grpc::ClientContext context;
    setCallDeadline(context, callTimeoutMs);
    v1::ListLeasesRequest request;
    request.set_include_released(true);
    v1::ListLeasesResponse response;
    const grpc::Status status = stub->ListLeases(&context, request, &response);
    if (!status.ok())
        return Error{fmt::format("capacity pool {}: {}", poolAddress, statusInWords(status))};
    return poolLeasesFrom(response, poolAddress);
}

Result<PoolLeases> poolLeasesFrom(const v1::ListLeasesResponse &response,
                                  const std::string &poolAddress)
{
    PoolLeases out;
    out.poolNowUnixMs = response.now_unix_ms();
    for (const v1::Lease &l : response.leases()) {
        CloudLease lease;
        lease.leaseId = l.lease_id();
        lease.region = l.region();
        lease.cardModel = l.card_model();
        lease.requestedBy = l.requested_by();
        lease.nodes = l.nodes();
        lease.cardsPerNode = l.cards_per_node();
        lease.cnyPerCardHour = l.price_cny_per_card_hour();
        lease.billingIncrementSeconds = std::max<int64_t>(1, l.billing_increment_seconds());
        lease.createdUnixS = l.created_unix_ms() / 1000;
        if (l.has_released_unix_ms())
            lease.releasedUnixS = l.released_unix_ms() / 1000;
        if (lease.leaseId.empty() || !(lease.cnyPerCardHour >= 0) ||
            lease.cnyPerCardHour > 10'000) {
            return Error{
                fmt::format("capacity pool {}: lease '{}' has no id or a price out of "
                            "range ({})",
                            poolAddress, lease.leaseId, lease.cnyPerCardHour)};
        }
        for (const v1::LeasedNode &node : l.leased_nodes()) {
            lease.nodeIds.push_back(node.node_id());
            if (!lease.releasedUnixS && !node.agent_address().empty())
                out.agents.push_back({node.node_id(), node.agent_address(), lease.region});
        }
        out.leases.push_back(std::move(lease));
    }
    return out;
}

int64_t poolNowUnixMs(const PoolLeases &leases, int64_t ownNowUnixMs, int64_t steadyNowMs)
{
    if (leases.poolNowUnixMs <= 0)
        return ownNowUnixMs;
    return leases.poolNowUnixMs + std::max<int64_t>(0, steadyNowMs - leases.readAtSteadyMs);
}

}  // namespace meridian
