#include "responseclock.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "core/csvfield.h"

namespace meridian {

namespace {

constexpr const char *kNobody = "(not acknowledged)";

std::optional<int64_t> percentile(std::vector<int64_t> values, double p)
{
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    // Nearest rank: the smallest value at or above p of them.
    const auto rank = static_cast<size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

std::string groupOf(const AlertIncident &i, ResponseGrouping grouping)
{
    switch (grouping) {
    case ResponseGrouping::Week: return isoWeek(i.sentMs);
    case ResponseGrouping::DataCenter: return i.dataCenter.empty() ? "(none)" : i.dataCenter;
    case ResponseGrouping::Kind: return i.kind;
    case ResponseGrouping::Person: return i.acknowledgedBy.empty() ? kNobody : i.acknowledgedBy;
    }
    return {};
}

ResponseRow tally(std::string group, const std::vector<const AlertIncident *> &incidents,
                  const ResponseTargets &targets)
{
    ResponseRow row;
    row.group = std::move(group);
    std::vector<int64_t> toAcknowledge;
    std::vector<int64_t> toResolve;
    for (const AlertIncident *i : incidents) {
        ++row.incidents;
        if (i->acknowledgedMs) {
            const int64_t took = std::max<int64_t>(*i->acknowledgedMs - i->sentMs, 0);
            ++row.acknowledged;
            row.acknowledgedInTime += took <= targets.acknowledgeWithinMs;
            toAcknowledge.push_back(took);
        }
        if (i->resolvedMs) {
            const int64_t took = std::max<int64_t>(*i->resolvedMs - i->sentMs, 0);
            ++row.resolved;
            row.resolvedInTime += took <= targets.resolveWithinMs;
            toResolve.push_back(took);
        } else {
            ++row.open;
        }
    }
    row.medianAcknowledgeMs = percentile(toAcknowledge, 0.5);
    row.p90AcknowledgeMs = percentile(toAcknowledge, 0.9);
    row.medianResolveMs = percentile(toResolve, 0.5);
    row.p90ResolveMs = percentile(toResolve, 0.9);
    return row;
}

std::string minutes(const std::optional<int64_t> &ms)
{
    return ms ? fmt::format("{:.1f}", static_cast<double>(*ms) / 60'000.0) : std::string();
}

}  // namespace

double ResponseRow::shareAcknowledgedInTime() const
{
    return incidents == 0 ? 0.0 : static_cast<double>(acknowledgedInTime) / incidents;
}

double ResponseRow::shareResolvedInTime() const
{
    return incidents == 0 ? 0.0 : static_cast<double>(resolvedInTime) / incidents;
}

std::optional<ResponseGrouping> responseGroupingFromName(std::string_view name)
{
    for (const ResponseGrouping g : {ResponseGrouping::Week, ResponseGrouping::DataCenter,
                                     ResponseGrouping::Kind, ResponseGrouping::Person}) {
        if (name == responseGroupingName(g))
            return g;
    }
    return std::nullopt;
}

const char *responseGroupingName(ResponseGrouping grouping)
{
    switch (grouping) {
    case ResponseGrouping::Week: return "week";
    case ResponseGrouping::DataCenter: return "dc";
    case ResponseGrouping::Kind: return "kind";
    case ResponseGrouping::Person: return "person";
    }
    return "week";
}

std::string isoWeek(int64_t unixMs)
{
    using namespace std::chrono;
    const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(unixMs)));
    const auto isoDay = static_cast<int>(weekday(day).iso_encoding());  // Monday 1 … Sunday 7
    // A week belongs to the year of its Thursday.
    const sys_days thursday = day + days(4 - isoDay);
    const year_month_day date(thursday);
    const sys_days newYear(date.year() / January / 1);
    const auto week = (thursday - newYear).count() / 7 + 1;
    return fmt::format("{}-W{:02}", static_cast<int>(date.year()), week);
}

std::vector<ResponseRow> tallyResponse(const std::vector<AlertIncident> &incidents,
                                       ResponseGrouping grouping, const ResponseTargets &targets)
{
    std::map<std::string, std::vector<const AlertIncident *>> groups;
    std::vector<const AlertIncident *> all;
    for (const AlertIncident &i : incidents) {
        groups[groupOf(i, grouping)].push_back(&i);
        all.push_back(&i);
    }
    std::vector<ResponseRow> rows;
    for (const auto &[name, members] : groups)
        rows.push_back(tally(name, members, targets));
    rows.push_back(tally("total", all, targets));
    return rows;
}

std::string responseToCsv(const std::vector<ResponseRow> &rows, ResponseGrouping grouping)
{
    std::string out = fmt::format(
        "{},incidents,acknowledged,acknowledged_in_time,share_acknowledged_in_time,"
        "median_minutes_to_acknowledge,p90_minutes_to_acknowledge,resolved,resolved_in_time,"
        "share_resolved_in_time,median_minutes_to_resolve,p90_minutes_to_resolve,open\n",
        responseGroupingName(grouping));
    for (const ResponseRow &r : rows) {
        out += fmt::format("{},{},{},{},{:.3f},{},{},{},{},{:.3f},{},{},{}\n", csvField(r.group),
                           r.incidents, r.acknowledged, r.acknowledgedInTime,
                           r.shareAcknowledgedInTime(), minutes(r.medianAcknowledgeMs),
                           minutes(r.p90AcknowledgeMs), r.resolved, r.resolvedInTime,
                           r.shareResolvedInTime(), minutes(r.medianResolveMs),
                           minutes(r.p90ResolveMs), r.open);
    }
    return out;
}

std::string responseToJson(const std::vector<ResponseRow> &rows, ResponseGrouping grouping,
                           const ResponseTargets &targets, int64_t fromMs, int64_t toMs)
{
    using nlohmann::json;
    const auto ms = [](const std::optional<int64_t> &v) { return v ? json(*v) : json(nullptr); };
    json groups = json::array();
    for (const ResponseRow &r : rows) {
        groups.push_back({{"group", r.group},
                          {"incidents", r.incidents},
                          {"acknowledged", r.acknowledged},
                          {"acknowledged_in_time", r.acknowledgedInTime},
                          {"share_acknowledged_in_time", r.shareAcknowledgedInTime()},
                          {"median_ms_to_acknowledge", ms(r.medianAcknowledgeMs)},
                          {"p90_ms_to_acknowledge", ms(r.p90AcknowledgeMs)},
                          {"resolved", r.resolved},
                          {"resolved_in_time", r.resolvedInTime},
                          {"share_resolved_in_time", r.shareResolvedInTime()},
                          {"median_ms_to_resolve", ms(r.medianResolveMs)},
                          {"p90_ms_to_resolve", ms(r.p90ResolveMs)},
                          {"open", r.open}});
    }
    const json report = {{"from_ms", fromMs},
                         {"to_ms", toMs},
                         {"group_by", responseGroupingName(grouping)},
                         {"acknowledge_within_ms", targets.acknowledgeWithinMs},
                         {"resolve_within_ms", targets.resolveWithinMs},
                         {"groups", groups}};
    return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace meridian
