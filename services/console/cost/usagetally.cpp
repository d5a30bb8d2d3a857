#include "usagetally.h"

#include <algorithm>
#include <set>

#include "core/textutil.h"

namespace meridian {

std::vector<int64_t> priceSegments(const PriceBook &prices, int64_t fromUnixS, int64_t toUnixS)
{
    std::set<int64_t> edges{fromUnixS, toUnixS};
    const auto add = [&](int64_t t) {
        if (t > fromUnixS && t < toUnixS)
            edges.insert(t);
    };
    for (const PriceRule &rule : prices.rules()) {
        add(rule.fromUnixS);
        if (rule.toUnixS)
            add(*rule.toUnixS);
    }
    for (const Contract &contract : prices.contracts()) {
        add(contract.fromUnixS);
        add(contract.toUnixS);
    }
    return {edges.begin(), edges.end()};
}

UsageTally::UsageTally(const UsageCatalog &catalog, const PriceBook &prices,
                       const ReportRequest &request)
    : m_catalog(catalog)
    , m_prices(prices)
    , m_request(request)
    , m_segmentStartUnixS(request.fromUnixS)
    , m_anySeen(catalog.cards.size())
    , m_groupOfCard(catalog.cards.size())
    , m_priceOfCard(catalog.cards.size())
{}

void UsageTally::beginSegment(int64_t segmentStartUnixS)
{
    m_segmentStartUnixS = segmentStartUnixS;
    // Contracts begin and end on segment edges: by customer, a card's group is decided
    // afresh each segment.
    if (m_request.group == ReportGroup::Customer)
        std::fill(m_groupOfCard.begin(), m_groupOfCard.end(), std::nullopt);
    // Each card is priced once a segment, at its start.
    std::fill(m_priceOfCard.begin(), m_priceOfCard.end(), std::nullopt);
}

std::string UsageTally::groupKey(const CardPlace &card, int64_t service,
                                 const Contract *contract) const
{
    switch (m_request.group) {
    case ReportGroup::Customer: return contract ? contract->customer : std::string("(no contract)");
    case ReportGroup::DataCenter: return card.dataCenter;
    case ReportGroup::Vendor: return std::string(vendorName(card.vendor));
    case ReportGroup::Model: return card.model;
    case ReportGroup::Node: return card.nodeId;
    case ReportGroup::Service: {
        const auto it = m_catalog.services.find(service);
        return it == m_catalog.services.end() ? std::string("(no service)") : it->second;
    }
    }
    return {};
}

size_t UsageTally::groupOf(size_t card, int64_t service, const Contract *contract)
{
    const std::string key = groupKey(*m_catalog.cards[card], service, contract);
    auto [it, fresh] = m_groupIndex.try_emplace(key, m_rows.size());
    if (fresh) {
        m_rows.emplace_back().group = key;
        m_cardSeen.emplace_back(m_catalog.cards.size());
    }
    return it->second;
}

void UsageTally::add(const UsageRow &in)
{
    if (in.card < 0 || static_cast<size_t>(in.card) >= m_catalog.cards.size() ||
        !m_catalog.cards[static_cast<size_t>(in.card)])
        return;
    const auto card = static_cast<size_t>(in.card);
    const CardPlace &place = *m_catalog.cards[card];
    size_t g = 0;
    if (m_request.group == ReportGroup::Service) {
        const auto it = m_groupOfService.find(in.service);
        g = it != m_groupOfService.end()
                ? it->second
                : (m_groupOfService[in.service] = groupOf(card, in.service, nullptr));
    } else {
        if (!m_groupOfCard[card])
            m_groupOfCard[card] =
                groupOf(card, 0, m_prices.contractFor(place, m_segmentStartUnixS));
        g = *m_groupOfCard[card];
    }
    ReportRow &row = m_rows[g];
    m_cardSeen[g][card] = true;
    m_anySeen[card] = true;
    row.cardHours += in.observedSeconds / 3600.0;
    row.busyCardHours += in.busySeconds / 3600.0;
    row.energyKwh += in.energyJoules / 3.6e6;
    row.utilizationSeconds += in.utilizationSeconds;
    row.utilizationPercentSeconds += in.utilizationPercentSeconds;
    auto &price = m_priceOfCard[card];
    if (!price) {
        const auto lease = m_catalog.leasePriceByNode.find(place.nodeId);
        price = lease != m_catalog.leasePriceByNode.end()
                    ? std::optional<double>(lease->second)
                    : m_prices.price(place, m_segmentStartUnixS);
    }
    if (*price) {
        row.costCny += **price * in.observedSeconds / 3600.0;
        row.idleCostCny += **price * std::max(0.0, in.observedSeconds - in.busySeconds) / 3600.0;
    } else {
        row.unpricedCardHours += in.observedSeconds / 3600.0;
    }
}

UsageReport UsageTally::finish() &&
{
    UsageReport report;
    report.fromUnixS = m_request.fromUnixS;
    report.asOfUnixS = m_request.nowUnixS;
    report.toUnixS = m_request.toUnixS;
    report.group = m_request.group;
    for (size_t g = 0; g < m_rows.size(); ++g)
        m_rows[g].cards =
            static_cast<int>(std::count(m_cardSeen[g].begin(), m_cardSeen[g].end(), true));
    // One order wherever the report goes (window, CSV, JSON, PDF): the largest value first,
    // as the window opens sorted, then by name.
    std::sort(m_rows.begin(), m_rows.end(), [](const ReportRow &a, const ReportRow &b) {
        if (a.costCny != b.costCny)
            return a.costCny > b.costCny;
        return naturalLess(a.group, b.group);
    });
    ReportRow &total = report.total;
    total.group = "total";
    for (const ReportRow &row : m_rows) {
        total.cardHours += row.cardHours;
        total.busyCardHours += row.busyCardHours;
        total.costCny += row.costCny;
        total.idleCostCny += row.idleCostCny;
        total.energyKwh += row.energyKwh;
        total.utilizationSeconds += row.utilizationSeconds;
        total.utilizationPercentSeconds += row.utilizationPercentSeconds;
        total.unpricedCardHours += row.unpricedCardHours;
    }
    total.cards = static_cast<int>(std::count(m_anySeen.begin(), m_anySeen.end(), true));
    report.rows = std::move(m_rows);
    for (const CloudLease &lease : m_catalog.leases) {
        const int64_t from = m_request.fromUnixS, to = m_request.toUnixS;
        const double hours = leaseBilledHours(lease, from, to, m_request.nowUnixS);
        if (hours <= 0)
            continue;
        const double cost = leaseSpendCny(lease, from, to, m_request.nowUnixS);
        const auto owner = m_catalog.leaseService.find(lease.leaseId);
        report.cloud.push_back({lease.leaseId, lease.region, lease.cardModel, lease.requestedBy,
                                static_cast<int>(lease.cards()), lease.cnyPerCardHour, hours, cost,
                                owner == m_catalog.leaseService.end() ? "" : owner->second});
        report.cloudSpendCny += cost;
    }
    return report;
}

}  // namespace meridian
