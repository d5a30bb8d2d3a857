#include "fleetcommand.h"

#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <thread>
#include <variant>

#include "agent/metricsserver.h"
#include "core/inferenceservice.h"
#include "core/openfiles.h"
#include "sim/scrapetargets.h"
#include "sim/simfleet.h"

namespace meridian {

namespace {

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

// The fleet the command line asks for; an exit status when it cannot be.
std::variant<SimFleetOptions, int> fleetOptions(const FleetCommand &command)
{
    SimFleetOptions options;
    if (!command.servicesFile.empty()) {
        auto services = loadInferenceServices(command.servicesFile);
        if (!services) {
            fmt::print(stderr, "meridian-sim: {}\n", services.error().message);
            return 2;
        }
        options.services = std::move(services).value();
    }
    options.seed = command.seed;
    options.provisioningSeconds = command.provisioningSeconds;
    options.sampleIntervalMs = command.sampleIntervalMs;
    if (command.cards > 0)
        options.nodes = nodesForCards(command.cards);
    else if (command.nodes > 0)
        options.nodes = command.nodes;
    if (options.nodes > 4000) {
        fmt::print(stderr,
                   "meridian-sim: {} nodes is more than one machine's ports can serve well; "
                   "use at most 4000 (32,000 cards)\n",
                   options.nodes);
        return 2;
    }
    return options;
}

// Written beside its place and renamed over it, so Prometheus never reads half a file.
bool writeAtomically(const std::string &path, const std::string &text)
{
    std::ofstream out(path + ".tmp", std::ios::trunc);
    out << text;
    out.close();
    return out && std::rename((path + ".tmp").c_str(), path.c_str()) == 0;
}

// Every node's /nodes/ID/metrics on one more port, and its scrape targets; an exit
// status when they cannot be served or written.
int serveMetrics(const FleetCommand &command, SimFleet &fleet,
                 std::unique_ptr<MetricsServer> &metrics)
{
    MetricsServerOptions options;
    options.listen = command.metricsListen;
    options.threads = 8;  // one store scrapes every node
    options.keepAlive = false;
    auto started = MetricsServer::start(options, [&fleet](std::string_view nodeId) {
        return nodeId.empty() ? nullptr : fleet.runtimeOf(nodeId);
    });
    if (!started) {
        fmt::print(stderr, "meridian-sim: {}\n", started.error().message);
        return 2;
    }
    metrics = std::move(started).value();
    const std::string &listen = command.metricsListen;
    const std::string address =
        fmt::format("{}:{}", listen.substr(0, listen.rfind(':')), metrics->port());
    fmt::print("meridian-sim: Prometheus metrics on http://{}/nodes/<node>/metrics\n", address);
    if (!command.targetsOut.empty() &&
        !writeAtomically(command.targetsOut, scrapeTargetsJson(fleet.nodes(), address))) {
        fmt::print(stderr, "meridian-sim: cannot write {}\n", command.targetsOut);
        return 1;
    }
    return 0;
}

// The files others read: the scenario played, the inventory and the fabric file written.
int prepare(const FleetCommand &command, SimFleet &fleet)
{
    if (!command.scenario.empty()) {
        auto steps = loadScenario(command.scenario);
        Status played = steps ? fleet.play(steps.value()) : Status(steps.error());
        if (!played) {
            fmt::print(stderr, "meridian-sim: {}\n", played.message());
            return 2;
        }
    }
    if (!command.inventoryOut.empty()) {
        if (Status status = fleet.writeInventory(command.inventoryOut); !status) {
            fmt::print(stderr, "meridian-sim: {}\n", status.message());
            return 1;
        }
    }
    if (!command.fabricOut.empty()) {
        std::ofstream out(command.fabricOut);
        out << fabricFileToYaml(fleet.fabricFile());
        if (!out) {
            fmt::print(stderr, "meridian-sim: cannot write {}\n", command.fabricOut);
            return 1;
        }
    }
    return 0;
}

void printSummary(const FleetCommand &command, const SimFleet &fleet, int nodes)
{
    std::map<std::string, int> perDc;
    for (const SimNodeView &n : fleet.nodes())
        perDc[n.dataCenter] += n.cards;
    fmt::print("meridian-sim: {} nodes, {} cards (", nodes, nodes * 8);
    bool first = true;
    for (const auto &[dc, count] : perDc) {
        fmt::print("{}{} {}", first ? "" : ", ", dc, count);
        first = false;
    }
    fmt::print(") serving NodeAgent on 127.0.0.1, one port per node\n");
    fmt::print("meridian-sim: CapacityPool and SimControl on {}\n", fleet.controlAddress());
    if (!command.inventoryOut.empty())
        fmt::print("meridian-sim: inventory written to {}\n", command.inventoryOut);
    std::fflush(stdout);
}

}  // namespace

int runFleet(const FleetCommand &command)
{
    auto options = fleetOptions(command);
    if (const int *status = std::get_if<int>(&options))
        return *status;
    const SimFleetOptions &chosen = std::get<SimFleetOptions>(options);
    // One listening socket per node plus the console's connections.
    raiseOpenFileLimit();
    SimFleet fleet(chosen, SystemClock::instance());
    if (Status status = fleet.start(); !status) {
        fmt::print(stderr, "meridian-sim: {}\n", status.message());
        return 1;
    }
    if (const int status = prepare(command, fleet); status != 0)
        return status;
    std::unique_ptr<MetricsServer> metrics;
    if (!command.metricsListen.empty()) {
        if (const int status = serveMetrics(command, fleet, metrics); status != 0)
            return status;
    }
    printSummary(command, fleet, chosen.nodes);
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    const Clock &clock = SystemClock::instance();
    const double quitAfter = command.quitAfterSeconds;
    const int64_t deadlineMs = clock.steadyMs() + static_cast<int64_t>(quitAfter * 1000);
    while (!g_stop && (quitAfter <= 0 || clock.steadyMs() < deadlineMs))
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (metrics)
        metrics->stop();
    fleet.stop();
    return 0;
}

}  // namespace meridian
