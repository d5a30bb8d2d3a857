#include "usagereport.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace meridian {

std::optional<ReportGroup> reportGroupFromName(std::string_view name)
{
    if (name == "dc")
        return ReportGroup::DataCenter;
    if (name == "vendor")
        return ReportGroup::Vendor;
    if (name == "model")
        return ReportGroup::Model;
    if (name == "node")
        return ReportGroup::Node;
    return std::nullopt;
}

Result<UsageReport> buildUsageReport(const std::string &historyFile, const PriceBook &prices,
                                     int64_t fromUnixS, int64_t toUnixS, ReportGroup group)
{
    if (toUnixS <= fromUnixS)
        return Error{"the period is empty: --to must be after --from"};
    if (!std::filesystem::exists(historyFile)) {
        return Error{fmt::format("{}: no history yet; run the console or 'meridian sync' first",
                                 historyFile)};
    }
    UsageReport report;
    report.fromUnixS = fromUnixS;
    report.toUnixS = toUnixS;
    report.group = group;
    std::map<std::string, ReportRow> rows;
    std::map<std::string, std::set<std::string>> cards;
    std::set<std::string> allCards;
    try {
        SQLite::Database db(historyFile, SQLite::OPEN_READONLY);
        db.setBusyTimeout(5000);
        SQLite::Statement query(db, R"(
            SELECT u.minute_start_unix_s, u.observed_seconds, u.busy_seconds, u.energy_joules,
                   c.uuid, c.model, c.vendor, n.data_center, n.node_id
            FROM usage_minute u JOIN card c ON c.id = u.card JOIN node n ON n.id = c.node
            WHERE u.minute_start_unix_s >= ?1 AND u.minute_start_unix_s < ?2)");
        query.bind(1, static_cast<int64_t>(fromUnixS));
        query.bind(2, static_cast<int64_t>(toUnixS));
        while (query.executeStep()) {
            const int64_t minute = query.getColumn(0).getInt64();
            const double observed = query.getColumn(1).getDouble();
            const double busy = query.getColumn(2).getDouble();
            const CardPlace place{query.getColumn(5).getString(),
                                  vendorFromName(query.getColumn(6).getString()),
                                  query.getColumn(7).getString(), query.getColumn(8).getString()};
            std::string key;
            switch (group) {
            case ReportGroup::DataCenter: key = place.dataCenter; break;
            case ReportGroup::Vendor: key = std::string(vendorName(place.vendor)); break;
            case ReportGroup::Model: key = place.model; break;
            case ReportGroup::Node: key = place.nodeId; break;
            }
            ReportRow &row = rows[key];
            row.group = key;
            const std::string uuid = query.getColumn(4).getString();
            cards[key].insert(uuid);
            allCards.insert(uuid);
            row.cardHours += observed / 3600.0;
            row.busyCardHours += busy / 3600.0;
            if (!query.getColumn(3).isNull())
                row.energyKwh += query.getColumn(3).getDouble() / 3.6e6;
            // The price valid at this minute: a later change never reaches back.
            if (const auto price = prices.price(place, minute)) {
                row.costCny += *price * observed / 3600.0;
                row.idleCostCny += *price * std::max(0.0, observed - busy) / 3600.0;
            } else {
                ++row.unpricedMinutes;
            }
        }
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", historyFile, e.what())};
    }
    ReportRow &total = report.total;
    total.group = "total";
    for (auto &[key, row] : rows) {
        row.cards = static_cast<int>(cards[key].size());
        total.cardHours += row.cardHours;
        total.busyCardHours += row.busyCardHours;
        total.costCny += row.costCny;
        total.idleCostCny += row.idleCostCny;
        total.energyKwh += row.energyKwh;
        total.unpricedMinutes += row.unpricedMinutes;
        report.rows.push_back(row);
    }
    total.cards = static_cast<int>(allCards.size());
    return report;
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

std::string reportToCsv(const UsageReport &report)
{
    std::string out =
        "group,cards,card_hours,busy_card_hours,busy_percent,idle_card_hours,cost_cny,"
        "idle_cost_cny,energy_kwh,unpriced_card_minutes\n";
    for (const ReportRow *row : withTotal(report)) {
        out += fmt::format("{},{},{:.3f},{:.3f},{:.1f},{:.3f},{:.2f},{:.2f},{:.3f},{}\n",
                           csvField(row->group), row->cards, row->cardHours, row->busyCardHours,
                           row->busyPercent(), row->cardHours - row->busyCardHours, row->costCny,
                           row->idleCostCny, row->energyKwh, row->unpricedMinutes);
    }
    return out;
}

std::string reportToJson(const UsageReport &report)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const ReportRow *row : withTotal(report)) {
        rows.push_back({{"group", row->group},
                        {"cards", row->cards},
                        {"card_hours", row->cardHours},
                        {"busy_card_hours", row->busyCardHours},
                        {"busy_percent", row->busyPercent()},
                        {"idle_card_hours", row->cardHours - row->busyCardHours},
                        {"cost_cny", row->costCny},
                        {"idle_cost_cny", row->idleCostCny},
                        {"energy_kwh", row->energyKwh},
                        {"unpriced_card_minutes", row->unpricedMinutes}});
    }
    const char *groups[] = {"dc", "vendor", "model", "node"};
    const nlohmann::json doc = {{"from_unix_s", report.fromUnixS},
                                {"to_unix_s", report.toUnixS},
                                {"group_by", groups[static_cast<int>(report.group)]},
                                {"currency", "CNY"},
                                {"rows", rows}};
    return doc.dump(2) + "\n";
}

}  // namespace meridian
