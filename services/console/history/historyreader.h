// Reads the history file for reports: the card catalogue, the services, the kept range
// and the cloud leases once, then any number of periods from the roll-ups. Read-only;
// one reader per thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "core/result.h"
#include "cost/rollupplan.h"
#include "cost/usagereport.h"
#include "cost/usagetally.h"

namespace SQLite {
class Database;
}

namespace meridian {

// Opens the history file, reads the period and prices it. Leases still running are billed
// up to request.nowUnixS (0: the wall clock).
Result<UsageReport> buildUsageReport(const std::string &historyFile, const PriceBook &prices,
                                     const ReportRequest &request);
// The same report for each day (or week, starting Monday 00:00 UTC) of the period.
Result<UsageTrend> buildUsageTrend(const std::string &historyFile, const PriceBook &prices,
                                   const ReportRequest &request, int64_t bucketSeconds);

class HistoryReader {
public:
    static Result<std::unique_ptr<HistoryReader>> open(const std::string &historyFile);
    ~HistoryReader();

    Result<UsageReport> report(const PriceBook &prices, const ReportRequest &request);

private:
    HistoryReader(std::unique_ptr<SQLite::Database> db, std::string path);
    void load();

    std::unique_ptr<SQLite::Database> m_db;
    std::string m_path;
    UsageCatalog m_catalog;
    KeptRange m_kept;
};

}  // namespace meridian
