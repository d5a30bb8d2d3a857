// Keeps the hourly and daily roll-ups in step with the minutes inside the writer's
// transaction: every minute added, replaced or moved to another service becomes a
// signed change of its hour and its day, summed in memory and applied as one upsert
// per (card, hour or day, service). A back-fill of an hour costs one upsert, not sixty.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

namespace SQLite {
class Database;
}

namespace meridian {

struct MinuteFigures {
    double observedSeconds = 0;
    double busySeconds = 0;
    std::optional<double> meanUtilizationPercent;
    std::optional<double> energyJoules;
};

class RollupDeltas {
public:
    // sign +1: the minute now counts; -1: a previous version of it no longer does.
    void add(int64_t card, int64_t minuteStartUnixS, int64_t service, const MinuteFigures &figures,
             int sign);
    // Applies and clears everything added. Throws SQLite::Exception.
    void apply(SQLite::Database &db);

private:
    struct Delta {
        int64_t minutes = 0;
        double observedSeconds = 0;
        double busySeconds = 0;
        double utilizationSeconds = 0;
        double utilizationPercentSeconds = 0;
        std::optional<double> energyJoules;
    };
    using Key = std::tuple<int64_t, int64_t, int64_t>;  // card, bucket start, service
    static void applyTo(SQLite::Database &db, const char *table, const char *startColumn,
                        const std::map<Key, Delta> &deltas);

    std::map<Key, Delta> m_hours;
    std::map<Key, Delta> m_days;
};

}  // namespace meridian
