// meridian-scaled: the autoscaler as a service of its own, so rented capacity is looked
// after (and given back at the end of its paid hour) whether or not a console runs.
//   meridian-scaled --config /etc/meridian/scaled.yaml
// Consoles whose inventory names `scaling_controller:` show its plans and send
// approvals through its ScalingControl service.
//   meridian-scaled status --address 127.0.0.1:50081 [--ca-file F --token-file F]
// prints what a running one is doing, for whoever is logged in to its host.
//   meridian-scaled replicas start --agent HOST:PORT --service chat --count 2 ...
// starts (stops, lists) a service's steady replicas on one node.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <map>
#include <memory>
#include <thread>

#include "autoscaler/remotescalingcontrol.h"
#include "autoscaler/scaledconfig.h"
#include "autoscaler/scalingcontroller.h"
#include "autoscaler/scalingcontrolservice.h"
#include "autoscaler/scalingmetrics.h"
#include "autoscaler/scalingstatustext.h"
#include "core/brokenpipes.h"
#include "core/clock.h"
#include "core/openfiles.h"
#include "crashdrill.h"
#include "fleet/fleetstate.h"
#include "fleetlink/fleetclient.h"
#include "fleetlink/inventoryfile.h"
#include "replicascommand.h"
#include "scrape/scrapeendpoint.h"
#include "wire/grpcserver.h"
#include "wire/security.h"

