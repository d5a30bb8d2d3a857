#include "simcloudprovider.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/clockwait.h"

namespace meridian {

namespace {

constexpr const char *kProviderName = "sim-cloud";

PoolOffer offer(const char *id, const char *region, Vendor vendor, const char *model, double price,
                int nodes, int provisioningSeconds)
{
    PoolOffer o;
    o.offerId = id;
    o.region = region;
    o.vendor = vendor;
    o.cardModel = model;
    o.cardsPerNode = 8;
    o.nodes = nodes;
    o.priceCnyPerCardHour = price;
    o.billingIncrementSeconds = 3600;
    o.provisioningSeconds = provisioningSeconds;
    return o;
}

SimNodeKind kindOf(const PoolOffer &o)
{
    if (o.vendor == Vendor::Huawei)
        return SimNodeKind::Ascend910B;
    return o.cardModel.find("H100") != std::string::npos ? SimNodeKind::H100 : SimNodeKind::A100;
}

}  // namespace

SimCloudProvider::SimCloudProvider(CloudNodeHost &nodes, const Clock &clock)
    : m_nodes(nodes), m_clock(clock)
{}

SimCloudProvider::~SimCloudProvider()
{
    stop();
}

PoolConfig SimCloudProvider::poolConfig(int provisioningSeconds, const std::string &dataDir)
{
    PoolConfig config;
    config.dataDir = dataDir;
    config.speaker = "meridian-sim pool";
    ProviderConfig provider;
    provider.name = kProviderName;
    provider.offers = {
        offer("cn-east-a100", "cn-east", Vendor::Nvidia, "A100-SXM4-80GB", 2.6, 16,
              provisioningSeconds),
        offer("cn-north-h100", "cn-north", Vendor::Nvidia, "H100-SXM5-80GB", 5.8, 8,
              provisioningSeconds),
        offer("cn-south-910b", "cn-south", Vendor::Huawei, "Ascend 910B", 1.5, 24,
              provisioningSeconds),
    };
    config.providers.push_back(std::move(provider));
    return config;
}

Result<nlohmann::json> SimCloudProvider::call(const ProviderConfig &provider,
                                              const std::string &verb, const nlohmann::json &input)
{
    if (verb == "lease")
        return lease(provider, input);
    if (verb == "release")
        return release(input);
    if (verb == "list")
        return list();
    return Error{fmt::format("provider {}: no verb '{}'", provider.name, verb)};
}

bool SimCloudProvider::waitUntil(int64_t dueMs)
{
    std::mutex mutex;
    ClockWait wait(m_clock, mutex);
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return false;
        m_waits.insert(&wait);
    }
    {
        std::unique_lock lock(mutex);
        while (wait.nowMs() < dueMs) {
            {
                std::lock_guard stopping(m_mutex);
                if (m_stopping)
                    break;
            }
            wait.waitUntil(lock, dueMs);
        }
    }
    std::lock_guard lock(m_mutex);
    m_waits.erase(&wait);
    return !m_stopping;
}

