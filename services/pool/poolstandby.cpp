// Warm standby: one-node leases the pool holds for itself, provisioned but idle, so that
// a lease of their offer is ready at once. Handing one over is one write of the books
// (the standby lease ends, the new one begins on its node), so a pool killed at any point
// has either both or neither; the replacement is booked afterwards, and a restart tops the
// standby up again if a kill came between.
#include <fmt/format.h>

#include <algorithm>

#include "poolservice.h"

namespace meridian {

namespace {

bool standsBy(const BookedLease &b, const std::string &offerId)
{
    return b.lease.standby() && b.lease.offer_id() == offerId && !b.releaseOwed &&
           (b.lease.state() == v1::LEASE_STATE_PROVISIONING ||
            b.lease.state() == v1::LEASE_STATE_READY);
}

}  // namespace

int PoolService::standbyReady(const std::string &offerId) const
{
    int ready = 0;
    for (const auto &[id, b] : m_leases)
        ready += standsBy(b, offerId) && b.lease.state() == v1::LEASE_STATE_READY;
    return ready;
}

std::optional<v1::Lease> PoolService::takeStandby(const v1::LeaseRequest &request,
                                                  const PoolOffer &offer, v1::LeaseState state,
                                                  std::string &error)
{
    if (request.nodes() != 1)
        return std::nullopt;  // standby nodes are one-node leases
    // The one standing by longest: ready first, or ordered first while coming up.
    const bool ready = state == v1::LEASE_STATE_READY;
    const auto since = [&](const BookedLease &b) {
        return ready ? b.lease.ready_unix_ms() : b.lease.created_unix_ms();
    };
    const BookedLease *standby = nullptr;
    for (const auto &[id, b] : m_leases) {
        if (standsBy(b, offer.offerId) && b.lease.state() == state &&
            (!standby || since(b) < since(*standby)))
            standby = &b;
    }
    const ProviderConfig *provider = providerOf(offer.offerId, nullptr);
    if (!standby || !provider)
        return std::nullopt;
    const int64_t now = m_clock.nowUnixMs();
    BookedLease taker = newLease(*provider, offer, 1, request.requested_by());
    v1::Lease &lease = taker.lease;
    lease.set_idempotency_key(request.idempotency_key());
    lease.set_taken_from(providerLeaseId(standby->lease));
    if (ready) {
        lease.set_state(v1::LEASE_STATE_READY);
        lease.set_ready_unix_ms(now);
        *lease.mutable_leased_nodes() = standby->lease.leased_nodes();
        lease.set_message(fmt::format("a standby node, taken from {}", standby->lease.lease_id()));
    } else {
        // Its provisioning, when it ends, makes this lease READY or FAILED (provision()).
        lease.set_message(fmt::format("a standby node still coming up, taken from {}",
                                      standby->lease.lease_id()));
    }
    BookedLease given = *standby;
    given.lease.set_state(v1::LEASE_STATE_RELEASED);
    given.lease.set_released_unix_ms(now);
    given.lease.set_taken_by(lease.lease_id());
    if (Status s = m_book.putTogether({&given, &taker}); !s) {
        error = s.message();
        return std::nullopt;
    }
    m_leases[given.lease.lease_id()] = given;
    m_byKey[lease.idempotency_key()] = lease.lease_id();
    m_leases[lease.lease_id()] = taker;
    return lease;
}

void PoolService::topUpStandby(const std::string &offerId)
{
    std::vector<std::string> toProvision;
    std::vector<std::string> toRelease;
    {
        std::lock_guard lock(m_mutex);
        const PoolOffer *offer = nullptr;
        const ProviderConfig *provider = providerOf(offerId, &offer);
        if (m_jobs.stopping() || !provider)
            return;
        std::vector<BookedLease *> standingBy;
        for (auto &[id, b] : m_leases) {
            if (standsBy(b, offerId))
                standingBy.push_back(&b);
        }
        // The configuration asks for fewer now: the surplus goes back, those still
        // provisioning first (a ready one serves a lease at once). One provisioning is let
        // go when its provider answers, so it never stands by.
        std::stable_partition(standingBy.begin(), standingBy.end(), [](const BookedLease *b) {
            return b->lease.state() == v1::LEASE_STATE_READY;
        });
        for (size_t i = offer->standbyNodes; i < standingBy.size(); ++i) {
            BookedLease &b = *standingBy[i];
            b.releaseOwed = true;
            b.lease.set_message("standby_nodes lowered in the configuration");
            book(b);
            if (b.lease.state() == v1::LEASE_STATE_READY)
                toRelease.push_back(b.lease.lease_id());
        }
        int standing = std::min(static_cast<int>(standingBy.size()), offer->standbyNodes);
        while (standing < offer->standbyNodes && offer->nodes - nodesLeased(offerId) >= 1) {
            BookedLease b = newLease(*provider, *offer, 1, kStandbyOwner);
            b.lease.set_standby(true);
            b.lease.set_idempotency_key("standby:" + b.lease.lease_id());
            b.lease.set_price_cny_per_card_hour(offer->standbyPriceCnyPerCardHour);
            if (Status s = m_book.put(b); !s) {
                fmt::print(stderr, "{}: standby for {}: {}\n", m_config.speaker, offerId,
                           s.message());
                break;
            }
            const std::string id = b.lease.lease_id();
            m_byKey[b.lease.idempotency_key()] = id;
            m_leases[id] = std::move(b);
            toProvision.push_back(id);
            ++standing;
        }
    }
    for (const std::string &id : toProvision)
        runLater(&PoolService::provision, id);
    for (const std::string &id : toRelease)
        runLater(&PoolService::release, id);
}

}  // namespace meridian
