#include "reportloader.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <algorithm>

#include "core/clock.h"
#include "history/usagerows.h"
#include "usagetally.h"

namespace meridian {

namespace {

constexpr const char *kEmptyPeriod = "the period is empty: --to must be after --from";

// The cards and services from the history, and the cloud leases the cost records hold.
UsageCatalog readCatalog(UsageRows &rows)
{
    UsageCatalog catalog;
    static_cast<CardCatalog &>(catalog) = rows.catalog();
    SQLite::Database &db = rows.database();
    SQLite::Statement leases(db, R"(
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
        catalog.leases.push_back(std::move(lease));
    }
    // Which inference service each lease was rented for, from the scaling journal (files
    // from before the journal have none: their leases are the autoscaler's nobody knows).
    if (db.tableExists("scaling_step")) {
        SQLite::Statement owners(db, R"(
            SELECT lease_id, min(service) FROM scaling_step WHERE lease_id != ''
            GROUP BY lease_id)");
        while (owners.executeStep())
            catalog.leaseService[owners.getColumn(0).getString()] = owners.getColumn(1).getString();
    }
    SQLite::Statement leasedNodes(db, R"(
        SELECT ln.node_id, l.cny_per_card_hour FROM cloud_lease_node ln
        JOIN cloud_lease l ON l.lease_id = ln.lease_id)");
    while (leasedNodes.executeStep())
        catalog.leasePriceByNode[leasedNodes.getColumn(0).getString()] =
            leasedNodes.getColumn(1).getDouble();
    return catalog;
}

// One opening of the file, any number of periods priced from it.
class ReportReader {
public:
    static Result<ReportReader> open(const std::string &historyFile)
    {
        auto rows = UsageRows::open(historyFile);
        if (!rows)
            return rows.error();
        try {
            UsageCatalog catalog = readCatalog(*rows.value());
            return ReportReader(std::move(rows).value(), std::move(catalog));
        } catch (const SQLite::Exception &e) {
            return Error{fmt::format("{}: {}", historyFile, e.what())};
        }
    }

    Result<UsageReport> report(const PriceBook &prices, const ReportRequest &request)
    {
        if (request.toUnixS <= request.fromUnixS)
            return Error{fmt::format("{}: an empty period", m_rows->path())};
        UsageTally tally(m_catalog, prices, request);
        const std::vector<int64_t> edges =
            priceSegments(prices, request.fromUnixS, request.toUnixS);
        for (size_t i = 0; i + 1 < edges.size(); ++i) {
            tally.beginSegment(edges[i]);
            const Status read =
                m_rows->read(edges[i], edges[i + 1], [&](const UsageRow &row) { tally.add(row); });
            if (!read)
                return read.error();
        }
        return std::move(tally).finish();
    }

    // The same report for each day (or week, starting Monday 00:00 UTC) of the period.
    Result<UsageTrend> trend(const PriceBook &prices, const ReportRequest &request,
                             int64_t bucketSeconds)
    {
        UsageTrend trend;
        trend.bucketSeconds = bucketSeconds;
        // 1970-01-05 was a Monday.
        const int64_t anchor = bucketSeconds == 86400 ? 0 : 4 * 86400;
        ReportRequest bucket = request;
        for (int64_t start = request.fromUnixS; start < request.toUnixS;) {
            const int64_t next =
                (start - anchor) / bucketSeconds * bucketSeconds + anchor + bucketSeconds;
            bucket.fromUnixS = start;
            bucket.toUnixS = std::min(next, request.toUnixS);
            auto report = this->report(prices, bucket);
            if (!report)
                return report.error();
            trend.buckets.push_back(std::move(report).value());
            start = bucket.toUnixS;
        }
        return trend;
    }

private:
    ReportReader(std::unique_ptr<UsageRows> rows, UsageCatalog catalog)
        : m_rows(std::move(rows)), m_catalog(std::move(catalog))
    {}

    std::unique_ptr<UsageRows> m_rows;
    UsageCatalog m_catalog;  // the tally keeps a reference: it lives as long as the reader
};

// The request as it will be read (running leases billed up to now when it names no
// moment), or why it cannot be.
Result<ReportRequest> checked(ReportRequest request, int64_t trendBucketSeconds)
{
    if (request.toUnixS <= request.fromUnixS)
        return Error{kEmptyPeriod};
    if (trendBucketSeconds != 0 && trendBucketSeconds != 86400 && trendBucketSeconds != 7 * 86400)
        return Error{"trend buckets are days or weeks"};
    if (request.nowUnixS == 0)
        request.nowUnixS = SystemClock::instance().nowUnixMs() / 1000;
    return request;
}

}  // namespace

LoadedReport loadReport(const std::string &historyFile, const PriceBook &prices,
                        const ReportAsk &ask)
{
    LoadedReport loaded;
    const auto request = checked(ask.request, ask.trendBucketSeconds);
    if (!request) {
        loaded.report = request.error();
        return loaded;
    }
    auto reader = ReportReader::open(historyFile);
    if (!reader) {
        loaded.report = reader.error();
        return loaded;
    }
    loaded.report = reader->report(prices, *request);
    if (!loaded.report)
        return loaded;
    if (ask.trendBucketSeconds != 0)
        loaded.trend = reader->trend(prices, *request, ask.trendBucketSeconds);
    if (ask.previousPeriod) {
        ReportRequest before = *request;
        before.toUnixS = request->fromUnixS;
        before.fromUnixS = request->fromUnixS - (request->toUnixS - request->fromUnixS);
        loaded.previous = reader->report(prices, before);
    }
    return loaded;
}

Result<UsageReport> buildUsageReport(const std::string &historyFile, const PriceBook &prices,
                                     const ReportRequest &request)
{
    return loadReport(historyFile, prices, {request}).report;
}

Result<UsageTrend> buildUsageTrend(const std::string &historyFile, const PriceBook &prices,
                                   const ReportRequest &request, int64_t bucketSeconds)
{
    const auto checkedRequest = checked(request, bucketSeconds == 0 ? -1 : bucketSeconds);
    if (!checkedRequest)
        return checkedRequest.error();
    auto reader = ReportReader::open(historyFile);
    if (!reader)
        return reader.error();
    return reader->trend(prices, *checkedRequest, bucketSeconds);
}

}  // namespace meridian
