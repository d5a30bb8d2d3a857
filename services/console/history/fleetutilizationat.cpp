#include "fleetutilizationat.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "usagerows.h"

namespace meridian {

Result<FleetUtilizationAt> readFleetUtilizationAt(UsageRows &rows, int64_t atUnixS, int64_t grainS)
{
    FleetUtilizationAt out;
    out.grainS = grainS >= 3600 ? 3600 : 60;
    out.fromUnixS = atUnixS / out.grainS * out.grainS;
    const char *const sql =
        out.grainS == 60
            ? R"(SELECT c.uuid, u.mean_utilization_percent FROM usage_minute u
                 JOIN card c ON c.id = u.card
                 WHERE u.minute_start_unix_s = ? AND u.mean_utilization_percent IS NOT NULL)"
            : R"(SELECT c.uuid, sum(u.utilization_percent_seconds) / sum(u.utilization_seconds)
                 FROM usage_hour u JOIN card c ON c.id = u.card
                 WHERE u.hour_start_unix_s = ? GROUP BY u.card
                 HAVING sum(u.utilization_seconds) > 0)";
    try {
        SQLite::Statement query(rows.database(), sql);
        query.bind(1, static_cast<int64_t>(out.fromUnixS));
        while (query.executeStep())
            out.cards.emplace_back(query.getColumn(0).getString(),
                                   static_cast<float>(query.getColumn(1).getDouble()));
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", rows.path(), e.what())};
    }
    return out;
}

}  // namespace meridian