namespace {

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

int fail(const std::string &message)
{
    fmt::print(stderr, "meridian-scaled: {}\n", message);
    return 2;
}

// /metrics, where the configuration asks for it; null when it does not.
meridian::Result<std::unique_ptr<meridian::ScrapeEndpoint>> startMetrics(
    const meridian::ScaledConfig &config, const meridian::ScalingMetrics &metrics)
{
    using namespace meridian;
    if (config.metricsListen.empty())
        return std::unique_ptr<ScrapeEndpoint>();
    ScrapeEndpointOptions options;
    options.listen = config.metricsListen;
    options.security = config.security;
    options.threads = 4;
    return ScrapeEndpoint::start(options, [&metrics](const ScrapeRequest &request) {
        if (request.path != "/metrics")
            return ScrapeAnswer{404, "no such path\n", "text/plain"};
        return ScrapeAnswer{200, metrics.exposition()};
    });
}

meridian::ScalingControllerOptions controllerOptions(
    const meridian::ScaledConfig &config,
    std::map<std::string, meridian::ScalingPolicyConfig> servicePolicies)
{
    meridian::ScalingControllerOptions options;
    options.servicePolicies = std::move(servicePolicies);
    options.mode = config.mode;
    options.modeInJournal = true;
    options.requestedBy = config.controllerId;
    options.intervalMs = static_cast<int64_t>(config.intervalSeconds * 1000);
    options.warmUpMs = static_cast<int64_t>(config.warmUpSeconds * 1000);
    options.policy = config.policy;
    return options;
}

void auditStart(meridian::ScalingJournal &journal, const meridian::ScaledConfig &config,
                meridian::ApprovalMode mode)
{
    using namespace meridian;
    if (Status audited = journal.audit(
            {SystemClock::instance().nowUnixMs(), config.controllerId,
             fmt::format("meridian-scaled started, approval mode {}", approvalModeName(mode)),
             "journal " + config.journalFile});
        !audited) {
        // Not fatal: the first pass writes the journal too and shows its problem.
        fmt::print(stderr, "meridian-scaled: {}: {}\n", config.journalFile,
                   audited.error().message);
    }
}

// Everything meridian-scaled starts from, read and checked: its configuration, the
// inventory (with the pool to rent from), the services and their policies, its journal.
struct ScaledInputs {
    meridian::ScaledConfig config;
    meridian::FleetInventory inventory;
    std::vector<meridian::InferenceService> services;
    std::map<std::string, meridian::ScalingPolicyConfig> policies;
    std::unique_ptr<meridian::ScalingJournal> journal;
};

meridian::Result<ScaledInputs> loadInputs(const std::string &configFile, const std::string &listen)
{
    using namespace meridian;
    ScaledInputs in;
    ScaledConfig &config = in.config;
    if (Status s = loadScaledConfig(configFile, config); !s)
        return Error{s.message()};
    if (!listen.empty())
        config.listen = listen;
    auto inventory = loadInventory(config.inventoryFile);
    if (!inventory)
        return Error{inventory.error().message};
    if (inventory->capacityPool.empty())
        return Error{config.inventoryFile + ": names no capacity_pool, and scaling rents from it"};
    if (Status room = checkRoomForAgents(inventory->agents.size(), raiseOpenFileLimit(), false);
        !room)
        return Error{config.inventoryFile + ": " + room.message()};
    auto services = loadInferenceServices(config.servicesFile);
    if (!services)
        return Error{services.error().message};
    auto policies = loadServicePolicies(services.value());
    if (!policies)
        return Error{policies.error().message};
    auto journal = ScalingJournal::openOwn(config.journalFile);
    if (!journal)
        return Error{journal.error().message};
    if (Status drill = armCrashDrill(**journal); !drill)
        return Error{drill.message()};
    in.inventory = std::move(inventory).value();
    in.services = std::move(services).value();
    in.policies = std::move(policies).value();
    in.journal = std::move(journal).value();
    return in;
}

int serve(const std::string &configFile, const std::string &listen)
{
    using namespace meridian;
    auto in = loadInputs(configFile, listen);
    if (!in)
        return fail(in.error().message);
    const ScaledConfig &config = in->config;
    const FleetInventory &inventory = in->inventory;
    const Clock &clock = SystemClock::instance();
    FleetState local;
    FleetClient client(local, clock);
    client.connect(inventory);
    ScalingController controller(std::move(in->services), *in->journal, local,
                                 inventory.capacityPool, inventory.security, clock,
                                 controllerOptions(config, std::move(in->policies)));
    ScalingControlService service(controller, config.controllerId, config.security.tokens);
    int port = 0;
    auto server = startGuardedGrpcServer({{config.listen, &port}}, config.security, {&service});
    if (!server) {
        client.stop();
        return fail(server.error().message);
    }
    auditStart(*in->journal, config, controller.view().mode);
    ScalingMetrics metrics;
    auto metricsEndpoint = startMetrics(config, metrics);
    if (!metricsEndpoint) {
        client.stop();
        return fail(metricsEndpoint.error().message);
    }
    controller.start();
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    fmt::print("meridian-scaled: {} serving on {}:{}{}; {} agents, pool {}, journal {}\n",
               config.controllerId, config.listen.substr(0, config.listen.rfind(':')), port,
               config.security.tlsEnabled() ? " with TLS" : " (plaintext, loopback only)",
               inventory.agents.size(), inventory.capacityPool, config.journalFile);
    if (*metricsEndpoint)
        fmt::print("meridian-scaled: Prometheus metrics on {}:{}/metrics\n",
                   config.metricsListen.substr(0, config.metricsListen.rfind(':')),
                   (*metricsEndpoint)->port());
    std::fflush(stdout);
    // The view is copied (journal, audit, an hour of points) once a pass, not each 100 ms.
    const auto passMs = static_cast<int>(config.intervalSeconds * 1000);
    for (int waitedMs = passMs; !g_stop; waitedMs += 100) {
        if (waitedMs >= passMs) {
            metrics.record(controller.view());
            waitedMs = 0;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    fmt::print("meridian-scaled: stopping\n");
    std::fflush(stdout);
    // The pass under way finishes; the journal already says what each step is, so the
    // next start carries on from there.
    server.value()->stop(2000);
    controller.stop();
    client.stop();
    return 0;
}

struct StatusOptions {
    std::string address = meridian::ScaledConfig{}.listen;
    std::string caFile;
    std::string tokenFile;
};

int status(const StatusOptions &options)
{
    using namespace meridian;
    auto security = clientSecurityFromFiles(options.caFile, options.tokenFile);
    if (!security)
        return fail(security.error().message);
    RemoteScalingControl controller(options.address, security.value(), SystemClock::instance());
    if (Status polled = controller.poll(); !polled) {
        fmt::print(stderr, "meridian-scaled status: {}\n", polled.message());
        return 1;
    }
    fmt::print("{}", scalingStatusText(controller.view(), controller.controllerId(),
                                       options.address, SystemClock::instance().nowUnixMs()));
    return 0;
}

}  // namespace

int main(int argc, char **argv)
{
    meridian::ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    CLI::App app{
        "Meridian autoscaler, headless: plans, leases and replicas for inference "
        "services, with consoles to approve"};
    std::string configFile = "/etc/meridian/scaled.yaml";
    std::string listen;
    app.add_option("--config", configFile, "YAML configuration file");
    app.add_option("--listen", listen, "address to serve on (overrides the file's listen:)");
    StatusOptions statusOptions;
    CLI::App *statusCommand = app.add_subcommand("status", "what a running controller is doing");
    statusCommand->add_option("--address", statusOptions.address, "its host:port");
    statusCommand->add_option("--ca-file", statusOptions.caFile, "the CA of its certificate (TLS)");
    statusCommand->add_option("--token-file", statusOptions.tokenFile, "a file with a token");
    meridian::ReplicasCommand replicas;
    CLI::App *replicasCommand = app.add_subcommand(
        "replicas", "start, stop or list a service's steady replicas on one node (its agent)");
    replicasCommand->add_option("action", replicas.action, "start | stop | list")->required();
    replicasCommand->add_option("--agent", replicas.agent, "the node's agent, HOST:PORT")
        ->required();
    replicasCommand->add_option("--service", replicas.service,
                                "the service (its serving: section in the agent's services file)");
    replicasCommand->add_option("--model", replicas.model, "the model (default: the service)");
    replicasCommand->add_option("--name", replicas.name,
                                "the replicas' key: NAME/r1, NAME/r2 … (default steady-SERVICE)");
    replicasCommand->add_option("--count", replicas.count, "how many (1)")
        ->check(CLI::Range(1, 64));
    replicasCommand->add_option("--cards-per-replica", replicas.cardsPerReplica, "(1)")
        ->check(CLI::Range(1, 64));
    replicasCommand
        ->add_option("--cards", replicas.cards, "the node's cards they may take (default 0-7)")
        ->delimiter(',');
    replicasCommand
        ->add_option("--wait", replicas.waitSeconds,
                     "start: wait until they serve, at most this many seconds")
        ->check(CLI::Range(0.0, 3600.0));
    replicasCommand->add_option("--ca-file", replicas.caFile, "the CA of the agent's certificate");
    replicasCommand->add_option("--token-file", replicas.tokenFile,
                                "a file with an operator token for the agent");
    CLI11_PARSE(app, argc, argv);
    if (statusCommand->parsed())
        return status(statusOptions);
    if (replicasCommand->parsed())
        return meridian::runReplicas(replicas);
    return serve(configFile, listen);
}
