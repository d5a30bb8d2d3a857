#include "poolconfig.h"

#include <fmt/format.h>

#include <set>

#include "core/yamlfile.h"
#include "wire/securityconfig.h"

namespace meridian {

namespace {

Result<PoolOffer> readOffer(const std::string &path, const YAML::Node &node)
{
    if (Status s =
            checkKeys(path, node,
                      {"offer_id", "region", "vendor", "card_model", "cards_per_node", "nodes",
                       "price_cny_per_card_hour", "billing_increment_seconds",
                       "provisioning_seconds", "standby_nodes", "standby_price_cny_per_card_hour"});
        !s)
        return s.error();
    PoolOffer o;
    std::string vendor;
    yamlRead(node, "offer_id", o.offerId);
    yamlRead(node, "region", o.region);
    yamlRead(node, "vendor", vendor);
    o.cardModel = yamlCardModel(node, "card_model");
    yamlRead(node, "cards_per_node", o.cardsPerNode);
    yamlRead(node, "nodes", o.nodes);
    yamlRead(node, "price_cny_per_card_hour", o.priceCnyPerCardHour);
    yamlRead(node, "billing_increment_seconds", o.billingIncrementSeconds);
    yamlRead(node, "provisioning_seconds", o.provisioningSeconds);
    yamlRead(node, "standby_nodes", o.standbyNodes);
    o.standbyPriceCnyPerCardHour = o.priceCnyPerCardHour;
    yamlRead(node, "standby_price_cny_per_card_hour", o.standbyPriceCnyPerCardHour);
    o.vendor = vendorFromName(vendor);
    if (o.offerId.empty() || o.cardModel.empty())
        return yamlError(path, node, "an offer needs offer_id and card_model");
    if (o.vendor == Vendor::Unknown)
        return yamlError(path, node, "vendor: nvidia, huawei, cambricon or hygon");
    if (o.cardsPerNode < 1 || o.cardsPerNode > 64 || o.nodes < 0 || o.nodes > 10'000)
        return yamlError(path, node, "cards_per_node: 1..64, nodes: 0..10000");
    if (!(o.priceCnyPerCardHour >= 0) || o.billingIncrementSeconds < 1 || o.provisioningSeconds < 0)
        return yamlError(path, node,
                         "price_cny_per_card_hour >= 0, billing_increment_seconds >= 1");
    if (o.standbyNodes < 0 || o.standbyNodes > o.nodes || !(o.standbyPriceCnyPerCardHour >= 0))
        return yamlError(path, node,
                         fmt::format("standby_nodes: 0..nodes ({}), "
                                     "standby_price_cny_per_card_hour >= 0",
                                     o.nodes));
    return o;
}

Status readPoolConfig(const std::string &path, const YAML::Node &root, PoolConfig &config)
{
    if (Status s = checkKeys(
            path, root,
            {"listen", "data_dir", "tls", "tokens", "authenticate_within_seconds", "providers"});
        !s)
        return s;
    yamlRead(root, "listen", config.listen);
    yamlRead(root, "data_dir", config.dataDir);
    if (Status s = readServerSecurity(path, root, config.security); !s)
        return s;
    const YAML::Node providers = root["providers"];
    if (!providers || !providers.IsSequence() || providers.size() == 0)
        return yamlError(path, providers ? providers : root,
                         "providers: a list of {name, command, offers}");
    std::set<std::string> names, offers;
    for (const YAML::Node &entry : providers) {
        if (Status s = checkKeys(path, entry, {"name", "command", "timeout_seconds", "offers"}); !s)
            return s;
        ProviderConfig p;
        yamlRead(entry, "name", p.name);
        yamlRead(entry, "timeout_seconds", p.timeoutSeconds);
        if (entry["command"] && entry["command"].IsSequence())
            p.command = entry["command"].as<std::vector<std::string>>();
        if (p.name.empty() || p.command.empty() || p.command.front().empty())
            return yamlError(path, entry, "a provider needs name: and command: [program, args]");
        if (!names.insert(p.name).second)
            return yamlError(path, entry, "a second provider named " + p.name);
        if (p.timeoutSeconds < 1 || p.timeoutSeconds > 7200)
            return yamlError(path, entry["timeout_seconds"], "timeout_seconds: 1..7200");
        if (!entry["offers"] || !entry["offers"].IsSequence())
            return yamlError(path, entry, "offers: the node types this provider leases");
        for (const YAML::Node &o : entry["offers"]) {
            auto offer = readOffer(path, o);
            if (!offer)
                return offer.error();
            if (!offers.insert(offer->offerId).second)
                return yamlError(path, o, "a second offer " + offer->offerId);
            p.offers.push_back(std::move(offer).value());
        }
        config.providers.push_back(std::move(p));
    }
    return {};
}

}  // namespace

Status loadPoolConfig(const std::string &path, PoolConfig &config)
{
    return readYamlConfig(
        path, [&](const YAML::Node &root) { return readPoolConfig(path, root, config); });
}

}  // namespace meridian
