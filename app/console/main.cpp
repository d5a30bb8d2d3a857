// meridian: the operations console. With no inventory it starts an embedded simulated
// fleet on loopback and connects to it exactly as to a real one.
#include <CLI/CLI.hpp>

#include <QApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTimer>
#include <QTranslator>
#include <cstdio>

#include "consolesession.h"
#include "core/textutil.h"
#include "cost/usagereport.h"
#include "store/historystore.h"
#include "transport/usagesync.h"
#include "widgets/mainwindow.h"

namespace {

// `meridian sync`: backfill the history file from every agent, headless (for cron).
int runSync(const std::string &inventoryFile, const std::string &dbFile)
{
    auto inventory = meridian::loadInventory(inventoryFile);
    if (!inventory) {
        std::fprintf(stderr, "meridian sync: %s\n", inventory.error().message.c_str());
        return 2;
    }
    auto store = meridian::HistoryStore::open(dbFile.empty() ? meridian::HistoryStore::defaultPath()
                                                             : dbFile);
    if (!store) {
        std::fprintf(stderr, "meridian sync: %s\n", store.error().message.c_str());
        return 2;
    }
    const meridian::SyncReport report = meridian::syncUsage(inventory.value(), *store.value());
    std::printf("meridian sync: %d of %d agents, %lld minutes, %d cloud leases into %s\n",
                report.synced, report.agents, static_cast<long long>(report.minutes), report.leases,
                store.value()->path().c_str());
    for (const std::string &failure : report.failures)
        std::fprintf(stderr, "meridian sync: %s\n", failure.c_str());
    return report.failures.empty() ? 0 : 1;
}

// `meridian report`: utilisation and cost for a period, headless (for cron and mail).
int runReport(const std::string &from, const std::string &to, const std::string &groupBy,
              const std::string &format, const std::string &output, const std::string &dbFile,
              const std::string &pricesFile)
{
    const auto fromS = meridian::parseUtcTime(from);
    const auto toS = meridian::parseUtcTime(to);
    if (!fromS || !toS) {
        std::fprintf(stderr,
                     "meridian report: --from and --to take a date (2026-07-01) or a UTC time "
                     "(2026-07-01T08:00:00Z)\n");
        return 2;
    }
    const auto group = meridian::reportGroupFromName(groupBy);
    if (!group || (format != "csv" && format != "json")) {
        std::fprintf(stderr,
                     "meridian report: --group-by dc|vendor|model|node, --format csv|json\n");
        return 2;
    }
    auto prices = meridian::PriceBook::load(pricesFile);
    if (!prices) {
        std::fprintf(stderr, "meridian report: %s\n", prices.error().message.c_str());
        return 2;
    }
    const std::string db = dbFile.empty() ? meridian::HistoryStore::defaultPath() : dbFile;
    auto report = meridian::buildUsageReport(db, prices.value(), {*fromS, *toS, *group});
    if (!report) {
        std::fprintf(stderr, "meridian report: %s\n", report.error().message.c_str());
        return 1;
    }
    const std::string text = format == "csv" ? meridian::reportToCsv(report.value())
                                             : meridian::reportToJson(report.value());
    if (output.empty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    std::FILE *file = std::fopen(output.c_str(), "w");
    if (!file || std::fwrite(text.data(), 1, text.size(), file) != text.size() ||
        std::fclose(file) != 0) {
        std::fprintf(stderr, "meridian report: %s: cannot write\n", output.c_str());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv)
{
    CLI::App cli{"Meridian operations console"};
    std::string inventory;
    std::string diagnostics;
    int nodes = 750;
    double quitAfter = 0;
    cli.add_option("--inventory", inventory, "YAML inventory of data centers and agents");
    cli.add_option("--nodes", nodes,
                   "size of the embedded simulated fleet (default 750 = 6,000 cards)");
    cli.add_option("--diagnostics-json", diagnostics, "write the diagnostics figures here on exit");
    cli.add_option("--quit-after", quitAfter, "quit after this many seconds (scripted runs)");
    std::string history;
    cli.add_option("--db", history, "history file (default: the user's data directory)");
    cli.allow_extras();  // Qt's own options (-platform, -style) are Qt's
    auto *sync =
        cli.add_subcommand("sync", "backfill the usage history from every agent, then exit");
    std::string syncInventory;
    std::string db;
    sync->add_option("--inventory", syncInventory, "YAML inventory of data centers and agents")
        ->required();
    sync->add_option("--db", db, "history file (default: the user's data directory)");
    auto *report =
        cli.add_subcommand("report", "utilisation and cost for a period, without a window");
    std::string from, to, groupBy = "dc", format = "csv", output, reportDb;
    std::string prices = MERIDIAN_DEFAULT_PRICEBOOK;
    report->add_option("--from", from, "start: a date or an ISO 8601 time, UTC")->required();
    report->add_option("--to", to, "end (exclusive): a date or an ISO 8601 time, UTC")->required();
    report->add_option("--group-by", groupBy, "dc | vendor | model | node (default dc)");
    report->add_option("--format", format, "csv | json (default csv)");
    report->add_option("-o", output, "write here instead of standard output");
    report->add_option("--db", reportDb, "history file (default: the user's data directory)");
    report->add_option("--prices", prices, "price book (YAML)");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return cli.exit(e);
    }
    if (*sync)
        return runSync(syncInventory, db);
    if (*report)
        return runReport(from, to, groupBy, format, output, reportDb, prices);

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Meridian"));
    QApplication::setApplicationName(QStringLiteral("meridian"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/meridian.png")));
    QApplication::setDesktopFileName(QStringLiteral("meridian"));
    // The user's language (Simplified Chinese or English), for our strings and Qt's own.
    QTranslator qtStrings;
    if (qtStrings.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                       QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtStrings);
    QTranslator ours;
    if (ours.load(QLocale(), QStringLiteral("meridian"), QStringLiteral("_"),
                  QStringLiteral(":/i18n")))
        QApplication::installTranslator(&ours);

    meridian::ConsoleOptions options;
    options.inventoryFile = QString::fromStdString(inventory);
    options.simulatedNodes = nodes;
    options.diagnosticsJson = QString::fromStdString(diagnostics);
    options.historyFile = QString::fromStdString(history);
    meridian::ConsoleSession session(options);
    if (meridian::Status status = session.start(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        if (quitAfter <= 0)
            QMessageBox::critical(nullptr, QObject::tr("Meridian cannot start"),
                                  QString::fromStdString(status.message()));
        return 2;
    }
    session.window().show();
    if (quitAfter > 0)
        QTimer::singleShot(static_cast<int>(quitAfter * 1000), &app,
                           [&] { session.window().close(); });
    const int code = QApplication::exec();
    if (meridian::Status status = session.writeDiagnostics(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        return 1;
    }
    return code;
}
