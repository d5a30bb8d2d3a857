// meridian-agent: the node agent. `meridian-agent [options]` serves NodeAgent;
// `meridian-agent collect --once --json` prints what it sees and exits.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "agentcommands.h"
#include "core/brokenpipes.h"
#include "core/openfiles.h"
#include "telemetry/smicollector.h"

int main(int argc, char **argv)
{
    using namespace meridian;
    ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    // Consoles, Prometheus and tools each hold connections; systemd's 1024 is too few.
    raiseOpenFileLimit();
    CLI::App app{
        "Meridian node agent: inventory, telemetry, events, fabric, usage and workloads "
        "over gRPC"};
    std::string configFile;
    std::string listen;
    std::string metricsListen;
    std::string collector;
    std::string dataDir;
    std::string servicesFile;
    app.add_option("--config", configFile, "YAML configuration file");
    app.add_option("--listen", listen, "address to serve on (default 127.0.0.1:50051)");
    app.add_option("--metrics-listen", metricsListen,
                   "serve /metrics for Prometheus here, e.g. 127.0.0.1:9400 (default: off)");
    app.add_option("--collector", collector, "sim | nvml | smi | auto (default auto)");
    app.add_option("--data-dir", dataDir, "where the usage ledger and events are kept");
    app.add_option("--services", servicesFile,
                   "inference services (YAML): their serving: commands are the replicas this "
                   "agent may start");

    auto *collect = app.add_subcommand("collect", "print the normalised view of this node once");
    collect->fallthrough();  // `collect --collector sim` reads as naturally as the other order
    bool once = false;
    bool json = false;
    std::vector<std::string> from;
    collect->add_flag("--once", once, "collect one sample and exit (the only mode)");
    collect->add_flag("--json", json, "print JSON (the only format)");
    collect->add_option("--from", from,
                        "KIND=FILE: parse a captured tool output instead of running the tool; KIND "
                        "is one of " +
                            toolKindNames());
    CLI11_PARSE(app, argc, argv);

    AgentConfig config;
    if (!configFile.empty()) {
        if (Status status = loadAgentConfig(configFile, config); !status) {
            fmt::print(stderr, "meridian-agent: {}\n", status.message());
            return 2;
        }
    }
    if (!listen.empty())
        config.listen = listen;
    if (!metricsListen.empty())
        config.metricsListen = metricsListen;
    if (!collector.empty())
        config.collector = collector;
    if (!dataDir.empty())
        config.dataDir = dataDir;
    if (!servicesFile.empty())
        config.servicesFile = servicesFile;
    if (*collect)
        return collectOnce(config, from);
    return serveAgent(config);
}
