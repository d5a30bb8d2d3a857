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
//
// Warm standby (poolstandby.cpp): an offer with standby_nodes keeps that many one-node
// leases of its own provisioned but idle, owned by kStandbyOwner. A one-node Lease of that
// offer takes one of them, READY at once, in a single write of the books; a replacement is
// then provisioned. After a restart the standby is topped up (or trimmed) to the config.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/clock.h"
#include "jobthreads.h"
#include "leasebook.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "poolconfig.h"
#include "providerplugin.h"
#include "wire/security.h"

namespace meridian {

inline constexpr const char *kStandbyOwner = "meridian-pool standby";

class PoolService final : public v1::CapacityPool::CallbackService {
public:
    PoolService(PoolConfig config, LeaseBook &book, const Clock &clock,
                ProviderCall call = callProvider);
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
    // Who a lease or release is for: the name of the caller's token, or, where the pool
    // has no tokens (loopback only), the requested_by it gives; else why it is refused.
    struct Owner {
        Owner(std::string n) : name(std::move(n)) {}      // NOLINT(google-explicit-constructor)
        Owner(grpc::Status s) : refusal(std::move(s)) {}  // NOLINT(google-explicit-constructor)
        std::string name;
        grpc::Status refusal;
    };
    Owner callerOwner(const grpc::CallbackServerContext &context, const std::string &claimed) const;

    const ProviderConfig *providerOf(const std::string &offerId, const PoolOffer **offer) const;
    void provision(const std::string &leaseId);
    void release(const std::string &leaseId);
    void checkHeld(const std::string &providerName);
    void runLater(void (PoolService::*job)(const std::string &), const std::string &leaseId);
    void book(const BookedLease &booked);
    int nodesLeased(const std::string &offerId) const;
    // With m_mutex held: the request answered with a standby node ready, a new lease, or a
    // standby node still coming up (when no node is free), in that order.
    grpc::Status answerLease(const v1::LeaseRequest &request, const ProviderConfig &provider,
                             const PoolOffer &offer, v1::Lease &answer);
    // With m_mutex held: books a new lease for the request and answers it.
    grpc::Status bookLease(const v1::LeaseRequest &request, const ProviderConfig &provider,
                           const PoolOffer &offer, v1::Lease &answer);
    // A new PROVISIONING lease of the offer, not yet booked.
    BookedLease newLease(const ProviderConfig &provider, const PoolOffer &offer, uint32_t nodes,
                         const std::string &owner);

    // Warm standby (poolstandby.cpp). With m_mutex held: a one-node lease of the offer takes
    // over the standby lease that has stood by longest in `state`, in one write of the books
    // (the standby lease ends). READY: the lease is ready at once, on its node. PROVISIONING
    // (no node free otherwise, so a paying lease goes before a refill): that lease's
    // provisioning, when it ends, makes this one READY or FAILED. None where no standby is
    // in that state, or where the books did not take it (`error` says so).
    std::optional<v1::Lease> takeStandby(const v1::LeaseRequest &request, const PoolOffer &offer,
                                         v1::LeaseState state, std::string &error);
    // Books and provisions standby leases up to the offer's standby_nodes, and releases
    // ready ones beyond it.
    void topUpStandby(const std::string &offerId);
    int standbyReady(const std::string &offerId) const;

    PoolConfig m_config;
    LeaseBook &m_book;
    const Clock &m_clock;
    ProviderCall m_call;
    Authorizer m_authorizer;
    mutable std::mutex m_mutex;
    std::map<std::string, BookedLease> m_leases;
    std::map<std::string, std::string> m_byKey;  // idempotency key → lease id
    int m_nextLease = 1;
    JobThreads m_jobs;  // last: stopped first, before what its jobs use
};

}  // namespace meridian
