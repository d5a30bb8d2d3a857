// meridian-pool's CapacityPool: the same contract the simulator serves, backed by the
// lease book and the providers. A Lease is booked (PROVISIONING) before its provider is
// asked, and answered at once; a worker then runs the provider's `lease` and books the
// lease READY with its nodes, or FAILED with the provider's words. A retried key gets
// the lease already booked. Release is allowed to the lease's owner only; the release
// is booked as owed, and the provider's `release` runs on a worker. After a restart,
// leases still provisioning are asked of their provider again with the same lease id
// and key (providers are idempotent by them), owed releases are retried, and each
// provider's list is checked: a lease the books call ready that its provider no longer
// holds is failed, saying so.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "leasebook.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "poolconfig.h"
#include "wire/security.h"

namespace meridian {

class PoolService final : public v1::CapacityPool::CallbackService {
public:
    PoolService(PoolConfig config, LeaseBook &book, const Clock &clock);
    ~PoolService() override;

    // Loads the books and takes up what a restart interrupted.
    Status resume();

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
    const ProviderConfig *providerOf(const std::string &offerId, const PoolOffer **offer) const;
    void provision(const std::string &leaseId);
    void release(const std::string &leaseId);
    void checkHeld(const std::string &providerName);
    void runLater(void (PoolService::*job)(const std::string &), const std::string &leaseId);
    void book(const BookedLease &booked);
    int nodesLeased(const std::string &offerId) const;

    PoolConfig m_config;
    LeaseBook &m_book;
    const Clock &m_clock;
    Authorizer m_authorizer;
    mutable std::mutex m_mutex;
    std::map<std::string, BookedLease> m_leases;
    std::map<std::string, std::string> m_byKey;  // idempotency key → lease id
    int m_nextLease = 1;
    struct Worker {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<Worker> m_workers;
    bool m_stopping = false;
};

}  // namespace meridian
