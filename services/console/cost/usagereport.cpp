#include "usagereport.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <map>

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

std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace

namespace {

// "2026-07-01": the period's first day and its last (included), as people write them.
std::pair<std::string, std::string> periodDays(const UsageReport &report)
{
    const auto day = [](int64_t unixS) {
        const std::time_t t = static_cast<std::time_t>(unixS);
        std::tm utc{};
        gmtime_r(&t, &utc);
        return fmt::format("{:04}-{:02}-{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
    };
    return {day(report.fromUnixS), day(std::max(report.fromUnixS, report.toUnixS - 1))};
}

}  // namespace

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

std::string reportToCsv(const UsageReport &report)
{
    const auto [from, to] = periodDays(report);
    std::string out =
        "period_from,period_to,group,cards,card_hours,busy_card_hours,busy_percent,"
        "idle_card_hours,mean_utilization_percent,cost_cny,idle_cost_cny,energy_kwh,"
        "unpriced_card_hours\n";
    for (const ReportRow *row : withTotal(report)) {
        const auto util = row->meanUtilizationPercent();
        out +=
            fmt::format("{},{},{},{},{:.3f},{:.3f},{:.1f},{:.3f},{},{:.2f},{:.2f},{:.3f},{:.3f}\n",
                        from, to, csvField(row->group), row->cards, row->cardHours,
                        row->busyCardHours, row->busyPercent(), row->idleCardHours(),
                        util ? fmt::format("{:.1f}", *util) : std::string(), row->costCny,
                        row->idleCostCny, row->energyKwh, row->unpricedCardHours);
    }
    return out;
}

std::string cloudSpendToCsv(const UsageReport &report)
{
    const auto [from, to] = periodDays(report);
    std::string out =
        "period_from,period_to,lease_id,service,region,card_model,requested_by,cards,"
        "cny_per_card_hour,billed_hours,cost_cny\n";
    for (const CloudSpendRow &lease : report.cloud) {
        out += fmt::format("{},{},{},{},{},{},{},{},{:.2f},{:.2f},{:.2f}\n", from, to,
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
        rows.push_back({{"group", row->group},
                        {"cards", row->cards},
                        {"card_hours", row->cardHours},
                        {"busy_card_hours", row->busyCardHours},
                        {"busy_percent", row->busyPercent()},
                        {"idle_card_hours", row->idleCardHours()},
                        {"mean_utilization_percent", util ? nlohmann::json(*util) : nullptr},
                        {"cost_cny", row->costCny},
                        {"idle_cost_cny", row->idleCostCny},
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
                          {"cost_cny", lease.costCny}});
    }
    const nlohmann::json doc = {{"from_unix_s", report.fromUnixS},
                                {"to_unix_s", report.toUnixS},
                                {"group_by", reportGroupName(report.group)},
                                {"currency", "CNY"},
                                {"rows", rows},
                                {"cloud_leases", leases},
                                {"cloud_spend_cny", report.cloudSpendCny}};
    return doc.dump(2) + "\n";
}

}  // namespace meridian
