#include "agentcommands.h"

#include <fmt/format.h>
#include <grpcpp/server.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "agent/agentledger.h"
#include "agent/metricsserver.h"
#include "agent/nodeagentservice.h"
#include "core/inferenceservice.h"
#include "core/periodicthread.h"
#include "core/scheduler.h"
#include "replicas/replicarunner.h"
#include "telemetry/nvmlcollector.h"
#include "telemetry/simcollector.h"
#include "telemetry/smicollector.h"
#include "telemetry/snapshotjson.h"
#include "wire/grpcserver.h"

namespace meridian {

namespace {

volatile std::sig_atomic_t g_stop = 0;

void onSignal(int)
{
    g_stop = 1;
}

std::string hostName()
{
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

std::optional<SimNodeKind> simKind(const std::string &name)
{
    for (SimNodeKind k : {SimNodeKind::A100, SimNodeKind::H100, SimNodeKind::Ascend910B,
                          SimNodeKind::Hybrid, SimNodeKind::Mlu370, SimNodeKind::HygonDcu}) {
        if (name == simNodeKindName(k))
            return k;
    }
    return std::nullopt;
}

Result<std::unique_ptr<Collector>> makeCollector(const AgentConfig &config,
                                                 const std::string &nodeId)
{
    if (config.collector == "sim") {
        const auto kind = simKind(config.simKind);
        if (!kind)
            return Error{
                fmt::format("sim.kind '{}': use a100, h100, ascend910b, hybrid, mlu370 or dcu",
                            config.simKind)};
        return std::unique_ptr<Collector>(std::make_unique<SimCollector>(
            SimNodeSpec{*kind, config.simSeed, nodeId, config.dataCenter, 0}));
    }
    if (config.collector == "nvml") {
        auto nvml = NvmlCollector::load(config.nvmlLibrary);
        if (!nvml)
            return nvml.error();
        return std::unique_ptr<Collector>(std::move(nvml).value());
    }
    if (config.collector == "smi")
        return std::unique_ptr<Collector>(
            std::make_unique<SmiCollector>(SmiCollector::liveSources(), nodeId));
    if (config.collector == "auto") {
        // NVML when an NVIDIA driver is there, the vendor tools otherwise.
        auto nvml = NvmlCollector::load(config.nvmlLibrary);
        if (nvml)
            return std::unique_ptr<Collector>(std::move(nvml).value());
        auto sources = SmiCollector::liveSources();
        if (sources.empty()) {
            return Error{
                fmt::format("found no accelerator to watch: {}; and no vendor tool "
                            "(nvidia-smi, npu-smi, cnmon, hy-smi) on PATH. Use "
                            "--collector sim to simulate a node",
                            nvml.error().message)};
        }
        return std::unique_ptr<Collector>(
            std::make_unique<SmiCollector>(std::move(sources), nodeId));
    }
    return Error{fmt::format("--collector '{}': use sim, nvml, smi or auto", config.collector)};
}

// A real node starts the replicas its services file declares: the runner, or none when
// there is no file. A simulated node plays replicas on its simulated cards, unless its
// services file says how to start real ones (`serving:`): then it runs those processes as
// a real node would, on its simulated cards, which is how a machine without accelerators
// demonstrates real replicas behind a real load balancer.
Result<std::unique_ptr<ReplicaRunner>> replicaRunner(const AgentConfig &config,
                                                     NodeMonitor &monitor, AgentLedger &ledger,
                                                     EventLog &events, bool simulated)
{
    if (config.servicesFile.empty())
        return std::unique_ptr<ReplicaRunner>();
    auto services = loadInferenceServices(config.servicesFile);
    if (!services)
        return services.error();
    ReplicaRunnerOptions options;
    for (const InferenceService &s : *services) {
        if (s.serving)
            options.services[s.name] = *s.serving;
    }
    if (simulated && options.services.empty())
        return std::unique_ptr<ReplicaRunner>();
    options.logDirectory = (std::filesystem::path(config.dataDir) / "replicas").string();
    auto runner = std::make_unique<ReplicaRunner>(std::move(options), monitor.inventory().cards,
                                                  ledger, SystemClock::instance());
    runner->setEventSink([&events](const Event &event) { events.append(event); });
    monitor.setReplicaSignals([runner = runner.get()] { return runner->signals(); });
    return runner;
}

void sayServing(const AgentConfig &config, const std::string &nodeId, const NodeMonitor &monitor,
                int port, const AgentLedger &ledger, const MetricsServer *metrics)
{
    const std::string shownAddress =
        config.listen.substr(0, config.listen.rfind(':')) + ":" + std::to_string(port);
    fmt::print(
        "meridian-agent: node {} ({} collector, {} cards) serving on {}{}; ledger {}\n", nodeId,
        monitor.inventory().collector, monitor.inventory().cards.size(), shownAddress,
        config.security.tlsEnabled() ? " with TLS" : " (plaintext, loopback only)", ledger.path());
    if (metrics) {
        fmt::print("meridian-agent: Prometheus metrics on {}:{}/metrics\n",
                   config.metricsListen.substr(0, config.metricsListen.rfind(':')),
                   metrics->port());
    }
    std::fflush(stdout);
}

// Until SIGINT or SIGTERM. Sampling runs on its own thread so a slow vendor tool never
// delays the streams; replicas are checked on another, so one slow to answer its health
// or metrics URL never delays a sample. They are checked as often as the node is sampled,
// and at least once a second: each sample then carries their signals fresh.
void runUntilStopped(const AgentConfig &config, NodeMonitor &monitor, ReplicaRunner *runner)
{
    const auto interval = std::chrono::milliseconds(config.sampleIntervalMs);
    PeriodicThread sampler(SystemClock::instance());
    sampler.start(interval, [&monitor] { monitor.tick(); });
    PeriodicThread replicaChecks(SystemClock::instance());
    if (runner) {
        replicaChecks.start(std::min<std::chrono::milliseconds>(interval, std::chrono::seconds(1)),
                            [runner] { runner->tick(); });
    }
    while (!g_stop)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    sampler.stop();
    replicaChecks.stop();
    fmt::print("meridian-agent: stopping\n");
}

int failed(const std::string &why)
{
    fmt::print(stderr, "meridian-agent: {}\n", why);
    return 2;
}

// The node's /metrics for a store to scrape, where the configuration asks for it (null
// where it does not).
Result<std::unique_ptr<MetricsServer>> startMetrics(const AgentConfig &config, NodeRuntime &runtime)
{
    if (config.metricsListen.empty())
        return std::unique_ptr<MetricsServer>();
    return MetricsServer::start(
        {config.metricsListen, config.security},
        [&runtime](std::string_view nodeId) { return nodeId.empty() ? &runtime : nullptr; });
}

}  // namespace

int serveAgent(const AgentConfig &config)
{
    const std::string nodeId = config.nodeId.empty() ? hostName() : config.nodeId;
    auto ledger = AgentLedger::open(config.dataDir);
    if (!ledger)
        return failed(ledger.error().message);
    auto collector = makeCollector(config, nodeId);
    if (!collector)
        return failed(collector.error().message);
    SimCollector *simulated = dynamic_cast<SimCollector *>(collector->get());
    EventLog events(10'000, ledger->get());
    NodeMonitorOptions options;
    options.sampleIntervalMs = config.sampleIntervalMs;
    options.log = [](const std::string &line) {
        std::fprintf(stderr, "meridian-agent: %s\n", line.c_str());
    };
    NodeMonitor monitor({nodeId, config.dataCenter, config.rack, hostName()},
                        std::move(collector).value(), events, *ledger.value(),
                        SystemClock::instance(), options);
    if (Status status = monitor.start(); !status)
        return failed(status.message());
    auto made = replicaRunner(config, monitor, *ledger.value(), events, simulated != nullptr);
    if (!made) {
        monitor.stop();
        return failed(made.error().message);
    }
    std::unique_ptr<ReplicaRunner> runner = std::move(made).value();
    ReplicaBackend *replicas = runner ? static_cast<ReplicaBackend *>(runner.get())
                                      : static_cast<ReplicaBackend *>(simulated);
    WorkloadManager workloads(replicas, SystemClock::instance(), monitor.inventory().cards.size(),
                              runner ? static_cast<NodeRecords *>(ledger->get()) : nullptr);
    monitor.setServiceOfCard([&workloads](uint32_t card) { return workloads.serviceOnCard(card); });
    NodeRuntime runtime;
    runtime.monitor = &monitor;
    runtime.workloads = &workloads;
    SingleNodeDirectory directory(runtime);
    Scheduler scheduler(SystemClock::instance());
    NodeAgentService service(directory, Authorizer(config.security.tokens), scheduler);
    int port = 0;
    auto server = startGuardedGrpcServer({{config.listen, &port}}, config.security, {&service});
    if (!server)
        return failed(server.error().message);
    auto metrics = startMetrics(config, runtime);
    if (!metrics) {
        server.value()->stop(0);
        return failed(metrics.error().message);
    }
    // Before it says it serves: whoever waits for that may stop it at once.
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    sayServing(config, nodeId, monitor, port, *ledger.value(), metrics->get());
    runUntilStopped(config, monitor, runner.get());
    if (*metrics)
        (*metrics)->stop();
    monitor.stop();
    service.releaseParked();
    server.value()->stop(2000);
    scheduler.stop();
    return 0;
}

int collectOnce(const AgentConfig &config, const std::vector<std::string> &fromFiles)
{
    const std::string nodeId = config.nodeId.empty() ? hostName() : config.nodeId;
    std::vector<ToolSource> sources;
    for (const std::string &spec : fromFiles) {
        auto source = SmiCollector::fileSource(spec);
        if (!source) {
            fmt::print(stderr, "meridian-agent collect: {}\n", source.error().message);
            return 2;
        }
        sources.push_back(std::move(source).value());
    }
    if (sources.empty()) {
        if (config.collector == "sim" || config.collector == "nvml") {
            auto collector = makeCollector(config, nodeId);
            if (!collector) {
                fmt::print(stderr, "meridian-agent collect: {}\n", collector.error().message);
                return 1;
            }
            auto hardware = collector.value()->discover();
            auto sample = collector.value()->sample(SystemClock::instance().nowUnixMs());
            if (!hardware || !sample) {
                fmt::print(stderr, "meridian-agent collect: {}\n",
                           (!hardware ? hardware.error() : sample.error()).message);
                return 1;
            }
            fmt::print("{}", snapshotToJson(hardware.value(), sample.value()));
            return 0;
        }
        sources = SmiCollector::liveSources();
        if (sources.empty()) {
            fmt::print(stderr,
                       "meridian-agent collect: no vendor tool on PATH; use --from KIND=FILE "
                       "or --collector sim\n");
            return 1;
        }
    }
    SmiCollector collector(std::move(sources), nodeId);
    auto reading = collector.read(true, true);
    if (!reading) {
        fmt::print(stderr, "meridian-agent collect: {}\n", reading.error().message);
        return 1;
    }
    fmt::print("{}", snapshotToJson(reading->hardware, reading->sample));
    return 0;
}

}  // namespace meridian
