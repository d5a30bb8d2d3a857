#include "fleetusageseries.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "usagerows.h"

namespace meridian {

namespace {

// Keyed by time first, then card: one range scan, a card's services next to each other.
const char *const kFleetHours = R"(
    SELECT hour_start_unix_s, card, observed_seconds, busy_seconds, utilization_seconds,
           utilization_percent_seconds
    FROM usage_hour WHERE hour_start_unix_s >= ? AND hour_start_unix_s < ?
    ORDER BY hour_start_unix_s, card)";

void add(std::vector<FleetUsagePoint> &hours, int64_t hour, bool newCard, double observed,
         double busy, double utilizationSeconds, double utilizationPercentSeconds)
{
    if (hours.empty() || hours.back().hourUnixS != hour)
        hours.push_back({hour});
    FleetUsagePoint &p = hours.back();
    p.cards += newCard;
    p.cardHours += observed / 3600;
    p.busyCardHours += busy / 3600;
    p.utilizationSeconds += utilizationSeconds;
    p.utilizationPercentSeconds += utilizationPercentSeconds;
}

}  // namespace

std::optional<double> FleetUsagePoint::meanUtilizationPercent() const
{
    if (utilizationSeconds <= 0)
        return std::nullopt;
    return utilizationPercentSeconds / utilizationSeconds;
}

FleetUsagePoint FleetUsageSeries::total(const std::vector<FleetUsagePoint> &hours)
{
    FleetUsagePoint sum;
    for (const FleetUsagePoint &p : hours) {
        sum.cards = std::max(sum.cards, p.cards);
        sum.cardHours += p.cardHours;
        sum.busyCardHours += p.busyCardHours;
        sum.utilizationSeconds += p.utilizationSeconds;
        sum.utilizationPercentSeconds += p.utilizationPercentSeconds;
    }
    return sum;
}

Result<FleetUsageSeries> readFleetUsageByHour(const std::string &historyFile, int64_t fromUnixS,
                                              int64_t toUnixS)
{
    auto rows = UsageRows::open(historyFile);
    if (!rows)
        return rows.error();
    FleetUsageSeries series;
    series.fromUnixS = fromUnixS / 3600 * 3600;
    series.toUnixS = toUnixS;
    const CardCatalog &catalog = rows.value()->catalog();
    try {
        SQLite::Statement query(rows.value()->database(), kFleetHours);
        query.bind(1, static_cast<int64_t>(series.fromUnixS));
        query.bind(2, static_cast<int64_t>(toUnixS));
        int64_t lastHour = -1;
        int64_t lastCard = -1;
        while (query.executeStep()) {
            const int64_t hour = query.getColumn(0).getInt64();
            const int64_t card = query.getColumn(1).getInt64();
            const bool newCard = hour != lastHour || card != lastCard;
            lastHour = hour;
            lastCard = card;
            const double values[] = {query.getColumn(2).getDouble(), query.getColumn(3).getDouble(),
                                     query.getColumn(4).getDouble(),
                                     query.getColumn(5).getDouble()};
            add(series.fleet, hour, newCard, values[0], values[1], values[2], values[3]);
            const size_t id = static_cast<size_t>(card);
            if (id < catalog.cards.size() && catalog.cards[id])
                add(series.dataCenters[catalog.cards[id]->dataCenter], hour, newCard, values[0],
                    values[1], values[2], values[3]);
        }
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", historyFile, e.what())};
    }
    return series;
}

}  // namespace meridian
