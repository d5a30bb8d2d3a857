// The simulator's cloud CapacityPool: offers per region, leases that take a
// provisioning delay and then appear as new nodes in the `cloud` data center, and
// idempotency keys so a retried Lease never rents twice.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "meridian/v1/capacity_pool.grpc.pb.h"

namespace meridian {

class SimFleet;

class CapacityPoolService final : public v1::CapacityPool::CallbackService {
public:
    explicit CapacityPoolService(SimFleet &fleet);

    grpc::ServerUnaryReactor *ListOffers(grpc::CallbackServerContext *context,
                                         const v1::ListOffersRequest *request,
                                         v1::ListOffersResponse *response) override;
    grpc::ServerUnaryReactor *Lease(grpc::CallbackServerContext *context,
                                    const v1::LeaseRequest *request,
                                    v1::LeaseResponse *response) override;
    grpc::ServerUnaryReactor *Release(grpc::CallbackServerContext *context,
                                      const v1::ReleaseRequest *request,
                                      v1::ReleaseResponse *response) override;
    grpc::ServerUnaryReactor *ListLeases(grpc::CallbackServerContext *context,
                                         const v1::ListLeasesRequest *request,
                                         v1::ListLeasesResponse *response) override;

private:
    void makeReady(const std::string &leaseId);

    SimFleet &m_fleet;
    std::mutex m_mutex;
    std::vector<v1::Offer> m_offers;
    std::map<std::string, v1::Lease> m_leases;
    std::map<std::string, std::string> m_byKey;  // idempotency key → lease id
    int m_nextLease = 1;
};

}  // namespace meridian
