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

CLI::App *addPlanCommand(CLI::App &cli, PlanArguments &plan)
{
    auto *command =
        cli.add_subcommand("plan", "what a service should own, contract and rent, from its demand");
    command->add_option("--demand", plan.demand,
                        "the service's demand: ServeGen's rate file (window_start_s,"
                        "total_rate_rps) or minutes (minute_start_s,rps), plain or gzipped");
    command->add_option("--db", plan.recordedIn,
                        "instead: the demand its controller recorded, in this history file or "
                        "meridian-scaled journal (with --service)");
    command->add_option("--service", plan.service, "the service whose recorded demand to plan");
    command
        ->add_option("--replica-rps", plan.replicaRps,
                     "requests a second an A100 replica serves inside the objective: the "
                     "demand's own size, instead of --peak-cards")
        ->check(CLI::Range(0.001, 1e6));
    command->add_option("--costs", plan.costs,
                        "card costs (YAML: purchase, life, running, cloud and contract prices; "
                        "default: the provider's figures)");
    command
        ->add_option("--peak-cards", plan.peakCards,
                     "A100 cards the busiest minute needs (default 64)")
        ->check(CLI::Range(1.0, 100'000.0));
    command->add_option("--cards-per-replica", plan.cardsPerReplica, "default 4")
        ->check(CLI::Range(1, 64));
    command
        ->add_option("--objective-share", plan.objectiveShare,
                     "share of requests inside the objective to keep (default 0.99)")
        ->check(CLI::Range(0.5, 1.0));
    command
        ->add_option("--least-owned-busy", plan.leastOwnedBusy,
                     "owned cards at least this busy, or none owned (default 0.75)")
        ->check(CLI::Range(0.0, 1.0));
    command
        ->add_option("--weeks", plan.weeks,
                     "weeks planned from (default: every whole week; with --backtest, 1)")
        ->check(CLI::Range(0, 60));
    command->add_flag("--backtest", plan.backtest,
                      "plan from the first weeks, judge on the week after beside the mix "
                      "cheapest in hindsight and the simple rules");
    command->add_flag("--confirm", plan.confirm,
                      "replay the pick request by request over the trace's first week beside "
                      "what the fast model says of it (half a minute at 64 cards)");
    command->add_option("--format", plan.format,
                        "text | csv | json | pdf (default text; pdf needs -o)");
    command->add_option("-o", plan.output, "write here instead of standard output");
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
    const CLI::App *plan = addPlanCommand(cli, line.plan);
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
    else if (*plan)
        line.command = ConsoleCommandLine::Command::Plan;
    return std::nullopt;
}

}  // namespace meridian
