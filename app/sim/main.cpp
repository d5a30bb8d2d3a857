// meridian-sim: a whole simulated fleet on this machine, or a fault sent to one.
//   meridian-sim [--nodes N | --cards N] [--inventory-out FILE] [--quit-after S]
//   meridian-sim fault --control ADDR --node ID --kind KIND [--card N] [--duration S]
//   meridian-sim load --control ADDR --service NAME (--rps R | --daily)
//   meridian-sim serve-replica --port P [--model M] [--cold-start-seconds S]
//   meridian-sim drive --url http://HOST:PORT --rps R --seconds S
#include <fmt/format.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <CLI/CLI.hpp>

#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <map>
#include <thread>

#include "agent/metricsserver.h"
#include "core/brokenpipes.h"
#include "core/openfiles.h"
#include "evaluatecommand.h"
#include "httpdriver.h"
#include "meridian/v1/sim_control.grpc.pb.h"
#include "replicaserver.h"
#include "sim/scrapetargets.h"
#include "sim/simcontrolservice.h"
#include "sim/simfleet.h"
#include "wire/calldeadline.h"

namespace {

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

int sendFault(const std::string &control, const std::string &node, const std::string &dataCenter,
              const std::string &kind, int card, int duration, int delayMs)
{
    using namespace meridian;
    auto stub =
        v1::SimControl::NewStub(grpc::CreateChannel(control, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    setCallDeadline(context, 5000);
    grpc::Status status;
    if (kind == "clear") {
        v1::ClearFaultsRequest request;
        request.set_node_id(node);
        v1::ClearFaultsResponse response;
        status = stub->ClearFaults(&context, request, &response);
    } else {
        const auto parsed = faultKindFromName(kind);
        if (!parsed) {
            fmt::print(stderr, "meridian-sim fault: unknown kind '{}'; use one of {} or clear\n",
                       kind, faultKindNames());
            return 2;
        }
        v1::InjectFaultRequest request;
        v1::Fault *fault = request.mutable_fault();
        fault->set_node_id(node);
        fault->set_data_center(dataCenter);
        fault->set_kind(toProto(*parsed));
        if (card >= 0)
            fault->set_card_index(static_cast<uint32_t>(card));
        fault->set_duration_seconds(static_cast<uint32_t>(duration));
        fault->set_delay_ms(static_cast<uint32_t>(delayMs));
        v1::InjectFaultResponse response;
        status = stub->InjectFault(&context, request, &response);
    }
    if (!status.ok()) {
        fmt::print(stderr, "meridian-sim fault: {}: {}\n", control, status.error_message());
        return 1;
    }
    return 0;
}

int sendLoad(const std::string &control, const std::string &service, double rps, bool daily)
{
    using namespace meridian;
    auto stub =
        v1::SimControl::NewStub(grpc::CreateChannel(control, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    setCallDeadline(context, 5000);
    v1::SetServiceLoadRequest request;
    request.set_service(service);
    if (!daily)
        request.set_requests_per_second(rps);
    v1::SetServiceLoadResponse response;
    const grpc::Status status = stub->SetServiceLoad(&context, request, &response);
    if (!status.ok()) {
        fmt::print(stderr, "meridian-sim load: {}: {}\n", control, status.error_message());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv)
{
    meridian::ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    using namespace meridian;
    CLI::App app{
        "Meridian fleet simulator: many NodeAgents and the cloud CapacityPool on loopback"};
    int nodes = 0;
    int cards = 0;
    uint64_t seed = 42;
    int provisioning = 90;
    double quitAfter = 0;
    std::string inventoryOut;
    app.add_option("--nodes", nodes, "number of nodes, 8 cards each (default 750: 6,000 cards)");
    app.add_option("--cards", cards, "number of cards; rounded up to whole nodes")
        ->excludes("--nodes");
    app.add_option("--seed", seed, "fleet seed: the same seed gives the same fleet");
    app.add_option("--provisioning-seconds", provisioning, "delay before a cloud lease is ready");
    app.add_option("--inventory-out", inventoryOut, "write the inventory the console reads");
    std::string fabricOut;
    app.add_option("--fabric-out", fabricOut, "write the fleet's fabric file (switches, uplinks)");
    app.add_option("--quit-after", quitAfter, "stop after this many seconds");
    std::string scenario;
    app.add_option("--scenario", scenario, "YAML file of faults to play at given times");

    std::string metricsListen;
    std::string targetsOut;
    app.add_option("--metrics-listen", metricsListen,
                   "serve every node's /nodes/ID/metrics for Prometheus here (e.g. 127.0.0.1:0)");
    app.add_option("--scrape-targets-out", targetsOut,
                   "write the nodes' scrape targets for Prometheus file_sd_configs (JSON)")
        ->needs("--metrics-listen");

    std::string servicesFile;
    app.add_option("--services", servicesFile,
                   "inference services (YAML) whose replicas serve simulated load");

    auto *load =
        app.add_subcommand("load", "set an inference service's demand in a running simulator");
    std::string loadControl, loadService;
    double loadRps = 0;
    bool loadDaily = false;
    load->add_option("--control", loadControl, "the simulator's control address")->required();
    load->add_option("--service", loadService, "the service's name")->required();
    auto *rpsOption = load->add_option("--rps", loadRps, "requests per second from now on")
                          ->check(CLI::Range(0.0, 1e6));
    load->add_flag("--daily", loadDaily, "back to the quiet daily curve")->excludes(rpsOption);

    auto *fault = app.add_subcommand("fault", "inject a fault into a running simulator");
    std::string control;
    std::string node;
    std::string dataCenter;
    std::string kind;
    int card = -1;
    int duration = 0;
    int delayMs = 0;
    fault->add_option("--control", control, "the simulator's control address")->required();
    fault->add_option("--node", node, "node id (empty with clear: every node)");
    fault->add_option("--data-center", dataCenter, "every node of this data center")
        ->excludes("--node");
    fault->add_option("--kind", kind, faultKindNames() + ", or clear")->required();
    fault->add_option("--card", card, "card index for card faults")->check(CLI::Range(0, 1023));
    fault->add_option("--duration", duration, "seconds; 0 until cleared")
        ->check(CLI::Range(0, 7 * 24 * 3600));
    fault->add_option("--delay-ms", delayMs, "answer delay for slow")
        ->check(CLI::Range(0, 600'000));
    auto *evaluate =
        app.add_subcommand("evaluate",
                           "replay a request trace through the scaling policy and the baselines in "
                           "virtual time");
    EvaluateCommand evaluation;
    evaluate
        ->add_option("--trace", evaluation.trace,
                     "Azure 2023 CSV, Mooncake JSONL or ServeGen rate CSV")
        ->required();
    evaluate->add_option("--peak-cards", evaluation.peakCards,
                         "scale the trace so its busiest minute needs this many cards (64)");
    evaluate->add_option("--local-cards", evaluation.localCards,
                         "owned cards the service may use (default: half the peak)");
    evaluate->add_option("--hours", evaluation.hours, "only the first hours of the trace");
    evaluate->add_option("--json", evaluation.json, "also write the figures here as JSON");
    evaluate->add_option("--minutes", evaluation.minutes,
                         "also write each minute's arrivals and, per autoscaler, its p95 TTFT and "
                         "replicas here (CSV)");
    evaluate->add_option("--policy", evaluation.policy, "scaling policy settings (YAML)");
    evaluate->add_option("--seed", evaluation.seed, "the same seed gives the same run");
    auto *replica = app.add_subcommand(
        "serve-replica", "a stand-in OpenAI-compatible inference server with vLLM's /metrics");
    ReplicaServerOptions replicaOptions;
    replica->add_option("--host", replicaOptions.host, "address to listen on (127.0.0.1)");
    replica->add_option("--port", replicaOptions.port, "port to listen on")
        ->required()
        ->check(CLI::Range(1, 65535));
    replica->add_option("--model", replicaOptions.model, "the model name it answers with");
    replica
        ->add_option("--prefill-tokens-per-second", replicaOptions.prefillTokensPerSecond,
                     "prompt tokens it reads per second, shared by the batch (8000)")
        ->check(CLI::Range(1.0, 1e7));
    replica
        ->add_option("--decode-tokens-per-second", replicaOptions.decodeTokensPerSecond,
                     "tokens each sequence generates per second (35)")
        ->check(CLI::Range(0.1, 1e5));
    replica->add_option("--max-concurrency", replicaOptions.maxConcurrency, "batch size (32)")
        ->check(CLI::Range(1, 4096));
    replica
        ->add_option("--cold-start-seconds", replicaOptions.coldStartSeconds,
                     "answers /health with 503 this long, as if loading weights")
        ->check(CLI::Range(0.0, 3600.0));
    replica->add_option("--crash-after-requests", replicaOptions.crashAfterRequests,
                        "exit with status 3 on this request (for crash drills)");

    auto *driveCommand =
        app.add_subcommand("drive", "send Poisson load to an OpenAI-compatible server over HTTP");
    DriveOptions driveOptions;
    driveCommand->add_option("--url", driveOptions.url, "http://HOST:PORT")->required();
    driveCommand->add_option("--rps", driveOptions.rps, "requests per second")
        ->check(CLI::Range(0.001, 1e5));
    driveCommand->add_option("--seconds", driveOptions.seconds, "how long")
        ->check(CLI::Range(0.1, 86400.0));
    driveCommand->add_option("--prompt-tokens", driveOptions.promptTokens, "per request (512)")
        ->check(CLI::Range(1, 1'000'000));
    driveCommand->add_option("--max-tokens", driveOptions.maxTokens, "per request (64)")
        ->check(CLI::Range(1, 100'000));
    driveCommand->add_option("--connections", driveOptions.connections, "in flight at most (64)")
        ->check(CLI::Range(1, 4096));

    CLI11_PARSE(app, argc, argv);
    if (*replica)
        return serveReplica(replicaOptions);
    if (*driveCommand)
        return drive(driveOptions);
    if (*fault)
        return sendFault(control, node, dataCenter, kind, card, duration, delayMs);
    if (*evaluate)
        return runEvaluate(evaluation);
    if (*load) {
        if (!loadDaily && rpsOption->count() == 0) {
            fmt::print(stderr, "meridian-sim load: give --rps R or --daily\n");
            return 2;
        }
        return sendLoad(loadControl, loadService, loadRps, loadDaily);
    }

    SimFleetOptions options;
    if (!servicesFile.empty()) {
        auto services = loadInferenceServices(servicesFile);
        if (!services) {
            fmt::print(stderr, "meridian-sim: {}\n", services.error().message);
            return 2;
        }
        options.services = std::move(services).value();
    }
    options.seed = seed;
    options.provisioningSeconds = provisioning;
    if (cards > 0)
        options.nodes = nodesForCards(cards);
    else if (nodes > 0)
        options.nodes = nodes;
    if (options.nodes > 4000) {
        fmt::print(stderr,
                   "meridian-sim: {} nodes is more than one machine's ports can serve well; "
                   "use at most 4000 (32,000 cards)\n",
                   options.nodes);
        return 2;
    }
    // One listening socket per node plus the console's connections.
    raiseOpenFileLimit();
    SimFleet fleet(options, SystemClock::instance());
    if (Status status = fleet.start(); !status) {
        fmt::print(stderr, "meridian-sim: {}\n", status.message());
        return 1;
    }
    if (!scenario.empty()) {
        auto steps = loadScenario(scenario);
        Status played = steps ? fleet.play(steps.value()) : Status(steps.error());
        if (!played) {
            fmt::print(stderr, "meridian-sim: {}\n", played.message());
            return 2;
        }
    }
    if (!inventoryOut.empty()) {
        if (Status status = fleet.writeInventory(inventoryOut); !status) {
            fmt::print(stderr, "meridian-sim: {}\n", status.message());
            return 1;
        }
    }
    std::unique_ptr<MetricsServer> metrics;
    if (!metricsListen.empty()) {
        MetricsServerOptions metricsOptions;
        metricsOptions.listen = metricsListen;
        metricsOptions.threads = 8;  // one store scrapes every node
        metricsOptions.keepAlive = false;
        auto started = MetricsServer::start(metricsOptions, [&fleet](std::string_view nodeId) {
            return nodeId.empty() ? nullptr : fleet.runtimeOf(nodeId);
        });
        if (!started) {
            fmt::print(stderr, "meridian-sim: {}\n", started.error().message);
            return 2;
        }
        metrics = std::move(started).value();
        const std::string address = fmt::format(
            "{}:{}", metricsListen.substr(0, metricsListen.rfind(':')), metrics->port());
        fmt::print("meridian-sim: Prometheus metrics on http://{}/nodes/<node>/metrics\n", address);
        if (!targetsOut.empty()) {
            std::ofstream out(targetsOut + ".tmp", std::ios::trunc);
            out << scrapeTargetsJson(fleet.nodes(), address);
            out.close();
            if (!out || std::rename((targetsOut + ".tmp").c_str(), targetsOut.c_str()) != 0) {
                fmt::print(stderr, "meridian-sim: cannot write {}\n", targetsOut);
                return 1;
            }
        }
    }
    if (!fabricOut.empty()) {
        std::ofstream out(fabricOut);
        out << fabricFileToYaml(fleet.fabricFile());
        if (!out) {
            fmt::print(stderr, "meridian-sim: cannot write {}\n", fabricOut);
            return 1;
        }
    }
    std::map<std::string, int> perDc;
    for (const SimNodeView &n : fleet.nodes())
        perDc[n.dataCenter] += n.cards;
    fmt::print("meridian-sim: {} nodes, {} cards (", options.nodes, options.nodes * 8);
    bool first = true;
    for (const auto &[dc, count] : perDc) {
        fmt::print("{}{} {}", first ? "" : ", ", dc, count);
        first = false;
    }
    fmt::print(") serving NodeAgent on 127.0.0.1, one port per node\n");
    fmt::print("meridian-sim: CapacityPool and SimControl on {}\n", fleet.controlAddress());
    if (!inventoryOut.empty())
        fmt::print("meridian-sim: inventory written to {}\n", inventoryOut);
    std::fflush(stdout);
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    const Clock &clock = SystemClock::instance();
    const int64_t deadlineMs = clock.steadyMs() + static_cast<int64_t>(quitAfter * 1000);
    while (!g_stop && (quitAfter <= 0 || clock.steadyMs() < deadlineMs))
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (metrics)
        metrics->stop();
    fleet.stop();
    return 0;
}
