#include "commandline.h"

#include <CLI/CLI.hpp>

namespace meridian {

namespace {

void addWatchOptions(CLI::App &cli, WatchArguments &watch)
{
    cli.add_option("--inventory", watch.inventory, "YAML inventory of data centers and agents");
    cli.add_option("--prometheus", watch.prometheus,
                   "read the fleet from a Prometheus-compatible store (its URL)");
    cli.add_option("--scrape-interval", watch.scrapeIntervalS,
                   "the store's scrape interval in seconds (default 15)")
        ->check(CLI::Range(1, 3600))
        ->needs("--prometheus");
    cli.add_option("--alert-routes", watch.alertRoutes,
                   "where alerts go (YAML, as the console reads it); required");
    cli.add_option("--db", watch.history,
                   "history file: the triage log, and what was delivered, kept across "
                   "restarts (default: the user's data directory)");
    cli.add_option("--listen", watch.listen,
                   "serve /metrics, /status, /alerts and /triage here (default 127.0.0.1:9465; "
                   "'' for none)");
    cli.add_option("--name", watch.name, "who it is in the triage log (default watcher@HOST)");
    cli.add_option("--security", watch.security,
                   "a file with tls: and tokens: for the listener (needed beyond loopback; "
                   "operator tokens may act on alerts)");
    cli.add_option("--quit-after", watch.quitAfterSeconds,
                   "quit after this many seconds (scripted runs)");
    cli.add_option("--stall-hold", watch.stallHoldSeconds,
                   "after this process itself stalled (swapped out, stopped), seconds before "
                   "it judges agents' silence again (default 10)")
        ->check(CLI::Range(1.0, 600.0));
    cli.add_option("--scaled", watch.scaledUrl,
                   "meridian-scaled's metrics URL (its metrics_listen): services over their "
                   "objective, plans waiting and a silent controller are paged too");
    cli.add_option("--scaled-token-file", watch.scaledTokenFile,
                   "a file holding the token meridian-scaled's /metrics asks for")
        ->needs("--scaled");
    cli.add_option("--scaled-ca-file", watch.scaledCaFile,
                   "the CA that signed meridian-scaled's certificate")
        ->needs("--scaled");
    cli.add_option("--telemetry-every", watch.telemetryEverySeconds,
                   "seconds between each agent's readings (default 5; events come at once)")
        ->check(CLI::Range(0.25, 60.0));
    cli.add_option("--evaluate-every", watch.evaluateEverySeconds,
                   "seconds between passes of the rules over the fleet (default 1)")
        ->check(CLI::Range(0.1, 10.0));
}

// Where a command finds the running watcher, and how it proves who it is.
void addWatcherOptions(CLI::App &command, TriageCommand &triage)
{
    command.add_option("--url", triage.url, "the watcher's base URL")
        ->default_val("http://127.0.0.1:9465");
    command.add_option("--token-file", triage.tokenFile,
                       "a file holding your bearer token (kept off the command line)");
    command.add_option("--ca-file", triage.caFile, "the CA that signed the watcher's certificate");
}

CLI::App *addSilenceCommand(CLI::App &cli, TriageCommand &triage)
{
    auto *silence = cli.add_subcommand(
        "silence", "quiet an alert, a node or a data center (optionally one kind there)");
    auto *key = silence->add_option("--alert", triage.alert, "an alert's key or short id");
    auto *node = silence->add_option("--node", triage.node, "every alert of a node");
    auto *dc = silence->add_option("--dc", triage.dataCenter, "every alert of a data center");
    key->excludes(node)->excludes(dc);
    silence->add_option("--kind", triage.kind,
                        "only this kind there (as the console names it: Xid, link down, …)");
    silence->add_option("--hours", triage.hours, "how long (default 1)")
        ->check(CLI::Range(0.05, 720.0));
    silence->add_option("--reason", triage.reason, "why: every console and receiver shows it")
        ->required();
    return silence;
}

}  // namespace

std::optional<int> readWatchCommandLine(int argc, char **argv, WatchCommandLine &line)
{
    CLI::App cli{
        "meridian-watch: Meridian's alert rules, routes and triage without a window (for "
        "systemd), so the on-call is paged whether or not a console is open"};
    addWatchOptions(cli, line.watch);
    TriageCommand &triage = line.triage;
    auto *status = cli.add_subcommand("status", "what a running watcher is doing");
    auto *list = cli.add_subcommand("list", "the alerts firing and the silences in force");
    auto *ack = cli.add_subcommand("ack", "acknowledge an alert: you are on it");
    ack->add_option("alert", triage.alert, "its key or short id (see list)")->required();
    auto *note = cli.add_subcommand("note", "put a note on an alert");
    note->add_option("alert", triage.alert, "its key or short id (see list)")->required();
    note->add_option("text", triage.note, "the note")->required();
    auto *silence = addSilenceCommand(cli, triage);
    auto *lift = cli.add_subcommand("lift", "lift a silence");
    lift->add_option("id", triage.silenceId, "the silence's id (see list)")->required();
    for (CLI::App *command : {status, list, ack, note, silence, lift})
        addWatcherOptions(*command, triage);
    cli.require_subcommand(0, 1);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        // A command line that does not parse is the usage error (2) the watcher's unit
        // does not restart for, not CLI11's own codes (105 for a value out of range).
        const int code = cli.exit(e);
        return code == 0 ? 0 : 2;
    }
    using C = WatchCommandLine::Command;
    const std::pair<CLI::App *, C> commands[] = {{status, C::Status},   {list, C::List},
                                                 {ack, C::Acknowledge}, {note, C::Note},
                                                 {silence, C::Silence}, {lift, C::Lift}};
    for (const auto &[command, which] : commands) {
        if (*command)
            line.command = which;
    }
    return std::nullopt;
}

}  // namespace meridian
