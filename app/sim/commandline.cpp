#include "commandline.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "sim/faultplan.h"

namespace meridian {

namespace {

void addFleetOptions(CLI::App &app, FleetCommand &fleet)
{
    app.add_option("--nodes", fleet.nodes,
                   "number of nodes, 8 cards each (default 750: 6,000 cards)");
    app.add_option("--cards", fleet.cards, "number of cards; rounded up to whole nodes")
        ->excludes("--nodes");
    app.add_option("--seed", fleet.seed, "fleet seed: the same seed gives the same fleet");
    app.add_option("--provisioning-seconds", fleet.provisioningSeconds,
                   "delay before a cloud lease is ready");
    app.add_option("--sample-interval-ms", fleet.sampleIntervalMs,
                   "how often each agent samples its node, replicas included (default 1000)")
        ->check(CLI::Range(100, 60'000));
    app.add_option("--inventory-out", fleet.inventoryOut, "write the inventory the console reads");
    app.add_option("--fabric-out", fleet.fabricOut,
                   "write the fleet's fabric file (switches, uplinks)");
    app.add_option("--quit-after", fleet.quitAfterSeconds, "stop after this many seconds");
    app.add_option("--scenario", fleet.scenario, "YAML file of faults to play at given times");
    app.add_option("--metrics-listen", fleet.metricsListen,
                   "serve every node's /nodes/ID/metrics for Prometheus here (e.g. 127.0.0.1:0)");
    app.add_option("--scrape-targets-out", fleet.targetsOut,
                   "write the nodes' scrape targets for Prometheus file_sd_configs (JSON)")
        ->needs("--metrics-listen");
    app.add_option("--services", fleet.servicesFile,
                   "inference services (YAML) whose replicas serve simulated load");
}

CLI::App *addLoadCommand(CLI::App &app, LoadCommand &load, CLI::Option *&rps)
{
    auto *command =
        app.add_subcommand("load", "set an inference service's demand in a running simulator");
    command->add_option("--control", load.control, "the simulator's control address")->required();
    command->add_option("--service", load.service, "the service's name")->required();
    rps = command->add_option("--rps", load.rps, "requests per second from now on")
              ->check(CLI::Range(0.0, 1e6));
    command->add_flag("--daily", load.daily, "back to the quiet daily curve")->excludes(rps);
    return command;
}

CLI::App *addFaultCommand(CLI::App &app, FaultCommand &fault)
{
    auto *command = app.add_subcommand("fault", "inject a fault into a running simulator");
    command->add_option("--control", fault.control, "the simulator's control address")->required();
    command->add_option("--node", fault.node, "node id (empty with clear: every node)");
    command->add_option("--data-center", fault.dataCenter, "every node of this data center")
        ->excludes("--node");
    command->add_option("--kind", fault.kind, faultKindNames() + ", or clear")->required();
    command->add_option("--card", fault.card, "card index for card faults")
        ->check(CLI::Range(0, 1023));
    command->add_option("--duration", fault.durationSeconds, "seconds; 0 until cleared")
        ->check(CLI::Range(0, 7 * 24 * 3600));
    command->add_option("--delay-ms", fault.delayMs, "answer delay for slow")
        ->check(CLI::Range(0, 600'000));
    return command;
}

// What `evaluate` and `tune` both read: the trace, how it is scaled, the policy, seeds.
void addReplayOptions(CLI::App *command, EvaluateCommand &evaluation, const char *policyHelp)
{
    command
        ->add_option("--trace", evaluation.trace,
                     "Azure 2023 CSV, Mooncake JSONL or ServeGen rate CSV (or one gzip-compressed)")
        ->required();
    command->add_option("--peak-cards", evaluation.peakCards,
                        "scale the trace so its busiest minute needs this many cards (64)");
    command->add_option("--local-cards", evaluation.localCards,
                        "owned cards the service may use (default: half the peak)");
    command->add_option("--hours", evaluation.hours, "only the first hours of the trace");
    command->add_option("--policy", evaluation.policy, policyHelp);
    command->add_option("--seed", evaluation.seed, "the same seed gives the same run");
    command
        ->add_option("--seeds", evaluation.seeds,
                     "report the median over this many seeds from --seed on (3)")
        ->check(CLI::Range(1, 99));
    command->add_option("--shape", evaluation.shape,
                        "lay a load shape over the trace: step:F@MINUTE, ramp:F@MINUTE+MINUTES, "
                        "burst:F@MINUTE+MINUTES, or a case of the robustness family, KIND#SEED");
}

CLI::App *addEvaluateCommand(CLI::App &app, EvaluateCommand &evaluation)
{
    auto *command = app.add_subcommand(
        "evaluate",
        "replay a request trace through the scaling policy and the baselines in virtual time");
    addReplayOptions(command, evaluation, "scaling policy settings (YAML)");
    command->add_option("--json", evaluation.json, "also write the figures here as JSON");
    command->add_option("--minutes", evaluation.minutes,
                        "also write each minute's arrivals and, per autoscaler, its p95 queueing "
                        "delay and replicas here (CSV; the first seed's)");
    command->add_option("--timeline", evaluation.timeline,
                        "also write Meridian's replay minute by minute here (CSV; the first "
                        "seed's): the load, the rate it read, replicas asked for, provisioning, "
                        "loading weights and serving, the queue and the p95 queueing delay");
    command->add_option("--schedule", evaluation.schedule,
                        "replay these replicas by minute as a row of its own: a CSV with "
                        "'minute' and 'replicas' columns, or FILE:COLUMN (a --minutes file's "
                        "replicas_oracle, say)");
    command
        ->add_option("--standby", evaluation.standbyNodes,
                     "also replay Meridian keeping this many rented nodes provisioned but idle, "
                     "weights on local disk (the row \"meridian standby\"; a --schedule "
                     "too, as \"schedule standby\")")
        ->check(CLI::Range(0, 64));
    command
        ->add_option("--told-ahead", evaluation.toldAheadS,
                     "seconds ahead the row \"meridian told\" knows the load (default: the "
                     "policy's forecast_lead_seconds); 0: each minute's load as it begins")
        ->check(CLI::Range(0.0, 7200.0));
    return command;
}

CLI::App *addTuneCommand(CLI::App &app, TuneCommand &tune)
{
    auto *command = app.add_subcommand(
        "tune",
        "choose a service's scaling policy file from a replay of its own traffic: the "
        "cheapest candidate that keeps the objective and the actions goal");
    addReplayOptions(command, tune.replay,
                     "the policy the candidates start from (YAML); its other settings are kept");
    command->add_option("--out", tune.out, "write the chosen policy file here");
    command
        ->add_option("--inside", tune.insideShare,
                     "share of requests to keep inside the objective (0.99)")
        ->check(CLI::Range(0.5, 1.0));
    command
        ->add_option("--actions-per-day", tune.actionsPerDay,
                     "at most this many scale-ups and releases a day (20)")
        ->check(CLI::Range(0.0, 100'000.0));
    command
        ->add_option("--shapes", tune.shapes,
                     "also choose the surge cover, on this many surges of each kind (step, "
                     "ramp, burst, double burst, flash crowd) laid over the trace (0: none)")
        ->check(CLI::Range(0, 100));
    command
        ->add_option("--surge-inside", tune.surgeInside,
                     "share of requests the worst tenth of those surges keeps inside the "
                     "objective (0.95)")
        ->check(CLI::Range(0.5, 1.0));
    return command;
}

CLI::App *addRobustnessCommand(CLI::App &app, RobustnessCommand &robustness)
{
    auto *command = app.add_subcommand(
        "robustness",
        "judge the scaling policy on a family of load shapes laid over real traces (steps, "
        "ramps, bursts, double bursts, flash crowds, quiet days), beside the baselines");
    command
        ->add_option("--trace", robustness.traces,
                     "a real trace the shapes are laid over (repeat for several: case i of a "
                     "kind uses the i-th, in turn)")
        ->required();
    command
        ->add_option("--kinds", robustness.kinds,
                     "only these kinds: step, ramp, burst, double-burst, flash-crowd, quiet")
        ->delimiter(',');
    command->add_option("--seeds", robustness.seeds, "cases of each kind (20)")
        ->check(CLI::Range(1, 1000));
    command->add_option("--seed", robustness.seed, "the first case's seed (1)");
    command->add_option("--base-cards", robustness.baseCards,
                        "the trace's own busiest minute needs this many cards; a shape's ×3 "
                        "needs three times as many (21.3: a ×3 step peaks at 64)");
    command->add_option("--local-cards", robustness.localCards, "owned cards (32)");
    command->add_option("--hours", robustness.hours, "of each trace (1)");
    command->add_option("--policy", robustness.policy, "the policy replayed as \"meridian\"");
    command->add_option("--variant", robustness.variants,
                        "another policy file replayed beside it, its row named after the file "
                        "(repeat for several)");
    command->add_option("--jobs", robustness.jobs, "cases replayed at once (1)")
        ->check(CLI::Range(1, 64));
    command->add_option("--csv", robustness.csv, "also write every case's rows here");
    return command;
}

CLI::App *addReplicaCommand(CLI::App &app, ReplicaServerOptions &replica)
{
    auto *command = app.add_subcommand(
        "serve-replica", "a stand-in OpenAI-compatible inference server with vLLM's /metrics");
    command->add_option("--host", replica.host, "address to listen on (127.0.0.1)");
    command->add_option("--port", replica.port, "port to listen on")
        ->required()
        ->check(CLI::Range(1, 65535));
    command->add_option("--model", replica.model, "the model name it answers with");
    command
        ->add_option("--prefill-tokens-per-second", replica.prefillTokensPerSecond,
                     "prompt tokens it reads per second, shared by the batch (8000)")
        ->check(CLI::Range(1.0, 1e7));
    command
        ->add_option("--decode-tokens-per-second", replica.decodeTokensPerSecond,
                     "tokens each sequence generates per second (35)")
        ->check(CLI::Range(0.1, 1e5));
    command->add_option("--max-concurrency", replica.maxConcurrency, "batch size (32)")
        ->check(CLI::Range(1, 4096));
    command
        ->add_option("--cold-start-seconds", replica.coldStartSeconds,
                     "answers /health with 503 this long, as if fetching and loading weights")
        ->check(CLI::Range(0.0, 3600.0));
    command->add_option("--weights-dir", replica.weightsDir,
                        "the node's local disk: weights found there load in --load-seconds; "
                        "else the cold start, after which they are kept there");
    command
        ->add_option("--load-seconds", replica.loadSeconds,
                     "start with the weights already on local disk (0)")
        ->check(CLI::Range(0.0, 3600.0));
    command->add_option("--crash-after-requests", replica.crashAfterRequests,
                        "exit with status 3 on this request (for crash drills)");
    return command;
}

CLI::App *addDriveCommand(CLI::App &app, DriveOptions &drive)
{
    auto *command =
        app.add_subcommand("drive", "send Poisson load to an OpenAI-compatible server over HTTP");
    command->add_option("--url", drive.url, "http://HOST:PORT")->required();
    command->add_option("--rps", drive.rps, "requests per second")->check(CLI::Range(0.001, 1e5));
    command->add_option("--seconds", drive.seconds, "how long")->check(CLI::Range(0.1, 86400.0));
    command->add_option("--prompt-tokens", drive.promptTokens, "per request (512)")
        ->check(CLI::Range(1, 1'000'000));
    command->add_option("--max-tokens", drive.maxTokens, "per request (64)")
        ->check(CLI::Range(1, 100'000));
    command->add_option("--connections", drive.connections, "in flight at most (64)")
        ->check(CLI::Range(1, 4096));
    command->add_option("--seed", drive.seed, "the same seed sends at the same times (1)");
    command->add_flag("!--no-stream", drive.stream,
                      "ask for each answer whole rather than streamed (TTFT is then the whole "
                      "answer's time)");
    command->add_option("--samples", drive.samplesFile,
                        "write every request here as CSV: due_unix_ms, ttft_s, e2e_s, ok");
    return command;
}

}  // namespace

std::optional<int> readCommandLine(int argc, char **argv, SimCommandLine &line)
{
    CLI::App app{
        "Meridian fleet simulator: many NodeAgents and the cloud CapacityPool on loopback"};
    addFleetOptions(app, line.fleet);
    CLI::Option *rps = nullptr;
    using Command = SimCommandLine::Command;
    const std::pair<CLI::App *, Command> commands[] = {
        {addLoadCommand(app, line.load, rps), Command::Load},
        {addFaultCommand(app, line.fault), Command::Fault},
        {addEvaluateCommand(app, line.evaluate), Command::Evaluate},
        {addTuneCommand(app, line.tune), Command::Tune},
        {addRobustnessCommand(app, line.robustness), Command::Robustness},
        {addReplicaCommand(app, line.replica), Command::ServeReplica},
        {addDriveCommand(app, line.drive), Command::Drive}};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e);
    }
    for (const auto &[subcommand, command] : commands) {
        if (*subcommand)
            line.command = command;
    }
    if (line.command == Command::Load && !line.load.daily && rps->count() == 0) {
        fmt::print(stderr, "meridian-sim load: give --rps R or --daily\n");
        return 2;
    }
    return std::nullopt;
}

}  // namespace meridian
