#include "poolservice.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "providerplugin.h"
#include "wire/protoconvert.h"

namespace meridian {

namespace {

bool holdsNodes(const v1::Lease &lease)
{
    return lease.state() == v1::LEASE_STATE_PROVISIONING || lease.state() == v1::LEASE_STATE_READY;
}

// The nodes in a provider's answer to `lease`, each with its id and agent's address.
Result<std::vector<v1::LeasedNode>> leasedNodes(const nlohmann::json &answer)
{
    const auto list = answer.find("nodes");
    if (list == answer.end() || !list->is_array())
        return Error{"the provider's answer has no nodes list"};
    std::vector<v1::LeasedNode> nodes;
    for (const auto &n : *list) {
        if (!n.is_object() || !n.contains("node_id") || !n.contains("agent_address") ||
            !n["node_id"].is_string() || !n["agent_address"].is_string())
            return Error{"a node in the provider's answer lacks node_id or agent_address"};
        v1::LeasedNode node;
        node.set_node_id(n["node_id"].get<std::string>());
        node.set_agent_address(n["agent_address"].get<std::string>());
        nodes.push_back(std::move(node));
    }
    return nodes;
}

}  // namespace

PoolService::PoolService(PoolConfig config, LeaseBook &book, const Clock &clock, ProviderCall call)
    : m_config(std::move(config))
    , m_book(book)
    , m_clock(clock)
    , m_call(std::move(call))
    , m_authorizer(m_config.security.tokens)
{}

PoolService::~PoolService()
{
    m_jobs.stop();
}

Status PoolService::resume()
{
    auto booked = m_book.all();
    if (!booked)
        return booked.error();
    std::vector<std::pair<void (PoolService::*)(const std::string &), std::string>> owed;
    {
        std::lock_guard lock(m_mutex);
        for (BookedLease &b : *booked) {
            const std::string id = b.lease.lease_id();
            m_byKey[b.lease.idempotency_key()] = id;
            const int number = std::atoi(id.c_str() + std::min<size_t>(id.size(), 6));
            m_nextLease = std::max(m_nextLease, number + 1);
            if (b.releaseOwed)
                owed.emplace_back(&PoolService::release, id);
            else if (b.lease.state() == v1::LEASE_STATE_PROVISIONING)
                owed.emplace_back(&PoolService::provision, id);
            m_leases[id] = std::move(b);
        }
    }
    for (const auto &[job, id] : owed)
        runLater(job, id);
    for (const ProviderConfig &provider : m_config.providers) {
        runLater(&PoolService::checkHeld, provider.name);
        for (const PoolOffer &offer : provider.offers)
            runLater(&PoolService::topUpStandby, offer.offerId);
    }
    return {};
}

void PoolService::checkHeld(const std::string &providerName)
{
    // What the provider says it holds, against what the books say is ready: a node
    // someone gave back by hand, or a provider's state lost, is not capacity.
    const ProviderConfig *provider = nullptr;
    for (const ProviderConfig &p : m_config.providers) {
        if (p.name == providerName)
            provider = &p;
    }
    if (!provider)
        return;
    // A lease that became ready after the list was asked for may be missing from it.
    const int64_t askedAtMs = m_clock.nowUnixMs();
    auto answer = m_call(*provider, "list", nlohmann::json::object());
    if (!answer || !answer->contains("leases") || !(*answer)["leases"].is_array()) {
        // A provider that cannot list is not proof of anything lost.
        fmt::print(stderr,
                   "{}: provider {}: its list could not be read ({}); no lease "
                   "is failed on its word\n",
                   m_config.speaker, providerName,
                   answer ? "no \"leases\" array" : answer.error().message);
        return;
    }
    std::set<std::string> held;
    for (const auto &lease : (*answer)["leases"]) {
        if (lease.is_object() && lease.contains("lease_id") && lease["lease_id"].is_string())
            held.insert(lease["lease_id"].get<std::string>());
    }
    int gone = 0;
    std::lock_guard lock(m_mutex);
    for (auto &[id, booked] : m_leases) {
        if (booked.provider == providerName && booked.lease.state() == v1::LEASE_STATE_READY &&
            booked.lease.ready_unix_ms() < askedAtMs && !booked.releaseOwed &&
            !held.count(providerLeaseId(booked.lease))) {
            booked.lease.set_state(v1::LEASE_STATE_FAILED);
            booked.lease.set_message(
                fmt::format("provider {} no longer holds it (its list has no {})", providerName,
                            providerLeaseId(booked.lease)));
            book(booked);
            ++gone;
        }
    }
    // Said once a start: an operator (and a test) sees the books were held to the provider.
    fmt::print(stderr,
               "{}: provider {}: its list checked against the books: {} held, "
               "{} no longer held\n",
               m_config.speaker, providerName, held.size(), gone);
}

const ProviderConfig *PoolService::providerOf(const std::string &offerId,
                                              const PoolOffer **offer) const
{
    for (const ProviderConfig &p : m_config.providers) {
        for (const PoolOffer &o : p.offers) {
            if (o.offerId == offerId) {
                if (offer)
                    *offer = &o;
                return &p;
            }
        }
    }
    return nullptr;
}

int PoolService::nodesLeased(const std::string &offerId) const
{
    int nodes = 0;
    for (const auto &[id, b] : m_leases) {
        if (b.lease.offer_id() == offerId && holdsNodes(b.lease))
            nodes += static_cast<int>(b.lease.nodes());
    }
    return nodes;
}

void PoolService::book(const BookedLease &booked)
{
    // The pool's answers stand on the book: a write that fails is said in the lease.
    if (Status s = m_book.put(booked); !s)
        fmt::print(stderr, "{}: {}\n", m_config.speaker, s.message());
}

void PoolService::runLater(void (PoolService::*job)(const std::string &),
                           const std::string &leaseId)
{
    m_jobs.run([this, job, leaseId] { (this->*job)(leaseId); });
}

grpc::ServerUnaryReactor *PoolService::ListOffers(grpc::CallbackServerContext *context,
                                                  const v1::ListOffersRequest *request,
                                                  v1::ListOffersResponse *response)
{
    auto *reactor = context->DefaultReactor();
    if (grpc::Status denied = m_authorizer.check(*context, Role::ReadOnly); !denied.ok()) {
        reactor->Finish(denied);
        return reactor;
    }
    std::lock_guard lock(m_mutex);
    for (const ProviderConfig &p : m_config.providers) {
        for (const PoolOffer &o : p.offers) {
            if (!request->region().empty() && request->region() != o.region)
                continue;
            v1::Offer *offer = response->add_offers();
            offer->set_offer_id(o.offerId);
            offer->set_region(o.region);
            offer->set_vendor(vendorToProto(o.vendor));
            offer->set_card_model(o.cardModel);
            offer->set_cards_per_node(static_cast<uint32_t>(o.cardsPerNode));
            // A ready standby node is leased at once, so it is available too.
            const int ready = standbyReady(o.offerId);
            offer->set_available_nodes(
                static_cast<uint32_t>(std::max(0, o.nodes - nodesLeased(o.offerId)) + ready));
            offer->set_standby_nodes_ready(static_cast<uint32_t>(ready));
            offer->set_price_cny_per_card_hour(o.priceCnyPerCardHour);
            offer->set_billing_increment_seconds(static_cast<uint32_t>(o.billingIncrementSeconds));
            offer->set_typical_provisioning_seconds(static_cast<uint32_t>(o.provisioningSeconds));
        }
    }
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

PoolService::Owner PoolService::callerOwner(const grpc::CallbackServerContext &context,
                                            const std::string &claimed) const
{
    const TokenGrant *caller = nullptr;
    if (grpc::Status denied = m_authorizer.check(context, Role::Operator, &caller); !denied.ok())
        return denied;
    // Without tokens (loopback only) nobody can be told apart but by what they say.
    const std::string owner = caller ? caller->name : claimed;
    if (owner.empty())
        return grpc::Status{grpc::StatusCode::INVALID_ARGUMENT,
                            "requested_by is needed: this pool has no tokens to tell its "
                            "callers apart"};
    if (owner == kStandbyOwner)
        return grpc::Status{grpc::StatusCode::INVALID_ARGUMENT,
                            fmt::format("\"{}\" is the pool's own name", kStandbyOwner)};
    return owner;
}

grpc::ServerUnaryReactor *PoolService::Lease(grpc::CallbackServerContext *context,
                                             const v1::LeaseRequest *request,
                                             v1::LeaseResponse *response)
{
    auto *reactor = context->DefaultReactor();
    auto owner = callerOwner(*context, request->requested_by());
    if (!owner.refusal.ok()) {
        reactor->Finish(owner.refusal);
        return reactor;
    }
    if (request->idempotency_key().empty() || request->nodes() < 1 || request->nodes() > 64) {
        reactor->Finish({grpc::StatusCode::INVALID_ARGUMENT,
                         "a lease needs an idempotency_key and 1..64 nodes"});
        return reactor;
    }
    // The lease is booked in the caller's name, whatever the request says it is.
    v1::LeaseRequest asked = *request;
    asked.set_requested_by(owner.name);
    grpc::Status status;
    const std::string offerId = request->offer_id();
    {
        std::lock_guard lock(m_mutex);
        if (const auto known = m_byKey.find(request->idempotency_key()); known != m_byKey.end()) {
            const v1::Lease &lease = m_leases.at(known->second).lease;
            // Another owner's key says nothing of its lease, let alone hands it over.
            if (lease.requested_by() != owner.name) {
                reactor->Finish({grpc::StatusCode::PERMISSION_DENIED,
                                 fmt::format("idempotency key '{}' is another owner's; {} must "
                                             "use keys of its own",
                                             request->idempotency_key(), owner.name)});
                return reactor;
            }
            *response->mutable_lease() = lease;
            response->set_replayed(true);
            reactor->Finish(grpc::Status::OK);
            return reactor;
        }
        const PoolOffer *offer = nullptr;
        const ProviderConfig *provider = providerOf(request->offer_id(), &offer);
        if (!provider) {
            reactor->Finish(
                {grpc::StatusCode::NOT_FOUND, fmt::format("no offer '{}'", request->offer_id())});
            return reactor;
        }
        status = answerLease(asked, *provider, *offer, *response->mutable_lease());
    }
    if (status.ok() && !response->lease().taken_from().empty())
        runLater(&PoolService::topUpStandby, offerId);  // the standby node taken is replaced
    else if (status.ok())
        runLater(&PoolService::provision, response->lease().lease_id());
    reactor->Finish(status);
    return reactor;
}

grpc::Status PoolService::answerLease(const v1::LeaseRequest &request,
                                      const ProviderConfig &provider, const PoolOffer &offer,
                                      v1::Lease &answer)
{
    std::string error;
    grpc::Status status;
    if (auto taken = takeStandby(request, offer, v1::LEASE_STATE_READY, error))
        answer = std::move(*taken);
    else if (!error.empty())
        return {grpc::StatusCode::UNAVAILABLE, error};
    else
        status = bookLease(request, provider, offer, answer);
    // No node free, but one coming up to stand by: a paying lease goes before a refill.
    if (status.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED)
        return status;
    if (auto taken = takeStandby(request, offer, v1::LEASE_STATE_PROVISIONING, error)) {
        answer = std::move(*taken);
        return grpc::Status::OK;
    }
    return error.empty() ? status : grpc::Status{grpc::StatusCode::UNAVAILABLE, error};
}

grpc::Status PoolService::bookLease(const v1::LeaseRequest &request, const ProviderConfig &provider,
                                    const PoolOffer &offer, v1::Lease &answer)
{
    const int free = offer.nodes - nodesLeased(offer.offerId);
    if (static_cast<int>(request.nodes()) > free)
        return {grpc::StatusCode::RESOURCE_EXHAUSTED,
                fmt::format("offer {}: {} nodes asked, {} free", offer.offerId, request.nodes(),
                            std::max(0, free))};
    BookedLease booked = newLease(provider, offer, request.nodes(), request.requested_by());
    booked.lease.set_idempotency_key(request.idempotency_key());
    // Booked before anything is asked of the provider: a crash from here on finds it.
    if (Status s = m_book.put(booked); !s)
        return {grpc::StatusCode::UNAVAILABLE, s.message()};
    const std::string id = booked.lease.lease_id();
    m_byKey[booked.lease.idempotency_key()] = id;
    answer = booked.lease;
    m_leases[id] = std::move(booked);
    return grpc::Status::OK;
}

BookedLease PoolService::newLease(const ProviderConfig &provider, const PoolOffer &offer,
                                  uint32_t nodes, const std::string &owner)
{
    BookedLease booked;
    booked.provider = provider.name;
    v1::Lease &lease = booked.lease;
    lease.set_lease_id(fmt::format("lease-{}", m_nextLease++));
    lease.set_offer_id(offer.offerId);
    lease.set_region(offer.region);
    lease.set_card_model(offer.cardModel);
    lease.set_nodes(nodes);
    lease.set_cards_per_node(static_cast<uint32_t>(offer.cardsPerNode));
    lease.set_price_cny_per_card_hour(offer.priceCnyPerCardHour);
    lease.set_billing_increment_seconds(static_cast<uint32_t>(offer.billingIncrementSeconds));
    lease.set_state(v1::LEASE_STATE_PROVISIONING);
    lease.set_created_unix_ms(m_clock.nowUnixMs());
    lease.set_requested_by(owner);
    return booked;
}

void PoolService::provision(const std::string &leaseId)
{
    nlohmann::json input;
    const ProviderConfig *provider = nullptr;
    {
        std::lock_guard lock(m_mutex);
        const v1::Lease &lease = m_leases.at(leaseId).lease;
        provider = providerOf(lease.offer_id(), nullptr);
        // A lease that took over a standby node still coming up is asked for by that
        // standby lease's id (after a restart): the provider knows no other.
        input = {{"lease_id", providerLeaseId(lease)}, {"idempotency_key", lease.idempotency_key()},
                 {"offer_id", lease.offer_id()},       {"nodes", lease.nodes()},
                 {"owner", lease.requested_by()},      {"standby", lease.standby()}};
    }
    auto answer = provider ? m_call(*provider, "lease", input)
                           : Result<nlohmann::json>(Error{"its offer is no longer configured"});
    std::vector<v1::LeasedNode> nodes;
    std::string problem;
    if (auto read =
            answer ? leasedNodes(*answer) : Result<std::vector<v1::LeasedNode>>(answer.error()))
        nodes = std::move(read).value();
    else
        problem = read.error().message;
    bool releaseNow = false;
    std::string bookedId = leaseId;
    {
        std::lock_guard lock(m_mutex);
        // A standby node a paying lease took over while it came up: the node is that lease's.
        if (const v1::Lease &asked = m_leases.at(leaseId).lease;
            asked.standby() && !asked.taken_by().empty() && m_leases.count(asked.taken_by()))
            bookedId = asked.taken_by();
        BookedLease &booked = m_leases.at(bookedId);
        v1::Lease &lease = booked.lease;
        if (problem.empty() && nodes.size() != lease.nodes())
            problem =
                fmt::format("the provider leased {} nodes of {}", nodes.size(), lease.nodes());
        if (problem.empty()) {
            lease.set_state(v1::LEASE_STATE_READY);
            lease.set_ready_unix_ms(m_clock.nowUnixMs());
            for (const v1::LeasedNode &n : nodes)
                *lease.add_leased_nodes() = n;
            releaseNow = booked.releaseOwed;  // released while it was provisioning
            if (!releaseNow && lease.taken_from().empty())
                lease.set_message("");  // one owed a release keeps the reason for it
        } else {
            lease.set_state(v1::LEASE_STATE_FAILED);
            lease.set_message(problem);
            // A provider that failed part-way may hold something: it is asked to let go.
            booked.releaseOwed = true;
            releaseNow = true;
        }
        book(booked);
    }
    if (releaseNow)
        release(bookedId);
}

grpc::ServerUnaryReactor *PoolService::Release(grpc::CallbackServerContext *context,
                                               const v1::ReleaseRequest *request,
                                               v1::ReleaseResponse *response)
{
    auto *reactor = context->DefaultReactor();
    auto owner = callerOwner(*context, request->requested_by());
    if (!owner.refusal.ok()) {
        reactor->Finish(owner.refusal);
        return reactor;
    }
    bool startRelease = false;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_leases.find(request->lease_id());
        if (it == m_leases.end()) {
            reactor->Finish(
                {grpc::StatusCode::NOT_FOUND, fmt::format("no lease '{}'", request->lease_id())});
            return reactor;
        }
        BookedLease &booked = it->second;
        if (owner.name != booked.lease.requested_by()) {
            reactor->Finish({grpc::StatusCode::PERMISSION_DENIED,
                             fmt::format("lease {} belongs to {}; a controller releases only its "
                                         "own leases",
                                         booked.lease.lease_id(), booked.lease.requested_by())});
            return reactor;
        }
        if (booked.lease.state() != v1::LEASE_STATE_RELEASED && !booked.releaseOwed) {
            booked.releaseOwed = true;
            book(booked);
            // One still provisioning is let go when its provider answers.
            startRelease = booked.lease.state() != v1::LEASE_STATE_PROVISIONING;
        }
        *response->mutable_lease() = booked.lease;
    }
    if (startRelease)
        runLater(&PoolService::release, request->lease_id());
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

void PoolService::release(const std::string &leaseId)
{
    nlohmann::json input;
    const ProviderConfig *provider = nullptr;
    {
        std::lock_guard lock(m_mutex);
        const v1::Lease &lease = m_leases.at(leaseId).lease;
        provider = providerOf(lease.offer_id(), nullptr);
        nlohmann::json nodes = nlohmann::json::array();
        for (const v1::LeasedNode &n : lease.leased_nodes())
            nodes.push_back({{"node_id", n.node_id()}, {"agent_address", n.agent_address()}});
        input = {{"lease_id", providerLeaseId(lease)},
                 {"idempotency_key", lease.idempotency_key()},
                 {"owner", lease.requested_by()},
                 {"nodes", nodes}};
    }
    auto answer = provider ? m_call(*provider, "release", input)
                           : Result<nlohmann::json>(Error{"its offer is no longer configured"});
    std::string offerId;
    {
        std::lock_guard lock(m_mutex);
        BookedLease &booked = m_leases.at(leaseId);
        // Why it failed, if it did, stays first; what the release met follows it.
        constexpr std::string_view kNotConfirmed = "release not confirmed: ";
        std::string message = booked.lease.message();
        if (const size_t earlier = message.find(kNotConfirmed); earlier != std::string::npos)
            message.erase(earlier >= 2 ? earlier - 2 : earlier);
        if (!answer) {
            // Still owed: the next start of the pool asks again.
            booked.lease.set_message((message.empty() ? "" : message + "; ") +
                                     std::string(kNotConfirmed) + answer.error().message);
            book(booked);
            return;
        }
        booked.lease.set_message(message);
        booked.releaseOwed = false;
        if (booked.lease.state() != v1::LEASE_STATE_FAILED)
            booked.lease.set_state(v1::LEASE_STATE_RELEASED);
        booked.lease.set_released_unix_ms(m_clock.nowUnixMs());
        book(booked);
        // A node free again may stand by; not after a standby node that failed, which would
        // ask a failing provider again and again (the next start tries again).
        if (!booked.lease.standby() || booked.lease.state() != v1::LEASE_STATE_FAILED)
            offerId = booked.lease.offer_id();
    }
    if (!offerId.empty())
        runLater(&PoolService::topUpStandby, offerId);
}

grpc::ServerUnaryReactor *PoolService::ListLeases(grpc::CallbackServerContext *context,
                                                  const v1::ListLeasesRequest *request,
                                                  v1::ListLeasesResponse *response)
{
    auto *reactor = context->DefaultReactor();
    if (grpc::Status denied = m_authorizer.check(*context, Role::ReadOnly); !denied.ok()) {
        reactor->Finish(denied);
        return reactor;
    }
    std::lock_guard lock(m_mutex);
    for (const auto &[id, booked] : m_leases) {
        const bool gone = booked.lease.state() == v1::LEASE_STATE_RELEASED;
        if ((request->include_released() || !gone) &&
            (request->owner().empty() || request->owner() == booked.lease.requested_by()))
            *response->add_leases() = booked.lease;
    }
    response->set_now_unix_ms(m_clock.nowUnixMs());
    reactor->Finish(grpc::Status::OK);
    return reactor;
}

}  // namespace meridian
