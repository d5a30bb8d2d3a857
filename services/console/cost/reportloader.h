// A report as a person asks for it, read from the history file in one opening: the period
// grouped and priced, its trend per day or week, and the period of the same length just
// before it (for "than the previous period"). The one way reports are made: the Reports
// window runs it off the UI thread, `meridian report` from cron.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "pricebook.h"
#include "usagereport.h"

namespace meridian {

struct ReportAsk {
    ReportRequest request;
    int64_t trendBucketSeconds = 0;  // 86400 (days) or 604800 (weeks from Monday); 0: none
    bool previousPeriod = false;
};

struct LoadedReport {
    Result<UsageReport> report = Error{"not built"};
    Result<UsageTrend> trend = Error{"not asked for"};
    Result<UsageReport> previous = Error{"not asked for"};
};

// Leases still running are billed up to request.nowUnixS (0: the wall clock).
LoadedReport loadReport(const std::string &historyFile, const PriceBook &prices,
                        const ReportAsk &ask);

// The report alone, and the trend alone.
Result<UsageReport> buildUsageReport(const std::string &historyFile, const PriceBook &prices,
                                     const ReportRequest &request);
Result<UsageTrend> buildUsageTrend(const std::string &historyFile, const PriceBook &prices,
                                   const ReportRequest &request, int64_t bucketSeconds);

}  // namespace meridian
