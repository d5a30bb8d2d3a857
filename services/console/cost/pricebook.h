// What a card-hour costs, when. Prices are per card model and/or vendor, optionally per
// data center, each valid over an interval; a change applies from its start on, never
// retroactively. Contracts of six months or more get their discount (10% by default).
//   currency: CNY
//   prices:
//     - {vendor: huawei, cny_per_card_hour: 1.2, from: 2026-01-01}
//     - {model: A100-SXM4-80GB, cny_per_card_hour: 2.0, from: 2026-01-01}
//     - {model: A100-SXM4-80GB, data_center: xiamen, cny_per_card_hour: 2.1, from: 2026-07-01}
//   contracts:
//     - {customer: acme, data_center: wuhu, from: 2026-01-01, to: 2026-12-31}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cardtypes.h"
#include "core/result.h"
#include "core/vendor.h"

namespace meridian {

struct PriceRule {
    std::string model;                // empty: any model
    Vendor vendor = Vendor::Unknown;  // Unknown: any vendor
    std::string dataCenter;           // empty: any data center
    double cnyPerCardHour = 0;
    int64_t fromUnixS = 0;
    std::optional<int64_t> toUnixS;  // exclusive; absent: open-ended
};

struct Contract {
    std::string customer;
    std::string dataCenter;  // empty: any
    std::string nodeId;      // empty: any
    std::string model;       // empty: any
    int64_t fromUnixS = 0;
    int64_t toUnixS = 0;  // exclusive
    double discountPercent = 0;
};

class PriceBook {
public:
    static constexpr double kLongContractDiscountPercent = 10.0;
    static constexpr int64_t kLongContractSeconds = 182LL * 86400;  // six months

    // Errors name the file and line.
    static Result<PriceBook> load(const std::string &path);

    void addRule(PriceRule rule) { m_rules.push_back(std::move(rule)); }
    void addContract(Contract contract) { m_contracts.push_back(std::move(contract)); }
    const std::vector<PriceRule> &rules() const { return m_rules; }
    const std::vector<Contract> &contracts() const { return m_contracts; }
    // The cost side, what a card-hour costs the provider (`card_costs:`, read by the
    // capacity plan): kept as written so that saving the prices never loses it.
    const std::string &cardCostsYaml() const { return m_cardCostsYaml; }
    void setCardCostsYaml(std::string yaml) { m_cardCostsYaml = std::move(yaml); }

    // The list price at a moment: the most specific rule valid then (model beats vendor,
    // a data center beats any); absent when no rule covers the card.
    std::optional<double> listPrice(const CardPlace &card, int64_t unixS) const;
    // What the card-hour earns at that moment after any contract discount.
    std::optional<double> price(const CardPlace &card, int64_t unixS) const;
    // The contract the card is sold under at that moment (the largest discount wins, as
    // in price()); null at list price.
    const Contract *contractFor(const CardPlace &card, int64_t unixS) const;

private:
    std::vector<PriceRule> m_rules;
    std::vector<Contract> m_contracts;
    std::string m_cardCostsYaml;
};

// A contract's discount from its term: 10% for six months or more unless it says otherwise.
double contractDiscount(int64_t fromUnixS, int64_t toUnixS, std::optional<double> stated);

}  // namespace meridian
