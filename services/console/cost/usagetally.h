// The usage report's arithmetic: usage rows in, each put in its group, priced at the
// prices and contracts in force, summed, and the period's cloud spend beside them. No
// SQL here: the report loader streams the history's rows in (history/usagerows), one
// price segment at a time (prices hold still within a segment).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "history/usagerows.h"
#include "pricebook.h"
#include "usagereport.h"

namespace meridian {

// What usage rows refer to, read once per report: the history's cards and services, and
// the cloud leases (their spend, and the price rented nodes bill at).
struct UsageCatalog : CardCatalog {
    std::vector<CloudLease> leases;
    std::map<std::string, std::string> leaseService;  // lease id → the service it was for
    std::map<std::string, double> leasePriceByNode;   // rented nodes bill at the lease price
};

// Where prices may change inside [from, to): the period's ends and each rule's and
// contract's edges between them, in order.
std::vector<int64_t> priceSegments(const PriceBook &prices, int64_t fromUnixS, int64_t toUnixS);

class UsageTally {
public:
    UsageTally(const UsageCatalog &catalog, const PriceBook &prices, const ReportRequest &request);

    // The rows that follow lie in the segment that starts here.
    void beginSegment(int64_t segmentStartUnixS);
    // A row of a card the catalog does not know is left out.
    void add(const UsageRow &row);
    // Groups in natural order, the total, and the cloud leases billed in the period.
    UsageReport finish() &&;

private:
    size_t groupOf(size_t card, int64_t service, const Contract *contract);
    std::string groupKey(const CardPlace &card, int64_t service, const Contract *contract) const;

    const UsageCatalog &m_catalog;  // outlives the tally (the reader's)
    PriceBook m_prices;             // a copy: small, and callers pass temporaries
    ReportRequest m_request;
    int64_t m_segmentStartUnixS = 0;
    // Hundreds of thousands of rows a month: everything per row is an array index.
    std::map<std::string, size_t> m_groupIndex;
    std::vector<ReportRow> m_rows;
    std::vector<std::vector<bool>> m_cardSeen;  // per group, by card id
    std::vector<bool> m_anySeen;
    std::vector<std::optional<size_t>> m_groupOfCard;  // when not by service
    std::map<int64_t, size_t> m_groupOfService;
    std::vector<std::optional<std::optional<double>>> m_priceOfCard;  // this segment's
};

}  // namespace meridian
