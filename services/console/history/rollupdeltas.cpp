#include "rollupdeltas.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include "sqlite/sqlitebind.h"

namespace meridian {

void RollupDeltas::add(int64_t card, int64_t minuteStartUnixS, int64_t service,
                       const MinuteFigures &figures, int sign)
{
    const auto addTo = [&](Delta &d) {
        d.minutes += sign;
        d.observedSeconds += sign * figures.observedSeconds;
        d.busySeconds += sign * figures.busySeconds;
        if (figures.meanUtilizationPercent) {
            d.utilizationSeconds += sign * figures.observedSeconds;
            d.utilizationPercentSeconds +=
                sign * *figures.meanUtilizationPercent * figures.observedSeconds;
        }
        if (figures.energyJoules)
            d.energyJoules = d.energyJoules.value_or(0) + sign * *figures.energyJoules;
    };
    addTo(m_hours[{card, minuteStartUnixS / 3600 * 3600, service}]);
    addTo(m_days[{card, minuteStartUnixS / 86400 * 86400, service}]);
}

void RollupDeltas::apply(SQLite::Database &db)
{
    applyTo(db, "usage_hour", "hour_start_unix_s", m_hours);
    applyTo(db, "usage_day", "day_start_unix_s", m_days);
    m_hours.clear();
    m_days.clear();
}

void RollupDeltas::applyTo(SQLite::Database &db, const char *table, const char *startColumn,
                           const std::map<Key, Delta> &deltas)
{
    SQLite::Statement upsert(db, fmt::format(R"(
        INSERT INTO {0} (card, {1}, service, minutes, observed_seconds, busy_seconds,
            utilization_seconds, utilization_percent_seconds, energy_joules)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        ON CONFLICT ({1}, card, service) DO UPDATE SET
            minutes = minutes + excluded.minutes,
            observed_seconds = observed_seconds + excluded.observed_seconds,
            busy_seconds = busy_seconds + excluded.busy_seconds,
            utilization_seconds = utilization_seconds + excluded.utilization_seconds,
            utilization_percent_seconds =
                utilization_percent_seconds + excluded.utilization_percent_seconds,
            energy_joules = CASE WHEN excluded.energy_joules IS NULL THEN energy_joules
                ELSE coalesce(energy_joules, 0) + excluded.energy_joules END)",
                                             table, startColumn));
    // A bucket whose last minute moved to another service is gone, not a row of zeros.
    SQLite::Statement dropEmpty(
        db, fmt::format("DELETE FROM {} WHERE card = ?1 AND {} = ?2 AND service = ?3 AND "
                        "minutes <= 0",
                        table, startColumn));
    for (const auto &[key, d] : deltas) {
        const auto &[card, start, service] = key;
        SQLite::bind(upsert, card, start, service, d.minutes, d.observedSeconds, d.busySeconds,
                     d.utilizationSeconds, d.utilizationPercentSeconds);
        bindOptional(upsert, 9, d.energyJoules);
        upsert.exec();
        upsert.reset();
        if (d.minutes < 0) {
            SQLite::bind(dropEmpty, card, start, service);
            dropEmpty.exec();
            dropEmpty.reset();
        }
    }
}

}  // namespace meridian
