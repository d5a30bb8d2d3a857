// Utilisation and cost over a period, grouped by data center, vendor, model or node:
// card-hours observed, busy and idle, what they earned at the prices valid at each
// minute, and what idle cards cost. Reads the history file; writes nothing.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "pricebook.h"

namespace meridian {

enum class ReportGroup { DataCenter, Vendor, Model, Node };

std::optional<ReportGroup> reportGroupFromName(std::string_view name);  // dc|vendor|model|node

struct ReportRow {
    std::string group;
    int cards = 0;
    double cardHours = 0;
    double busyCardHours = 0;
    double costCny = 0;
    double idleCostCny = 0;
    double energyKwh = 0;
    int64_t unpricedMinutes = 0;  // card-minutes no price covers: counted, not billed
    double busyPercent() const { return cardHours > 0 ? 100 * busyCardHours / cardHours : 0; }
};

struct UsageReport {
    int64_t fromUnixS = 0;
    int64_t toUnixS = 0;
    ReportGroup group = ReportGroup::DataCenter;
    std::vector<ReportRow> rows;  // by group name
    ReportRow total;
};

Result<UsageReport> buildUsageReport(const std::string &historyFile, const PriceBook &prices,
                                     int64_t fromUnixS, int64_t toUnixS, ReportGroup group);

std::string reportToCsv(const UsageReport &report);
std::string reportToJson(const UsageReport &report);

}  // namespace meridian
