#include "recordeddemand.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include "history/historyschema.h"
#include "sqlite/sqlitefile.h"

namespace meridian {

namespace {

constexpr size_t kMostRecordedMinutes = 400 * 24 * 60;
constexpr int64_t kHoursAWeek = 7 * 24;

// The schema that first keeps demand by the hour, in each kind of file.
constexpr int kHistoryDemandHours = 8;
constexpr int kJournalDemandHours = 4;

Status checkKind(SQLite::Database &db, const std::string &file)
{
    const int appId = db.execAndGet("PRAGMA application_id").getInt();
    const int version = db.execAndGet("PRAGMA user_version").getInt();
    const bool history = appId == kHistoryApplicationId;
    if (!history && appId != kScalingJournalApplicationId)
        return Error{
            fmt::format("{} is neither a Meridian history file nor a controller's "
                        "journal",
                        file)};
    const int latest =
        static_cast<int>((history ? historySchema() : scalingJournalSchema()).migrations.size());
    if (version > latest)
        return Error{
            fmt::format("{} was written by a newer Meridian (schema {} > {}); this "
                        "build plans nothing from it",
                        file, version, latest)};
    if (version < (history ? kHistoryDemandHours : kJournalDemandHours))
        return Error{
            fmt::format("{} keeps no demand by the hour yet (schema {}); the console "
                        "or meridian-scaled upgrades it when next started",
                        file, version)};
    return {};
}

// Hour index → mean rate, and minute index → rate, for the service.
struct Rows {
    std::map<int64_t, double> hours;
    std::map<int64_t, double> minutes;
};

Result<Rows> readRows(SQLite::Database &db, const std::string &file, const std::string &service)
{
    Rows rows;
    SQLite::Statement hours(db,
                            "SELECT hour_index, arrival_rps_mean FROM demand_hour "
                            "WHERE service = ?1 ORDER BY hour_index");
    SQLite::bind(hours, service);
    while (hours.executeStep()) {
        const double rps = hours.getColumn(1).getDouble();
        if (!std::isfinite(rps) || rps < 0)
            return Error{fmt::format("{}: {}'s hour {} holds a rate of {}", file, service,
                                     hours.getColumn(0).getInt64(), rps)};
        rows.hours[hours.getColumn(0).getInt64()] = rps;
    }
    SQLite::Statement minutes(db,
                              "SELECT minute_index, arrival_rps_sum / samples FROM "
                              "demand_minute WHERE service = ?1 ORDER BY minute_index");
    SQLite::bind(minutes, service);
    while (minutes.executeStep()) {
        const double rps = minutes.getColumn(1).getDouble();
        if (std::isfinite(rps) && rps >= 0)
            rows.minutes[minutes.getColumn(0).getInt64()] = rps;
    }
    return rows;
}

// `read` over the file opened for reading, once it is known to be a history file or a
// journal that keeps hours; what SQLite throws is said with the file's name.
template <typename Read>
auto readRecorded(const std::string &file, Read read)
    -> decltype(read(std::declval<SQLite::Database &>()))
{
    if (!std::filesystem::exists(file))
        return Error{fmt::format("{}: no such file", file)};
    try {
        auto db = openSqliteForReading(file);
        if (auto kind = checkKind(*db, file); !kind.ok())
            return kind.error();
        return read(*db);
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", file, e.what())};
    }
}

}  // namespace

Result<RecordedDemand> readPlanDemand(const std::string &demandFile, const std::string &recordedIn,
                                      const std::string &service)
{
    if (!service.empty())
        return readRecordedDemand(recordedIn, service);
    auto series = readDemandSeries(demandFile);
    if (!series)
        return series.error();
    RecordedDemand demand;
    demand.series = std::move(series).value();
    return demand;
}

Result<std::vector<std::string>> recordedServices(const std::string &file)
{
    return readRecorded(file, [](SQLite::Database &db) -> Result<std::vector<std::string>> {
        std::vector<std::string> services;
        SQLite::Statement names(db, "SELECT DISTINCT service FROM demand_hour ORDER BY service");
        while (names.executeStep())
            services.push_back(names.getColumn(0).getString());
        return services;
    });
}

Result<RecordedDemand> readRecordedDemand(const std::string &file, const std::string &service)
{
    return readRecorded(file, [&](SQLite::Database &db) -> Result<RecordedDemand> {
        auto rows = readRows(db, file, service);
        if (!rows)
            return rows.error();
        const std::map<int64_t, double> &hours = rows->hours;
        if (hours.empty())
            return Error{fmt::format("{}: no demand recorded for {}", file, service)};
        RecordedDemand out;
        out.series.name = service;
        const int64_t first = hours.begin()->first, last = hours.rbegin()->first;
        if (static_cast<size_t>(last - first + 1) * 60 > kMostRecordedMinutes)
            return Error{fmt::format("{}: {}'s hours span more than 400 days", file, service)};
        out.firstMinute = first * 60;
        for (int64_t hour = first; hour <= last; ++hour) {
            std::optional<double> mean;
            if (auto it = hours.find(hour); it != hours.end()) {
                mean = it->second;
            } else {
                // A gap: the same hour of other weeks, where there is one.
                double sum = 0;
                int weeks = 0;
                for (int64_t h = first + ((hour - first) % kHoursAWeek); h <= last;
                     h += kHoursAWeek) {
                    if (auto other = hours.find(h); other != hours.end()) {
                        sum += other->second;
                        ++weeks;
                    }
                }
                out.gapMinutes += 60;
                mean = weeks > 0 ? sum / weeks : 0;
            }
            for (int64_t m = hour * 60; m < hour * 60 + 60; ++m) {
                const auto kept = rows->minutes.find(m);
                out.series.rps.push_back(kept != rows->minutes.end() ? kept->second : *mean);
            }
        }
        return out;
    });
}

}  // namespace meridian
