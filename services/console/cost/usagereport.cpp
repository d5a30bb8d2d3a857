#include "usagereport.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <map>

#include "core/csvfield.h"

namespace meridian {

namespace {

constexpr std::pair<ReportGroup, std::string_view> kGroupNames[] = {
    {ReportGroup::DataCenter, "dc"},   {ReportGroup::Vendor, "vendor"},
    {ReportGroup::Model, "model"},     {ReportGroup::Node, "node"},
    {ReportGroup::Service, "service"}, {ReportGroup::Customer, "customer"},
};

}  // namespace

std::optional<ReportGroup> reportGroupFromName(std::string_view name)
{
    for (const auto &[group, groupName] : kGroupNames) {
        if (name == groupName)
            return group;
    }
    return std::nullopt;
}

std::string_view reportGroupName(ReportGroup group)
{
    for (const auto &[candidate, groupName] : kGroupNames) {
        if (candidate == group)
            return groupName;
    }
    return "dc";
}

std::optional<double> ReportRow::meanUtilizationPercent() const
{
    if (utilizationSeconds <= 0)
        return std::nullopt;
    return utilizationPercentSeconds / utilizationSeconds;
}

namespace {

std::vector<const ReportRow *> withTotal(const UsageReport &report)
{
    std::vector<const ReportRow *> out;
    for (const ReportRow &row : report.rows)
        out.push_back(&row);
    out.push_back(&report.total);
    return out;
}

std::string utcText(int64_t unixS, bool withTime)
{
    const std::time_t t = static_cast<std::time_t>(unixS);
    std::tm utc{};
    gmtime_r(&t, &utc);
    const std::string day =
        fmt::format("{:04}-{:02}-{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
    return withTime ? fmt::format("{}T{:02}:{:02}Z", day, utc.tm_hour, utc.tm_min) : day;
}

}  // namespace

ReportPeriod reportPeriod(const UsageReport &report)
{
    ReportPeriod period;
    period.wholeDays = report.fromUnixS % 86400 == 0 && report.toUnixS % 86400 == 0;
    if (period.wholeDays) {
        period.from = utcText(report.fromUnixS, false);
        period.to = utcText(std::max(report.fromUnixS, report.toUnixS - 1), false);
        period.days = static_cast<int>((report.toUnixS - report.fromUnixS) / 86400);
    } else {
        period.from = utcText(report.fromUnixS, true);
        period.to = utcText(report.toUnixS, true);
    }
    return period;
}

double UsageReport::coveredHours() const
{
    const int64_t end = asOfUnixS > 0 ? std::clamp(asOfUnixS, fromUnixS, toUnixS) : toUnixS;
    return static_cast<double>(end - fromUnixS) / 3600.0;
}

std::optional<double> UsageReport::coveragePercent(double cardHours, int cards) const
{
    // A period the history holds no card in is covered not at all, not "unknown".
    if (cards == 0 && coveredHours() > 0)
        return 0.0;
    const double expected = coveredHours() * cards;
    if (expected <= 0)
        return std::nullopt;
    return std::min(100.0, 100.0 * cardHours / expected);
}

std::vector<std::pair<std::string, double>> UsageReport::cloudSpendByService() const
{
    std::map<std::string, double> byService;
    for (const CloudSpendRow &lease : cloud)
        byService[lease.service] += lease.costCny;
    std::vector<std::pair<std::string, double>> out(byService.begin(), byService.end());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    return out;
}

namespace {

std::string optionalNumber(const std::optional<double> &value)
{
    return value ? fmt::format("{:.1f}", *value) : std::string();
}

}  // namespace

std::string reportToCsv(const UsageReport &report)
{
    const ReportPeriod period = reportPeriod(report);
    std::string out =
        "period_from,period_to,group,cards,card_hours,coverage_percent,busy_card_hours,"
        "busy_percent,idle_card_hours,mean_utilization_percent,value_cny,idle_value_cny,"
        "energy_kwh,unpriced_card_hours\n";
    for (const ReportRow *row : withTotal(report)) {
        out += fmt::format(
            "{},{},{},{},{:.3f},{},{:.3f},{:.1f},{:.3f},{},{:.2f},{:.2f},{:.3f},{:.3f}\n",
            period.from, period.to, csvField(row->group), row->cards, row->cardHours,
            optionalNumber(report.coveragePercent(row->cardHours, row->cards)), row->busyCardHours,
            row->busyPercent(), row->idleCardHours(), optionalNumber(row->meanUtilizationPercent()),
            row->costCny, row->idleCostCny, row->energyKwh, row->unpricedCardHours);
    }
    return out;
}

std::string cloudSpendToCsv(const UsageReport &report)
{
    const ReportPeriod period = reportPeriod(report);
    std::string out =
        "period_from,period_to,lease_id,service,region,card_model,requested_by,cards,"
        "cny_per_card_hour,billed_hours,spend_cny\n";
    for (const CloudSpendRow &lease : report.cloud) {
        out += fmt::format("{},{},{},{},{},{},{},{},{:.2f},{:.2f},{:.2f}\n", period.from, period.to,
                           csvField(lease.leaseId), csvField(lease.service), csvField(lease.region),
                           csvField(lease.cardModel), csvField(lease.requestedBy), lease.cards,
                           lease.cnyPerCardHour, lease.billedHours, lease.costCny);
    }
    return out;
}

std::string reportToJson(const UsageReport &report)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const ReportRow *row : withTotal(report)) {
        const auto util = row->meanUtilizationPercent();
        const auto coverage = report.coveragePercent(row->cardHours, row->cards);
        rows.push_back({{"group", row->group},
                        {"cards", row->cards},
                        {"card_hours", row->cardHours},
                        {"busy_card_hours", row->busyCardHours},
                        {"busy_percent", row->busyPercent()},
                        {"idle_card_hours", row->idleCardHours()},
                        {"mean_utilization_percent", util ? nlohmann::json(*util) : nullptr},
                        {"coverage_percent", coverage ? nlohmann::json(*coverage) : nullptr},
                        {"value_cny", row->costCny},
                        {"idle_value_cny", row->idleCostCny},
                        {"energy_kwh", row->energyKwh},
                        {"unpriced_card_hours", row->unpricedCardHours}});
    }
    nlohmann::json leases = nlohmann::json::array();
    for (const CloudSpendRow &lease : report.cloud) {
        leases.push_back({{"lease_id", lease.leaseId},
                          {"region", lease.region},
                          {"card_model", lease.cardModel},
                          {"requested_by", lease.requestedBy},
                          {"service", lease.service},
                          {"cards", lease.cards},
                          {"cny_per_card_hour", lease.cnyPerCardHour},
                          {"billed_hours", lease.billedHours},
                          {"spend_cny", lease.costCny}});
    }
    const ReportPeriod period = reportPeriod(report);
    const nlohmann::json doc = {{"from_unix_s", report.fromUnixS},
                                {"to_unix_s", report.toUnixS},
                                {"period_from", period.from},
                                {"period_to", period.to},
                                {"as_of_unix_s", report.asOfUnixS},
                                {"group_by", reportGroupName(report.group)},
                                {"currency", "CNY"},
                                {"rows", rows},
                                {"cloud_leases", leases},
                                {"cloud_spend_cny", report.cloudSpendCny}};
    return doc.dump(2) + "\n";
}

}  // namespace meridian
