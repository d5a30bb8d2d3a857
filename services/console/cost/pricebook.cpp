#include "pricebook.h"

#include <fmt/format.h>

#include "core/textutil.h"
#include "core/yamlfile.h"

namespace meridian {

namespace {

int specificity(const PriceRule &rule)
{
    return (rule.model.empty() ? 0 : 4) + (rule.vendor == Vendor::Unknown ? 0 : 2) +
           (rule.dataCenter.empty() ? 0 : 1);
}

bool matches(const PriceRule &rule, const CardPlace &card, int64_t t)
{
    return (rule.model.empty() || rule.model == card.model) &&
           (rule.vendor == Vendor::Unknown || rule.vendor == card.vendor) &&
           (rule.dataCenter.empty() || rule.dataCenter == card.dataCenter) && t >= rule.fromUnixS &&
           (!rule.toUnixS || t < *rule.toUnixS);
}

// One entry of `prices:`: what it prices (a model, a vendor, a data center), how much, from
// when and until when.
Result<PriceRule> readPriceRule(const std::string &path, const YAML::Node &entry)
{
    PriceRule rule;
    rule.model = yamlCardModel(entry, "model");
    rule.dataCenter = yamlValue<std::string>(entry, "data_center", "");
    if (entry["vendor"]) {
        rule.vendor = vendorFromName(yamlScalar<std::string>(entry["vendor"], "vendor"));
        if (rule.vendor == Vendor::Unknown)
            return yamlError(path, entry["vendor"],
                             "vendor must be nvidia, huawei, cambricon or hygon");
    }
    if (rule.model.empty() && rule.vendor == Vendor::Unknown && rule.dataCenter.empty())
        return yamlError(path, entry, "a price names a model, a vendor or a data center");
    if (!entry["cny_per_card_hour"])
        return yamlError(path, entry, "a price needs cny_per_card_hour");
    const auto price = parseNumber(yamlValue<std::string>(entry, "cny_per_card_hour", ""));
    rule.cnyPerCardHour = price.value_or(-1);
    if (!(rule.cnyPerCardHour >= 0) || rule.cnyPerCardHour > 10'000)
        return yamlError(path, entry["cny_per_card_hour"],
                         "cny_per_card_hour must be a number, 0..10000");
    const auto from = parseUtcTime(yamlValue<std::string>(entry, "from", ""));
    if (!from)
        return yamlError(path, entry["from"] ? entry["from"] : entry,
                         "from: must be a date (2026-07-01) or a UTC time");
    rule.fromUnixS = *from;
    if (entry["to"]) {
        rule.toUnixS = parseUtcTime(yamlScalar<std::string>(entry["to"], "to"));
        if (!rule.toUnixS || *rule.toUnixS <= rule.fromUnixS)
            return yamlError(path, entry["to"], "to: must be a date after from:");
    }
    return rule;
}

// One entry of `contracts:`: whose, where, when, and its discount.
Result<Contract> readContract(const std::string &path, const YAML::Node &entry)
{
    Contract c;
    c.customer = yamlValue<std::string>(entry, "customer", "");
    c.dataCenter = yamlValue<std::string>(entry, "data_center", "");
    c.nodeId = yamlValue<std::string>(entry, "node", "");
    c.model = yamlCardModel(entry, "model");
    const auto from = parseUtcTime(yamlValue<std::string>(entry, "from", ""));
    const auto to = parseUtcTime(yamlValue<std::string>(entry, "to", ""));
    if (!from || !to || *to <= *from)
        return yamlError(path, entry, "a contract needs from: and a later to:");
    c.fromUnixS = *from;
    c.toUnixS = *to;
    std::optional<double> stated;
    if (entry["discount_percent"])
        stated = yamlScalar<double>(entry["discount_percent"], "discount_percent");
    c.discountPercent = contractDiscount(c.fromUnixS, c.toUnixS, stated);
    if (c.discountPercent < 0 || c.discountPercent > 100)
        return yamlError(path, entry, "discount_percent must be 0..100");
    return c;
}

}  // namespace

double contractDiscount(int64_t fromUnixS, int64_t toUnixS, std::optional<double> stated)
{
    if (stated)
        return *stated;
    return toUnixS - fromUnixS >= PriceBook::kLongContractSeconds
               ? PriceBook::kLongContractDiscountPercent
               : 0.0;
}

std::optional<double> PriceBook::listPrice(const CardPlace &card, int64_t unixS) const
{
    const PriceRule *best = nullptr;
    for (const PriceRule &rule : m_rules) {
        if (!matches(rule, card, unixS))
            continue;
        // Most specific wins; among equals, the one that started last (the newer price).
        if (!best || specificity(rule) > specificity(*best) ||
            (specificity(rule) == specificity(*best) && rule.fromUnixS > best->fromUnixS))
            best = &rule;
    }
    if (!best)
        return std::nullopt;
    return best->cnyPerCardHour;
}

std::optional<double> PriceBook::price(const CardPlace &card, int64_t unixS) const
{
    auto list = listPrice(card, unixS);
    if (!list)
        return std::nullopt;
    const Contract *contract = contractFor(card, unixS);
    return *list * (1.0 - (contract ? contract->discountPercent : 0.0) / 100.0);
}

const Contract *PriceBook::contractFor(const CardPlace &card, int64_t unixS) const
{
    const Contract *best = nullptr;
    for (const Contract &c : m_contracts) {
        if (unixS >= c.fromUnixS && unixS < c.toUnixS &&
            (c.dataCenter.empty() || c.dataCenter == card.dataCenter) &&
            (c.nodeId.empty() || c.nodeId == card.nodeId) &&
            (c.model.empty() || c.model == card.model) &&
            (!best || c.discountPercent > best->discountPercent))
            best = &c;
    }
    return best;
}

Result<PriceBook> PriceBook::load(const std::string &path)
{
    auto loaded = loadYamlFile(path);
    if (!loaded)
        return loaded.error();
    const YAML::Node root = loaded.value();
    if (!root.IsMap() || !root["prices"] || !root["prices"].IsSequence())
        return yamlError(
            path, root,
            "expected 'prices:' with a list of {model | vendor, cny_per_card_hour, from}");
    if (root["currency"] && yamlValue<std::string>(root, "currency", "") != "CNY")
        return yamlError(path, root["currency"], "only CNY prices are supported");
    PriceBook book;
    try {
        for (const YAML::Node &entry : root["prices"]) {
            auto rule = readPriceRule(path, entry);
            if (!rule)
                return rule.error();
            book.addRule(std::move(rule).value());
        }
        if (const YAML::Node contracts = root["contracts"]) {
            if (!contracts.IsSequence())
                return yamlError(path, contracts,
                                 "contracts: must be a list of {customer, from, to, ...}");
            for (const YAML::Node &entry : contracts) {
                auto contract = readContract(path, entry);
                if (!contract)
                    return contract.error();
                book.addContract(std::move(contract).value());
            }
        }
        if (const YAML::Node costs = root["card_costs"]) {
            if (!costs.IsSequence())
                return yamlError(path, costs, "card_costs: must be a list of {model, ...}");
            book.setCardCostsYaml(YAML::Dump(costs));
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    return book;
}

}  // namespace meridian
