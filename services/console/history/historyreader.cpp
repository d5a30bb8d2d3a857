#include "historyreader.h"

#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>

#include "core/clock.h"
#include "cost/usagetally.h"

namespace meridian {

namespace {

constexpr int kHistoryApplicationId = 1296388424;  // the console's history file
constexpr int kRollupSchema = 2;                   // the first schema with roll-ups

// Every read returns, per row: card, service, observed, busy, energy, seconds with a
// utilisation reading, and utilisation × seconds. No GROUP BY: rows stream in key order
// and are summed by group as they come.
const char *readSql(Grain grain)
{
    switch (grain) {
    case Grain::Day:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         utilization_seconds, utilization_percent_seconds
                  FROM usage_day WHERE day_start_unix_s >= ?1 AND day_start_unix_s < ?2)";
    case Grain::Hour:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         utilization_seconds, utilization_percent_seconds
                  FROM usage_hour WHERE hour_start_unix_s >= ?1 AND hour_start_unix_s < ?2)";
    case Grain::Minute:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         CASE WHEN mean_utilization_percent IS NULL THEN 0
                              ELSE observed_seconds END,
                         coalesce(mean_utilization_percent * observed_seconds, 0)
                  FROM usage_minute WHERE minute_start_unix_s >= ?1 AND minute_start_unix_s < ?2)";
    }
    return "";
}

// "file:" URI for SQLite: the characters a URI gives meaning to are escaped.
std::string sqliteUri(const std::string &path, std::string_view query)
{
    std::string uri = "file:";
    for (const char c : std::filesystem::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#')
            uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            uri += c;
    }
    return uri + "?" + std::string(query);
}

// A WAL-mode file is read through a -shm file beside it, which SQLite must be able to
// create. On a read-only mount (a backup, a copy handed to a manager) it cannot, so the
// file is opened immutable there: read as it stands, which is right, for nothing can be
// writing it.
std::unique_ptr<SQLite::Database> openForReading(const std::string &path)
{
    try {
        auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READONLY);
        db->setBusyTimeout(5000);
        db->execAndGet("PRAGMA user_version");
        return db;
    } catch (const SQLite::Exception &e) {
        const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
        // SQLITE_READONLY(_CANTINIT) or SQLITE_CANTOPEN, depending on what is missing.
        const bool noSharedMemory =
            e.getErrorCode() == SQLITE_READONLY || e.getErrorCode() == SQLITE_CANTOPEN;
        if (!noSharedMemory || access(folder.c_str(), W_OK) == 0)
            throw;
    }
    return std::make_unique<SQLite::Database>(sqliteUri(path, "immutable=1"),
                                              SQLite::OPEN_READONLY | SQLite::OPEN_URI);
}

constexpr const char *kEmptyPeriod = "the period is empty: --to must be after --from";

// Leases still running are billed up to now when the request names no moment.
int64_t wallClockUnixS()
{
    return SystemClock::instance().nowUnixMs() / 1000;
}

}  // namespace

Result<std::unique_ptr<HistoryReader>> HistoryReader::open(const std::string &historyFile)
{
    if (!std::filesystem::exists(historyFile)) {
        return Error{fmt::format("{}: no history yet; run the console or 'meridian sync' first",
                                 historyFile)};
    }
    try {
        auto db = openForReading(historyFile);
        const int appId = db->execAndGet("PRAGMA application_id").getInt();
        const int version = db->execAndGet("PRAGMA user_version").getInt();
        if (appId != kHistoryApplicationId)
            return Error{fmt::format("{} is not a Meridian history file", historyFile)};
        if (version < kRollupSchema) {
            return Error{fmt::format(
                "{} has an older schema ({}); run 'meridian sync' or the console once to "
                "upgrade it",
                historyFile, version)};
        }
        std::unique_ptr<HistoryReader> reader(new HistoryReader(std::move(db), historyFile));
        reader->load();
        return reader;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", historyFile, e.what())};
    }
}

