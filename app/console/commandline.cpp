#include "commandline.h"

#include <CLI/CLI.hpp>

namespace meridian {

namespace {

void addWindowOptions(CLI::App &cli, WindowArguments &window)
{
    cli.add_option("--inventory", window.inventory, "YAML inventory of data centers and agents");
    cli.add_option("--nodes", window.nodes,
                   "size of the embedded simulated fleet (default 750 = 6,000 cards)");
    cli.add_option("--diagnostics-json", window.diagnostics,
                   "write the diagnostics figures here on exit");
    cli.add_option("--quit-after", window.quitAfterSeconds,
                   "quit after this many seconds (scripted runs)");
    cli.add_option("--db", window.history, "history file (default: the user's data directory)");
    cli.add_option("--services", window.services,
                   "inference services the autoscaler keeps (default: the file in force)");
    cli.add_option("--scaling-policy", window.scalingPolicy,
                   "the autoscaler's policy settings (YAML, as meridian-sim evaluate --policy "
                   "reads them; e.g. target_occupancy: 0.85)");
    cli.add_option("--prometheus", window.prometheus,
                   "read the fleet from a Prometheus-compatible store (its URL) instead of "
                   "connecting to every agent");
    cli.add_option("--scrape-interval", window.scrapeIntervalS,
                   "the store's scrape interval in seconds (default 15): how old a value may be")
        ->check(CLI::Range(1, 3600))
        ->needs("--prometheus");
    cli.add_option("--fabric", window.fabric, "fabric file: switches, tiers, uplinks (YAML)");
    cli.add_option("--alert-routes", window.alertRoutes,
                   "where alerts go: Alertmanager, WeCom, DingTalk, Feishu, webhooks (YAML; "
                   "default ~/.config/meridian/alert-routes.yaml)");
    cli.add_flag("--fabric-view", window.openFabric, "open the RoCE fabric window at start");
    cli.add_flag("--scaling", window.openScaling, "open the Elastic scaling window at start");
}

CLI::App *addSyncCommand(CLI::App &cli, SyncArguments &sync)
{
    auto *command =
        cli.add_subcommand("sync", "backfill the usage history from every agent, then exit");
    command->add_option("--inventory", sync.inventory, "YAML inventory of data centers and agents")
        ->required();
    command->add_option("--db", sync.db, "history file (default: the user's data directory)");
    command->add_option("--prices", sync.prices,
                        "price book for the cost views (default: in force)");
    return command;
}

CLI::App *addReportCommand(CLI::App &cli, ReportOptions &report)
{
    auto *command =
        cli.add_subcommand("report", "utilisation and cost for a period, without a window");
    command->add_option("--from", report.from, "start: a date or an ISO 8601 time, UTC")
        ->required();
    command
        ->add_option("--to", report.to,
                     "end: a date (its whole day included) or an ISO 8601 time (excluded); "
                     "exit 3 when the history holds no usage in the period")
        ->required();
    command->add_option("--group-by", report.groupBy,
                        "dc | vendor | model | node | service | customer (default dc); with "
                        "--response: week | dc | kind | person");
    command->add_flag("--response", report.response,
                      "how fast alerts were answered instead: time to acknowledge and to "
                      "resolve, the share acknowledged in time and resolved within the hour");
    command
        ->add_option("--ack-within", report.acknowledgeWithinMinutes,
                     "with --response: acknowledged in time within this many minutes (the "
                     "escalation time; default 15)")
        ->needs("--response");
    command->add_option("--format", report.format, "csv | json | pdf (default csv)");
    command->add_option("--table", report.table,
                        "csv: groups (default) or cloud, the rented leases and their spend");
    command->add_option("-o", report.output, "write here instead of standard output");
    command->add_option("--db", report.dbFile, "history file (default: the user's data directory)");
    command->add_option("--prices", report.pricesFile,
                        "price book (default: your edited copy, else the installed one)");
    return command;
}

}  // namespace

std::optional<int> readCommandLine(int argc, char **argv, ConsoleCommandLine &line)
{
    CLI::App cli{"Meridian operations console"};
    addWindowOptions(cli, line.window);
    cli.allow_extras();  // Qt's own options (-platform, -style) are Qt's
    const CLI::App *sync = addSyncCommand(cli, line.sync);
    const CLI::App *report = addReportCommand(cli, line.report);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        // A command line that does not parse is the usage error (2), not CLI11's own codes
        // (105 for a value out of range).
        const int code = cli.exit(e);
        return code == 0 ? 0 : 2;
    }
    if (*sync)
        line.command = ConsoleCommandLine::Command::Sync;
    else if (*report)
        line.command = ConsoleCommandLine::Command::Report;
    return std::nullopt;
}

}  // namespace meridian
