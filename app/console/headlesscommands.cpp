#include "headlesscommands.h"

#include <QApplication>
#include <cstdio>

#include <filesystem>

#include "alerts/alerttriagelog.h"
#include "alerts/responseclock.h"
#include "configlocations.h"
#include "core/textutil.h"
#include "cost/costrecords.h"
#include "cost/reportloader.h"
#include "cost/usagereport.h"
#include "fleetlink/usagesync.h"
#include "history/historystore.h"
#include "textoutput.h"
#include "userlanguage.h"
#include "widgets/cost/reportpdf.h"

namespace meridian {

namespace {

std::string historyPath(const std::string &dbFile)
{
    return dbFile.empty() ? HistoryStore::defaultPath() : dbFile;
}

}  // namespace

int runSync(const std::string &inventoryFile, const std::string &dbFile,
            const std::string &pricesFile)
{
    auto inventory = loadInventory(inventoryFile);
    if (!inventory) {
        std::fprintf(stderr, "meridian sync: %s\n", inventory.error().message.c_str());
        return 2;
    }
    auto store = HistoryStore::open(historyPath(dbFile));
    if (!store) {
        std::fprintf(stderr, "meridian sync: %s\n", store.error().message.c_str());
        return 2;
    }
    // The analysts' cost views price with the book in force.
    // A price problem does not hold back the usage (it is synced all the same) but fails
    // the run, so cron and CI see it.
    bool pricesRecorded = false;
    const std::string book = priceBookInForce(pricesFile);
    if (auto prices = PriceBook::load(book); !prices) {
        std::fprintf(stderr, "meridian sync: %s (cost views keep the previous prices)\n",
                     prices.error().message.c_str());
    } else if (Status recorded = recordPrices(*store.value(), prices.value()); !recorded) {
        std::fprintf(stderr, "meridian sync: %s\n", recorded.message().c_str());
    } else {
        pricesRecorded = true;
    }
    const SyncReport report = syncUsage(inventory.value(), *store.value());
    std::printf("meridian sync: %d of %d agents, %lld minutes, %d cloud leases into %s\n",
                report.synced, report.agents, static_cast<long long>(report.minutes), report.leases,
                store.value()->path().c_str());
    for (const std::string &failure : report.failures)
        std::fprintf(stderr, "meridian sync: %s\n", failure.c_str());
    return report.failures.empty() && pricesRecorded ? 0 : 1;
}

namespace {

// `meridian report --response`: the fault-response clock for the period.
int runResponseReport(const ReportOptions &options, int64_t fromS, int64_t toS)
{
    const auto grouping = responseGroupingFromName(options.groupBy);
    if (!grouping || (options.format != "csv" && options.format != "json") ||
        options.acknowledgeWithinMinutes <= 0) {
        std::fprintf(stderr,
                     "meridian report --response: --group-by week|dc|kind|person, --format "
                     "csv|json, --ack-within MINUTES (more than 0)\n");
        return 2;
    }
    const std::string path = historyPath(options.dbFile);
    if (!std::filesystem::exists(path)) {
        std::fprintf(stderr,
                     "meridian report: %s: no history yet (a console or meridian-watch "
                     "keeps it)\n",
                     path.c_str());
        return 1;
    }
    auto log = AlertTriageLog::open(path);
    if (!log) {
        std::fprintf(stderr, "meridian report: %s\n", log.error().message.c_str());
        return 1;
    }
    auto incidents = log.value()->incidents(fromS * 1000, toS * 1000);
    if (!incidents) {
        std::fprintf(stderr, "meridian report: %s\n", incidents.error().message.c_str());
        return 1;
    }
    ResponseTargets targets;
    targets.acknowledgeWithinMs = static_cast<int64_t>(options.acknowledgeWithinMinutes * 60'000);
    const auto rows = tallyResponse(incidents.value(), *grouping, targets);
    const std::string text = options.format == "json" ? responseToJson(rows, *grouping, targets,
                                                                       fromS * 1000, toS * 1000)
                                                      : responseToCsv(rows, *grouping);
    if (!writeTextTo(text, options.output)) {
        std::fprintf(stderr, "meridian report: %s: cannot write\n", options.output.c_str());
        return 1;
    }
    if (incidents->empty())
        std::fprintf(stderr, "meridian report: no alert was sent in the period\n");
    return 0;
}

// What `report` exits with when the period holds no data.
constexpr int kNoDataExit = 3;

// A report of a period the history holds nothing of is written all the same (coverage
// 0%), but a script must not take it for a quiet period: said, and exit 3.
int saidIfEmpty(const UsageReport &report)
{
    if (report.total.cards > 0 || !report.cloud.empty())
        return 0;
    const ReportPeriod period = reportPeriod(report);
    std::fprintf(stderr,
                 "meridian report: the history holds no usage from %s to %s (coverage 0%%)\n",
                 period.from.c_str(), period.to.c_str());
    return kNoDataExit;
}

// The report as a PDF with its charts: Qt offscreen, so cron with no display prints it.
Status writePdf(const ReportOptions &options, const LoadedReport &loaded, int argc, char **argv)
{
    if (!loaded.trend)
        return loaded.trend.error();
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const UserLanguage language;
    return writeReportPdf(QString::fromStdString(options.output), loaded.report.value(),
                          loaded.trend.value(),
                          loaded.previous ? &loaded.previous.value() : nullptr);
}

}  // namespace

int runReport(const ReportOptions &options, int argc, char **argv)
{
    const auto fromS = parseUtcTime(options.from);
    const auto toS = parsePeriodEnd(options.to);
    if (!fromS || !toS) {
        std::fprintf(stderr,
                     "meridian report: --from and --to take a date (2026-07-01) or an ISO 8601 "
                     "time (2026-07-01T08:00:00Z, 2026-07-01T16:00+08:00)\n");
        return 2;
    }
    if (options.response)
        return runResponseReport(options, *fromS, *toS);
    const auto group = reportGroupFromName(options.groupBy);
    const std::string &format = options.format;
    if (!group || (format != "csv" && format != "json" && format != "pdf") ||
        (options.table != "groups" && options.table != "cloud")) {
        std::fprintf(stderr,
                     "meridian report: --group-by dc|vendor|model|node|service|customer, "
                     "--format csv|json|pdf, --table groups|cloud\n");
        return 2;
    }
    if (format == "pdf" && options.output.empty()) {
        std::fprintf(stderr, "meridian report: a PDF needs -o FILE\n");
        return 2;
    }
    auto prices = PriceBook::load(priceBookInForce(options.pricesFile));
    if (!prices) {
        std::fprintf(stderr, "meridian report: %s\n", prices.error().message.c_str());
        return 2;
    }
    // Days for up to two months, weeks beyond: a chart a page wide stays readable.
    const int64_t bucket = *toS - *fromS <= 62 * 86400 ? 86400 : 7 * 86400;
    const LoadedReport loaded =
        loadReport(historyPath(options.dbFile), prices.value(),
                   {{*fromS, *toS, *group, 0}, format == "pdf" ? bucket : 0, format == "pdf"});
    const Result<UsageReport> &report = loaded.report;
    if (!report) {
        std::fprintf(stderr, "meridian report: %s\n", report.error().message.c_str());
        return 1;
    }
    if (format != "pdf") {
        const std::string text = format == "json"           ? reportToJson(report.value())
                                 : options.table == "cloud" ? cloudSpendToCsv(report.value())
                                                            : reportToCsv(report.value());
        if (!writeTextTo(text, options.output)) {
            std::fprintf(stderr, "meridian report: %s: cannot write\n", options.output.c_str());
            return 1;
        }
        return saidIfEmpty(report.value());
    }
    if (Status written = writePdf(options, loaded, argc, argv); !written) {
        std::fprintf(stderr, "meridian report: %s\n", written.message().c_str());
        return 1;
    }
    return saidIfEmpty(report.value());
}

}  // namespace meridian