HistoryReader::HistoryReader(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_db(std::move(db)), m_path(std::move(path))
{}

HistoryReader::~HistoryReader() = default;

void HistoryReader::load()
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
        m_catalog.cards[static_cast<size_t>(id)] = CardPlace{
            cards.getColumn(1).getString(), vendorFromName(cards.getColumn(2).getString()),
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
    SQLite::Statement leases(*m_db, R"(
        SELECT lease_id, region, card_model, requested_by, nodes, cards_per_node,
               cny_per_card_hour, billing_increment_seconds, created_unix_s, released_unix_s
        FROM cloud_lease ORDER BY created_unix_s, lease_id)");
    while (leases.executeStep()) {
        CloudLease lease;
        lease.leaseId = leases.getColumn(0).getString();
        lease.region = leases.getColumn(1).getString();
        lease.cardModel = leases.getColumn(2).getString();
        lease.requestedBy = leases.getColumn(3).getString();
        lease.nodes = static_cast<uint32_t>(leases.getColumn(4).getInt64());
        lease.cardsPerNode = static_cast<uint32_t>(leases.getColumn(5).getInt64());
        lease.cnyPerCardHour = leases.getColumn(6).getDouble();
        lease.billingIncrementSeconds = leases.getColumn(7).getInt64();
        lease.createdUnixS = leases.getColumn(8).getInt64();
        if (!leases.getColumn(9).isNull())
            lease.releasedUnixS = leases.getColumn(9).getInt64();
        m_catalog.leases.push_back(std::move(lease));
    }
    // Which inference service each lease was rented for, from the scaling journal (files
    // from before the journal have none: their leases are the autoscaler's nobody knows).
    if (m_db->tableExists("scaling_step")) {
        SQLite::Statement owners(*m_db, R"(
            SELECT lease_id, min(service) FROM scaling_step WHERE lease_id != ''
            GROUP BY lease_id)");
        while (owners.executeStep())
            m_catalog.leaseService[owners.getColumn(0).getString()] =
                owners.getColumn(1).getString();
    }
    SQLite::Statement leasedNodes(*m_db, R"(
        SELECT ln.node_id, l.cny_per_card_hour FROM cloud_lease_node ln
        JOIN cloud_lease l ON l.lease_id = ln.lease_id)");
    while (leasedNodes.executeStep())
        m_catalog.leasePriceByNode[leasedNodes.getColumn(0).getString()] =
            leasedNodes.getColumn(1).getDouble();
}

Result<UsageReport> HistoryReader::report(const PriceBook &prices, const ReportRequest &request)
{
    if (request.toUnixS <= request.fromUnixS)
        return Error{fmt::format("{}: an empty period", m_path)};
    UsageTally tally(m_catalog, prices, request);
    try {
        std::map<Grain, std::unique_ptr<SQLite::Statement>> statements;
        const std::vector<int64_t> edges =
            priceSegments(prices, request.fromUnixS, request.toUnixS);
        for (size_t i = 0; i + 1 < edges.size(); ++i) {
            tally.beginSegment(edges[i]);
            for (const RollupRead &read : planRollupReads(edges[i], edges[i + 1], m_kept)) {
                auto &statement = statements[read.grain];
                if (!statement)
                    statement = std::make_unique<SQLite::Statement>(*m_db, readSql(read.grain));
                statement->reset();
                SQLite::bind(*statement, read.fromUnixS, read.toUnixS);
                while (statement->executeStep()) {
                    tally.add(
                        {statement->getColumn(0).getInt64(), statement->getColumn(1).getInt64(),
                         statement->getColumn(2).getDouble(), statement->getColumn(3).getDouble(),
                         statement->getColumn(4).getDouble(), statement->getColumn(5).getDouble(),
                         statement->getColumn(6).getDouble()});
                }
            }
        }
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", m_path, e.what())};
    }
    return std::move(tally).finish();
}

Result<UsageReport> buildUsageReport(const std::string &historyFile, const PriceBook &prices,
                                     const ReportRequest &request)
{
    if (request.toUnixS <= request.fromUnixS)
        return Error{kEmptyPeriod};
    auto reader = HistoryReader::open(historyFile);
    if (!reader)
        return reader.error();
    ReportRequest effective = request;
    if (effective.nowUnixS == 0)
        effective.nowUnixS = wallClockUnixS();
    return reader.value()->report(prices, effective);
}

Result<UsageTrend> buildUsageTrend(const std::string &historyFile, const PriceBook &prices,
                                   const ReportRequest &request, int64_t bucketSeconds)
{
    if (request.toUnixS <= request.fromUnixS)
        return Error{kEmptyPeriod};
    if (bucketSeconds != 86400 && bucketSeconds != 7 * 86400)
        return Error{"trend buckets are days or weeks"};
    auto reader = HistoryReader::open(historyFile);
    if (!reader)
        return reader.error();
    UsageTrend trend;
    trend.bucketSeconds = bucketSeconds;
    // Weeks start on Monday 00:00 UTC; 1970-01-05 was a Monday.
    const int64_t anchor = bucketSeconds == 86400 ? 0 : 4 * 86400;
    ReportRequest bucket = request;
    if (bucket.nowUnixS == 0)
        bucket.nowUnixS = wallClockUnixS();
    for (int64_t start = request.fromUnixS; start < request.toUnixS;) {
        const int64_t next =
            (start - anchor) / bucketSeconds * bucketSeconds + anchor + bucketSeconds;
        bucket.fromUnixS = start;
        bucket.toUnixS = std::min(next, request.toUnixS);
        auto report = reader.value()->report(prices, bucket);
        if (!report)
            return report.error();
        trend.buckets.push_back(std::move(report).value());
        start = bucket.toUnixS;
    }
    return trend;
}

}  // namespace meridian
