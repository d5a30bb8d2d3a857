// Utilisation and cost over a period, grouped by data center, vendor, model, node or
// inference service: card-hours observed, busy and idle, what they cost at the prices
// valid at the time, what idle cards cost, and what cloud bursts cost; and its CSV and
// JSON forms. Built from the history file by cost/reportloader.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "pricebook.h"

namespace meridian {

// Customer: the contract a card-hour was sold under ("(no contract)" at list price), so
// the value column is each tenant's revenue.
enum class ReportGroup { DataCenter, Vendor, Model, Node, Service, Customer };

std::optional<ReportGroup> reportGroupFromName(std::string_view name);  // dc|vendor|...|customer
std::string_view reportGroupName(ReportGroup group);

struct ReportRow {
    std::string group;
    int cards = 0;
    double cardHours = 0;
    double busyCardHours = 0;
    double costCny = 0;
    double idleCostCny = 0;
    double energyKwh = 0;
    double utilizationSeconds = 0;  // observed time with a utilisation reading
    double utilizationPercentSeconds = 0;
    double unpricedCardHours = 0;  // card-hours no price covers: counted, not billed
    double busyPercent() const { return cardHours > 0 ? 100 * busyCardHours / cardHours : 0; }
    double idleCardHours() const { return std::max(0.0, cardHours - busyCardHours); }
    std::optional<double> meanUtilizationPercent() const;
};

// One rented block of cloud capacity and what it cost within the period.
struct CloudSpendRow {
    std::string leaseId;
    std::string region;
    std::string cardModel;
    std::string requestedBy;
    int cards = 0;
    double cnyPerCardHour = 0;
    double billedHours = 0;
    double costCny = 0;
    std::string service;  // the inference service it was rented for; empty: not known
};

struct UsageReport {
    int64_t fromUnixS = 0;
    int64_t toUnixS = 0;
    int64_t asOfUnixS = 0;  // the moment its figures stand at (running leases billed to it)
    ReportGroup group = ReportGroup::DataCenter;
    std::vector<ReportRow> rows;  // the largest value first, then by group name
    ReportRow total;
    std::vector<CloudSpendRow> cloud;
    double cloudSpendCny = 0;

    // Cloud spend by the service it was rented for, largest first ("" = not known).
    std::vector<std::pair<std::string, double>> cloudSpendByService() const;

    // Hours of the period its figures can cover: up to asOfUnixS, not into the future.
    double coveredHours() const;
    // Coverage: the share of the card-hours `cards` cards would give over coveredHours()
    // that the history holds (a card missing a minute is a gap, not an idle minute); 0
    // for a period with no card in it; nullopt for a period of no time.
    std::optional<double> coveragePercent(double cardHours, int cards) const;
};

// The period as every form of a report writes it: whole days as their first and last
// (included) dates, "2026-07-01" and "2026-07-31"; otherwise both ends as UTC times,
// "2026-07-01T06:00Z", the end excluded.
struct ReportPeriod {
    std::string from;
    std::string to;
    bool wholeDays = true;
    int days = 0;  // when whole days
};
ReportPeriod reportPeriod(const UsageReport &report);

struct ReportRequest {
    int64_t fromUnixS = 0;
    int64_t toUnixS = 0;
    ReportGroup group = ReportGroup::DataCenter;
    int64_t nowUnixS = 0;  // leases still running are billed up to here; 0: the wall clock
};

// One report per day or week (loadReport in cost/reportloader.h).
struct UsageTrend {
    int64_t bucketSeconds = 86400;
    std::vector<UsageReport> buckets;
};

// One table per file, each row carrying the period (period_from, period_to as
// reportPeriod writes them), so a file read on its own says what it covers. Money is
// "value" for own cards (what their card-hours earn at price-book rates) and "spend" for
// rented capacity (what the pool charged), in every form.
std::string reportToCsv(const UsageReport &report);
std::string cloudSpendToCsv(const UsageReport &report);
std::string reportToJson(const UsageReport &report);

}  // namespace meridian
