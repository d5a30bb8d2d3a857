#include "usagerows.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "core/cardcatalog.h"
#include "core/clock.h"
#include "historyschema.h"
#include "sqlite/sqlitefile.h"

namespace meridian {

namespace {

constexpr int kRollupSchema = 2;  // the first schema with roll-ups

// Every read returns, per row: card, service, observed, busy, energy, seconds with a
// utilisation reading, and utilisation × seconds. No GROUP BY: rows stream in key order
// and are summed by group as they come.
const char *readSql(Grain grain)
{
    switch (grain) {
    case Grain::Day:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         utilization_seconds, utilization_percent_seconds, day_start_unix_s
                  FROM usage_day WHERE day_start_unix_s >= ?1 AND day_start_unix_s < ?2)";
    case Grain::Hour:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         utilization_seconds, utilization_percent_seconds, hour_start_unix_s
                  FROM usage_hour WHERE hour_start_unix_s >= ?1 AND hour_start_unix_s < ?2)";
    case Grain::Minute:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         CASE WHEN mean_utilization_percent IS NULL THEN 0
                              ELSE observed_seconds END,
                         coalesce(mean_utilization_percent * observed_seconds, 0),
                         minute_start_unix_s
                  FROM usage_minute WHERE minute_start_unix_s >= ?1 AND minute_start_unix_s < ?2)";
    }
    return "";
}

const char *grainName(Grain grain)
{
    return grain == Grain::Day ? "day" : grain == Grain::Hour ? "hour" : "minute";
}

// Why a row cannot be a card's usage over its span; empty when it can be. Figures built on
// an impossible row (infinite energy, more busy seconds than the span has, a day in the
// next century) would be wrong with nothing said, so the whole read is refused instead.
std::string impossibility(const UsageRow &r, int64_t startUnixS, Grain grain, int64_t nowUnixS)
{
    const double span = static_cast<double>(grainSeconds(grain)) * 1.01;  // float slack
    for (const double value : {r.observedSeconds, r.busySeconds, r.energyJoules,
                               r.utilizationSeconds, r.utilizationPercentSeconds}) {
        if (!std::isfinite(value))
            return "a value that is not a number";
        if (value < 0)
            return "a negative value";
    }
    if (r.observedSeconds > span || r.busySeconds > r.observedSeconds * 1.01 + 1e-9 ||
        r.utilizationSeconds > r.observedSeconds * 1.01 + 1e-9)
        return fmt::format("{:.0f} s observed, {:.0f} s busy in a {} of {} s", r.observedSeconds,
                           r.busySeconds, grainName(grain), grainSeconds(grain));
    if (r.utilizationPercentSeconds > 100.0 * r.utilizationSeconds * 1.01 + 1e-6)
        return "a utilisation over 100%";
    if (startUnixS > nowUnixS + 86400)
        return "a start in the future";
    return {};
}

}  // namespace

Result<std::unique_ptr<UsageRows>> UsageRows::open(const std::string &historyFile)
{
    if (!std::filesystem::exists(historyFile)) {
        return Error{fmt::format("{}: no history yet; run the console or 'meridian sync' first",
                                 historyFile)};
    }
    try {
        auto db = openSqliteForReading(historyFile);
        const int appId = db->execAndGet("PRAGMA application_id").getInt();
        const int version = db->execAndGet("PRAGMA user_version").getInt();
        if (appId != kHistoryApplicationId)
            return Error{fmt::format("{} is not a Meridian history file", historyFile)};
        // A newer file may keep its rows in ways this build cannot know: figures built
        // from it could be wrong with nothing said.
        if (const int latest = static_cast<int>(historySchema().migrations.size());
            version > latest) {
            return Error{fmt::format(
                "{} was written by a newer Meridian (schema {} > {}); this build reports "
                "nothing from it",
                historyFile, version, latest)};
        }
        if (version < kRollupSchema) {
            return Error{fmt::format(
                "{} has an older schema ({}); run 'meridian sync' or the console once to "
                "upgrade it",
                historyFile, version)};
        }
        std::unique_ptr<UsageRows> reader(new UsageRows(std::move(db), historyFile));
        reader->load();
        return reader;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", historyFile, e.what())};
    }
}

UsageRows::UsageRows(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_db(std::move(db)), m_path(std::move(path))
{}

UsageRows::~UsageRows() = default;

void UsageRows::load()
{
    SQLite::Statement cards(*m_db, R"(
        SELECT c.id, c.model, c.vendor, n.data_center, n.node_id
        FROM card c JOIN node n ON n.id = c.node)");
    while (cards.executeStep()) {
        const int64_t id = cards.getColumn(0).getInt64();
        if (id < 0 || id > 10'000'000)
            continue;  // not a row this program wrote
        if (static_cast<size_t>(id) >= m_catalog.cards.size())
            m_catalog.cards.resize(static_cast<size_t>(id) + 1);
        // In the catalogue's name: a card last written by an agent older than the
        // catalogue says what NVML said ("NVIDIA A100-SXM4-80GB"), and the price book
        // names the catalogue's model.
        m_catalog.cards[static_cast<size_t>(id)] =
            CardPlace{canonicalCardModel(cards.getColumn(1).getString()),
                      vendorFromName(cards.getColumn(2).getString()),
                      cards.getColumn(3).getString(), cards.getColumn(4).getString()};
    }
    SQLite::Statement services(*m_db, "SELECT id, name FROM service");
    while (services.executeStep())
        m_catalog.services[services.getColumn(0).getInt64()] = services.getColumn(1).getString();
    SQLite::Statement kept(*m_db, "SELECT level, from_unix_s FROM kept_range");
    while (kept.executeStep()) {
        const std::string level = kept.getColumn(0).getString();
        if (level == "minute")
            m_kept.minutesFromUnixS = kept.getColumn(1).getInt64();
        else if (level == "hour")
            m_kept.hoursFromUnixS = kept.getColumn(1).getInt64();
    }
}

Status UsageRows::read(int64_t fromUnixS, int64_t toUnixS,
                       const std::function<void(const UsageRow &)> &row)
{
    try {
        for (const RollupRead &part : planRollupReads(fromUnixS, toUnixS, m_kept)) {
            auto &statement = m_statements[part.grain];
            if (!statement)
                statement = std::make_unique<SQLite::Statement>(*m_db, readSql(part.grain));
            statement->reset();
            SQLite::bind(*statement, part.fromUnixS, part.toUnixS);
            const int64_t nowUnixS = SystemClock::instance().nowUnixMs() / 1000;
            while (statement->executeStep()) {
                const UsageRow r{
                    statement->getColumn(0).getInt64(),  statement->getColumn(1).getInt64(),
                    statement->getColumn(2).getDouble(), statement->getColumn(3).getDouble(),
                    statement->getColumn(4).getDouble(), statement->getColumn(5).getDouble(),
                    statement->getColumn(6).getDouble()};
                const int64_t start = statement->getColumn(7).getInt64();
                if (const std::string why = impossibility(r, start, part.grain, nowUnixS);
                    !why.empty())
                    return Error{fmt::format(
                        "{}: the {} row of card {} starting at unix second {} is impossible "
                        "({}); nothing is reported from this file until it is mended",
                        m_path, grainName(part.grain), r.card, start, why)};
                row(r);
            }
        }
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", m_path, e.what())};
    }
}

}  // namespace meridian