Result<nlohmann::json> SimCloudProvider::lease(const ProviderConfig &provider,
                                               const nlohmann::json &input)
{
    const std::string leaseId = input.value("lease_id", "");
    const std::string offerId = input.value("offer_id", "");
    const auto found = std::find_if(provider.offers.begin(), provider.offers.end(),
                                    [&](const PoolOffer &o) { return o.offerId == offerId; });
    if (leaseId.empty() || found == provider.offers.end())
        return Error{
            fmt::format("provider {}: no lease id, or no offer '{}'", provider.name, offerId)};
    const auto nodesOf = [](const CloudNodeEndpoints &endpoints) {
        nlohmann::json nodes = nlohmann::json::array();
        for (const auto &[nodeId, address] : endpoints)
            nodes.push_back({{"node_id", nodeId}, {"agent_address", address}});
        return nlohmann::json{{"nodes", nodes}};
    };
    {
        std::lock_guard lock(m_mutex);
        if (const auto held = m_leases.find(leaseId); held != m_leases.end())
            return nodesOf(held->second);  // asked again after a restart of the pool
    }
    if (!waitUntil(m_clock.steadyMs() + int64_t{found->provisioningSeconds} * 1000))
        return Error{"the simulator is stopping"};
    // Leases that finish together make the one shared node once: the first makes it while
    // the others wait to be given it.
    std::unique_lock sharing(m_sharedNodeMaking, std::defer_lock);
    bool shares = false;
    {
        std::lock_guard lock(m_mutex);
        if (auto lied = liedNodes(leaseId)) {
            m_leases[leaseId] = *lied;
            return nodesOf(*lied);
        }
        shares = m_lie == CloudLie::OneNodeForEveryLease;
    }
    if (shares)
        sharing.lock();  // never while holding m_mutex, which its holder takes
    {
        std::lock_guard lock(m_mutex);
        if (auto lied = liedNodes(leaseId)) {  // made while this lease waited
            m_leases[leaseId] = *lied;
            return nodesOf(*lied);
        }
    }
    auto endpoints = m_nodes.addCloudNodes(input.value("nodes", 1), kindOf(*found), leaseId);
    if (!endpoints)
        return endpoints.error();
    std::lock_guard lock(m_mutex);
    m_leases[leaseId] = endpoints.value();
    if (m_lie == CloudLie::OneNodeForEveryLease && m_sharedNode.empty()) {
        m_sharedNode = endpoints.value();
        m_sharedNodeMadeBy = leaseId;
    }
    return nodesOf(endpoints.value());
}

void SimCloudProvider::lie(CloudLie lie, CloudNodeEndpoints ownNode)
{
    std::lock_guard lock(m_mutex);
    m_lie = lie;
    m_ownNode = std::move(ownNode);
    m_sharedNode.clear();
}

std::optional<CloudNodeEndpoints> SimCloudProvider::liedNodes(const std::string &leaseId) const
{
    switch (m_lie) {
    case CloudLie::None: return std::nullopt;
    // Port 1 on a loopback address of its own: nothing listens, every call to its agent is
    // refused, and no two leases name the same address.
    case CloudLie::SilentNodes:
        return CloudNodeEndpoints{
            {"silent-" + leaseId, fmt::format("127.0.1.{}:1", m_leases.size() % 250 + 1)}};
    case CloudLie::OneNodeForEveryLease:
        return m_sharedNode.empty() ? std::nullopt : std::optional(m_sharedNode);
    case CloudLie::OurOwnNode: return m_ownNode;
    }
    return std::nullopt;
}

nlohmann::json SimCloudProvider::release(const nlohmann::json &input)
{
    const std::string leaseId = input.value("lease_id", "");
    std::string madeBy = leaseId;  // the lease its nodes were started under
    {
        std::lock_guard lock(m_mutex);
        const auto held = m_leases.find(leaseId);
        if (held != m_leases.end() && m_lie == CloudLie::OneNodeForEveryLease &&
            held->second == m_sharedNode) {
            m_leases.erase(held);
            // The shared node stays up while any lease still names it.
            for (const auto &[id, endpoints] : m_leases)
                if (endpoints == m_sharedNode)
                    return nlohmann::json::object();
            madeBy = m_sharedNodeMadeBy;
        }
    }
    m_nodes.removeCloudNodes(madeBy);
    std::lock_guard lock(m_mutex);
    m_leases.erase(leaseId);
    return nlohmann::json::object();
}

nlohmann::json SimCloudProvider::list() const
{
    nlohmann::json leases = nlohmann::json::array();
    std::lock_guard lock(m_mutex);
    for (const auto &[id, endpoints] : m_leases)
        leases.push_back({{"lease_id", id}});
    return nlohmann::json{{"leases", leases}};
}

void SimCloudProvider::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    for (ClockWait *wait : m_waits)
        wait->notify();
}

}  // namespace meridian
