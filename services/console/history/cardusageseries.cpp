#include "cardusageseries.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "usagerows.h"

namespace meridian {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kMinutesUpToS = 26 * 3600;  // a day (and a little) is read minute by minute

// The grain's rows of one card, looked up key by key (the tables are keyed by time
// first, so a range scan would walk every card's rows): time, observed seconds, seconds
// with a utilisation reading, their utilisation × seconds, energy.
const char *const kMinutes = R"(
    WITH RECURSIVE t(at) AS (SELECT ?1 UNION ALL SELECT at + 60 FROM t WHERE at + 60 < ?2)
    SELECT t.at, u.observed_seconds,
           CASE WHEN u.mean_utilization_percent IS NULL THEN 0 ELSE u.observed_seconds END,
           coalesce(u.mean_utilization_percent * u.observed_seconds, 0), u.energy_joules
    FROM t JOIN usage_minute u ON u.minute_start_unix_s = t.at AND u.card = ?3)";
const char *const kHours = R"(
    WITH RECURSIVE t(at) AS (SELECT ?1 UNION ALL SELECT at + 3600 FROM t WHERE at + 3600 < ?2)
    SELECT t.at, sum(u.observed_seconds), sum(u.utilization_seconds),
           sum(u.utilization_percent_seconds), sum(u.energy_joules)
    FROM t JOIN usage_hour u ON u.hour_start_unix_s = t.at AND u.card = ?3 GROUP BY t.at)";

struct Step {
    double observed = 0;
    double utilizationSeconds = 0;
    double utilizationPercentSeconds = 0;
    double energy = 0;
    double energySeconds = 0;  // observed seconds that carried an energy reading
};

}  // namespace

Result<std::vector<UsageSeriesPoint>> readCardUsageSeries(const std::string &historyFile,
                                                          const std::string &cardUuid,
                                                          int64_t fromUnixS, int64_t toUnixS,
                                                          int64_t stepS)
{
    if (toUnixS <= fromUnixS || stepS <= 0)
        return std::vector<UsageSeriesPoint>{};
    auto rows = UsageRows::open(historyFile);
    if (!rows)
        return rows.error();
    const bool byMinute = toUnixS - fromUnixS <= kMinutesUpToS;
    const int64_t grain = byMinute ? 60 : 3600;
    const int64_t first = fromUnixS / grain * grain;
    std::vector<Step> steps(static_cast<size_t>((toUnixS - first + stepS - 1) / stepS));
    try {
        SQLite::Database &db = rows.value()->database();
        SQLite::Statement card(db, "SELECT id FROM card WHERE uuid = ?");
        card.bind(1, cardUuid);
        SQLite::Statement query(db, byMinute ? kMinutes : kHours);
        query.bind(1, static_cast<int64_t>(first));
        query.bind(2, static_cast<int64_t>(toUnixS));
        // A card not in the file yet matches no row: every step a gap.
        query.bind(3, card.executeStep() ? card.getColumn(0).getInt64() : int64_t{-1});
        while (query.executeStep()) {
            const int64_t at = query.getColumn(0).getInt64();
            Step &step =
                steps[std::min(steps.size() - 1, static_cast<size_t>((at - first) / stepS))];
            const double observed = query.getColumn(1).getDouble();
            step.observed += observed;
            step.utilizationSeconds += query.getColumn(2).getDouble();
            step.utilizationPercentSeconds += query.getColumn(3).getDouble();
            if (!query.getColumn(4).isNull()) {
                step.energy += query.getColumn(4).getDouble();
                step.energySeconds += observed;
            }
        }
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", historyFile, e.what())};
    }
    std::vector<UsageSeriesPoint> out;
    out.reserve(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step &s = steps[i];
        out.push_back(
            {first + static_cast<int64_t>(i) * stepS,
             s.utilizationSeconds > 0 ? s.utilizationPercentSeconds / s.utilizationSeconds : kNaN,
             s.energySeconds > 0 ? s.energy / s.energySeconds : kNaN});
    }
    return out;
}

Result<std::optional<int64_t>> readHistoryBeginsUnixS(const std::string &historyFile)
{
    auto rows = UsageRows::open(historyFile);
    if (!rows)
        return rows.error();
    return readHistoryBeginsUnixS(*rows.value());
}

Result<std::optional<int64_t>> readHistoryBeginsUnixS(UsageRows &rows)
{
    try {
        SQLite::Statement oldest(rows.database(), R"(
            SELECT (SELECT min(minute_start_unix_s) FROM usage_minute),
                   (SELECT min(hour_start_unix_s) FROM usage_hour),
                   (SELECT min(day_start_unix_s) FROM usage_day))");
        oldest.executeStep();
        // The finest grain that reaches back: a day row rolled up from today's minutes
        // starts at midnight, but the history does not.
        std::optional<int64_t> begins;
        for (const auto &[column, grain] : {std::pair{0, 60}, {1, 3600}, {2, 86400}}) {
            if (oldest.getColumn(column).isNull())
                continue;
            const int64_t at = oldest.getColumn(column).getInt64();
            if (!begins || at < *begins / grain * grain)
                begins = at;
        }
        return begins;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", rows.path(), e.what())};
    }
}

}  // namespace meridian
