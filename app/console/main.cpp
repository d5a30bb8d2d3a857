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
#include "core/brokenpipes.h"
#include "headlesscommands.h"
#include "widgets/mainwindow.h"

int main(int argc, char **argv)
{
    meridian::ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
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
    std::string services;
    cli.add_option("--services", services,
                   "inference services the autoscaler keeps (default: the file in force)");
    std::string scalingPolicy;
    cli.add_option("--scaling-policy", scalingPolicy,
                   "the autoscaler's policy settings (YAML, as meridian-sim evaluate --policy "
                   "reads them; e.g. target_occupancy: 0.85)");
    std::string prometheus;
    int scrapeInterval = 15;
    cli.add_option("--prometheus", prometheus,
                   "read the fleet from a Prometheus-compatible store (its URL) instead of "
                   "connecting to every agent");
    cli.add_option("--scrape-interval", scrapeInterval,
                   "the store's scrape interval in seconds (default 15): how old a value may be")
        ->check(CLI::Range(1, 3600))
        ->needs("--prometheus");
    std::string fabric;
    cli.add_option("--fabric", fabric, "fabric file: switches, tiers, uplinks (YAML)");
    std::string alertRoutes;
    cli.add_option("--alert-routes", alertRoutes,
                   "where alerts go: Alertmanager, WeCom, DingTalk, Feishu, webhooks (YAML; "
                   "default ~/.config/meridian/alert-routes.yaml)");
    bool openFabric = false;
    cli.add_flag("--fabric-view", openFabric, "open the RoCE fabric window at start");
    bool openScaling = false;
    cli.add_flag("--scaling", openScaling, "open the Elastic scaling window at start");
    cli.allow_extras();  // Qt's own options (-platform, -style) are Qt's
    auto *sync =
        cli.add_subcommand("sync", "backfill the usage history from every agent, then exit");
    std::string syncInventory;
    std::string db;
    std::string syncPrices;
    sync->add_option("--inventory", syncInventory, "YAML inventory of data centers and agents")
        ->required();
    sync->add_option("--db", db, "history file (default: the user's data directory)");
    sync->add_option("--prices", syncPrices, "price book for the cost views (default: in force)");
    auto *report =
        cli.add_subcommand("report", "utilisation and cost for a period, without a window");
    meridian::ReportOptions reportOptions;
    report->add_option("--from", reportOptions.from, "start: a date or an ISO 8601 time, UTC")
        ->required();
    report->add_option("--to", reportOptions.to, "end (exclusive): a date or an ISO 8601 time")
        ->required();
    report->add_option("--group-by", reportOptions.groupBy,
                       "dc | vendor | model | node | service | customer (default dc)");
    report->add_option("--format", reportOptions.format, "csv | json | pdf (default csv)");
    report->add_option("--table", reportOptions.table,
                       "csv: groups (default) or cloud, the rented leases and their spend");
    report->add_option("-o", reportOptions.output, "write here instead of standard output");
    report->add_option("--db", reportOptions.dbFile,
                       "history file (default: the user's data directory)");
    report->add_option("--prices", reportOptions.pricesFile,
                       "price book (default: your edited copy, else the installed one)");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return cli.exit(e);
    }
    if (*sync)
        return meridian::runSync(syncInventory, db, syncPrices);
    if (*report)
        return meridian::runReport(reportOptions, argc, argv);

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
    options.prometheusUrl = QString::fromStdString(prometheus);
    options.scrapeIntervalS = scrapeInterval;
    options.diagnosticsJson = QString::fromStdString(diagnostics);
    options.historyFile = QString::fromStdString(history);
    options.servicesFile = QString::fromStdString(services);
    options.scalingPolicyFile = QString::fromStdString(scalingPolicy);
    options.fabricFile = QString::fromStdString(fabric);
    options.alertRoutingFile = QString::fromStdString(alertRoutes);
    meridian::ConsoleSession session(options);
    if (meridian::Status status = session.start(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        if (quitAfter <= 0)
            QMessageBox::critical(nullptr, QObject::tr("Meridian cannot start"),
                                  QString::fromStdString(status.message()));
        return 2;
    }
    session.window().show();
    if (openFabric)
        session.window().showToolWindow(meridian::MainWindow::ToolWindow::Fabric);
    if (openScaling)
        session.window().showToolWindow(meridian::MainWindow::ToolWindow::Scaling);
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
