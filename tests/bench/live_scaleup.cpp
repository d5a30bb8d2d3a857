// Elastic scale-up live: real processes on loopback, in real time. HAProxy fronts the
// service; steady nodes run two replicas each; meridian-pool leases spare nodes through
// its local provider, whose "power on" starts a real meridian-agent (the NVML stand-in, 8
// cards) after --provision seconds; meridian-scaled runs in automatic mode; open-loop load
// (meridian-sim drive) goes through HAProxy and is stepped ×3. Replicas are
// meridian-sim serve-replica: --cold seconds where the node's disk lacks the weights,
// --load seconds where they are there (the pool prepares its standby nodes so).
// Prints each scale-up step's decision → serving, whether its node stood by, and how long
// after the step the p95 time to first token through HAProxy, in 30 s windows, stays
// within the 5 s objective.
//   live_scaleup [--standby N] [--cold S] [--load S] [--provision S] [--base RPS]
//                [--before S] [--after S] [--dir DIR]
#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "agentprocess.h"
#include "balancer/haproxyruntime.h"
#include "childprocess.h"
#include "core/percentile.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "poolleases.h"
#include "wire/security.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

struct Settings {
    int standby = 0;
    double coldSeconds = 60;
    double loadSeconds = 10;
    int provisionSeconds = 20;
    double baseRps = 8;
    int beforeSeconds = 60;
    int afterSeconds = 360;
    int spareNodes = 4;
    int steadyNodes = 2;
    std::string dir;
};

int64_t nowUnixMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string address(int port)
{
    return fmt::format("127.0.0.1:{}", port);
}

// What the controller knows of the service; `serving` adds the node's own command.
std::string servicesYaml(const Settings &s, int runtimePort, const std::string &weightsDir,
                         int replicaPort = 0)
{
    std::string yaml = fmt::format(
        "services:\n"
        "  - name: chat\n"
        "    model: qwen\n"
        "    cards_per_replica: 4\n"
        "    slo: {{ttft_p95_seconds: 5}}\n"
        "    replicas: {{min: 1, max: 16}}\n"
        "    cold_start_seconds: {}\n"
        "    runs_on: [{{card_model: A100-SXM4-80GB, requests_per_second_per_card: 1.0, "
        "max_concurrency_per_card: 2}}]\n"
        "    rent: {{card_models: [A100-SXM4-80GB], max_cards: 64, max_cny_per_card_hour: 3.0, "
        "budget_cny_per_hour: 200}}\n"
        "    load_balancer: {{kind: haproxy, runtime_api: 127.0.0.1:{}, backend: chat, "
        "server_options: maxconn 16 inter 1s fall 2 rise 1}}\n",
        s.coldSeconds, runtimePort);
    if (!weightsDir.empty())
        yaml += fmt::format(
            "    serving:\n"
            "      command: [{}, serve-replica, --port, \"{{port}}\", --model, \"{{model}}\", "
            "--max-concurrency, \"8\", --decode-tokens-per-second, \"35\", "
            "--cold-start-seconds, \"{}\", --weights-dir, {}, --load-seconds, \"{}\"]\n"
            "      port: {}\n"
            "      startup_timeout_seconds: 900\n",
            MERIDIAN_SIM_BIN, s.coldSeconds, weightsDir, s.loadSeconds, replicaPort);
    return yaml;
}

// The first of two ports in a row that nobody else here is given: a node's two replicas.
int twoPorts()
{
    for (;;) {
        const int first = test::freePort();
        if (test::freePort() == first + 1)
            return first;
    }
}

// A node's agent files; returns the command line that starts its agent.
std::string nodeAgent(const Settings &s, int runtimePort, const std::string &node,
                      const std::string &agentAddress)
{
    const std::string dir = s.dir + "/" + node;
    std::filesystem::create_directories(dir + "/weights");
    // Every node is this host: each node's replicas get ports of their own (the second
    // replica on a node takes the port after the first's).
    std::ofstream(dir + "/services.yaml")
        << servicesYaml(s, runtimePort, dir + "/weights", twoPorts());
    std::ofstream(dir + "/agent.yaml")
        << "node_id: " << node
        << "\ndata_center: xiamen\ncollector: nvml\nnvml_library: " << MERIDIAN_FAKE_NVML
        << "\nservices_file: " << dir << "/services.yaml\n";
    return fmt::format(
        "env MERIDIAN_FAKE_NVML_CARDS=8 {} --config {}/agent.yaml --listen {} "
        "--data-dir {}/data",
        MERIDIAN_AGENT_BIN, dir, agentAddress, dir);
}

void writePool(const Settings &s, int runtimePort, const std::string &poolAddress)
{
    std::ofstream nodes(s.dir + "/spare-nodes.yaml");
    nodes << "ready_timeout_seconds: 120\nnodes:\n";
    for (int i = 1; i <= s.spareNodes; ++i) {
        const std::string node = fmt::format("spare-{}", i), dir = s.dir + "/" + node;
        const std::string agentAddress = address(test::freePort());
        const std::string start = fmt::format(
            "mkdir {0}/on 2>/dev/null || exit 0; (sleep {1}; exec {2}) > {0}/agent.log "
            "2>&1 & echo $! > {0}/agent.pid",
            dir, s.provisionSeconds, nodeAgent(s, runtimePort, node, agentAddress));
        nodes << "  - node_id: " << node << "\n    agent_address: " << agentAddress << "\n"
              << "    power_on: [sh, -c, " << nlohmann::json(start).dump() << "]\n"
              << "    power_off: [sh, -c, "
              << nlohmann::json(fmt::format("kill $(cat {0}/agent.pid); rmdir {0}/on", dir)).dump()
              << "]\n    prepare: [touch, " << dir << "/weights/qwen.weights]\n";
    }
    std::ofstream(s.dir + "/pool.yaml")
        << "listen: " << poolAddress << "\ndata_dir: " << s.dir << "/pool\nproviders:\n"
        << "  - name: spare\n    command: [" << MERIDIAN_POOL_BIN << ", local-provider, --nodes, "
        << s.dir << "/spare-nodes.yaml, --state, " << s.dir << "/spare-state.json]\n"
        << "    offers:\n      - {offer_id: spare-a100, region: xiamen, vendor: nvidia, "
        << "card_model: A100-SXM4-80GB, cards_per_node: 8, nodes: " << s.spareNodes
        << ", price_cny_per_card_hour: 2.6, provisioning_seconds: " << s.provisionSeconds
        << ", standby_nodes: " << s.standby << "}\n";
}

void writeScaled(const Settings &s, const std::vector<std::string> &steadyAgents,
                 const std::string &pool, int runtimePort)
{
    std::string agents;
    for (size_t i = 0; i < steadyAgents.size(); ++i)
        agents += fmt::format("      - {{node: steady-{}, address: {}}}\n", i + 1, steadyAgents[i]);
    std::ofstream(s.dir + "/services.yaml") << servicesYaml(s, runtimePort, "");
    std::ofstream(s.dir + "/inventory.yaml")
        << "capacity_pool: " << pool << "\ndata_centers:\n  - name: xiamen\n    agents:\n"
        << agents;
    std::ofstream(s.dir + "/scaled.yaml")
        << "listen: " << address(test::freePort()) << "\ncontroller_id: live-scaleup\n"
        << "journal: journal.sqlite\ninventory: inventory.yaml\nservices: services.yaml\n"
        << "mode: automatic\ninterval_seconds: 5\nwarm_up_seconds: 15\n";
}

void writeHaproxy(const Settings &s, int frontPort, int runtimePort)
{
    std::ofstream(s.dir + "/haproxy.cfg")
        << "global\n    stats socket ipv4@127.0.0.1:" << runtimePort << " level admin\n"
        << "defaults\n    mode http\n    timeout connect 2s\n    timeout client 600s\n"
        << "    timeout server 600s\n    timeout queue 600s\n"
        << "frontend chat\n    bind 127.0.0.1:" << frontPort << "\n    default_backend chat\n"
        << "backend chat\n    balance leastconn\n    option httpchk GET /health\n"
        << "    default-server inter 1s fall 2 rise 1\n";
}

// A steady node's replicas, started as whoever deploys the service would: two of four
// cards.
bool startSteadyReplicas(const std::string &agentAddress, const std::string &node)
{
    auto stub = test::connect(agentAddress);
    if (!test::untilAnswering(*stub))
        return false;
    for (int r = 0; r < 2; ++r) {
        v1::ApplyWorkloadRequest request;
        request.set_idempotency_key(fmt::format("{}-{}", node, r));
        request.set_requested_by("deploy");
        auto *start = request.mutable_start();
        start->set_replica_id(fmt::format("chat-{}-{}", node, r));
        start->set_service("chat");
        start->set_model("qwen");
        for (uint32_t c = 0; c < 4; ++c)
            start->add_card_indices(static_cast<uint32_t>(r * 4) + c);
        grpc::ClientContext context;
        test::withDeadline(context);
        v1::ApplyWorkloadResponse response;
        if (!stub->ApplyWorkload(&context, request, &response).ok())
            return false;
    }
    return true;
}

// When each server was first UP at HAProxy, polled every second.
class ServerWatch {
public:
    explicit ServerWatch(int runtimePort)
        : m_runtime(address(runtimePort)), m_thread([this] { run(); })
    {}
    ~ServerWatch()
    {
        m_stop = true;
        m_thread.join();
    }
    std::map<std::string, int64_t> firstUp() const
    {
        std::lock_guard lock(m_mutex);
        return m_firstUp;
    }
    size_t upNow() const
    {
        std::lock_guard lock(m_mutex);
        return m_upNow;
    }

private:
    void run()
    {
        while (!m_stop) {
            if (auto servers = m_runtime.servers("chat")) {
                std::lock_guard lock(m_mutex);
                m_upNow = 0;
                for (const BalancedServer &server : *servers) {
                    if (server.status.rfind("UP", 0) != 0)
                        continue;
                    ++m_upNow;
                    m_firstUp.emplace(server.name, nowUnixMs());
                }
            }
            std::this_thread::sleep_for(1s);
        }
    }
    HaproxyRuntime m_runtime;
    mutable std::mutex m_mutex;
    std::map<std::string, int64_t> m_firstUp;
    size_t m_upNow = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

struct Sample {
    int64_t dueUnixMs = 0;
    double ttft = 0;
    bool ok = false;
};

std::vector<Sample> readSamples(const std::string &path)
{
    std::vector<Sample> samples;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        Sample s;
        char comma = 0;
        double e2e = 0;
        int ok = 0;
        std::istringstream row(line);
        if (row >> s.dueUnixMs >> comma >> s.ttft >> comma >> e2e >> comma >> ok) {
            s.ok = ok == 1;
            samples.push_back(s);
        }
    }
    return samples;
}

// p95 TTFT of each 30 s window from `fromMs`; a failed request counts as never answered.
std::vector<double> windowP95(const std::vector<Sample> &samples, int64_t fromMs, int seconds)
{
    std::vector<double> out;
    for (int w = 0; w * 30 < seconds; ++w) {
        std::vector<double> ttft;
        for (const Sample &s : samples) {
            if (s.dueUnixMs >= fromMs + w * 30'000 && s.dueUnixMs < fromMs + (w + 1) * 30'000)
                ttft.push_back(s.ok ? s.ttft : 1e9);
        }
        out.push_back(ttft.empty() ? 0 : nearestRankPercentile(ttft, 0.95));
    }
    return out;
}

int standbyReady(const std::string &pool)
{
    auto stub = v1::CapacityPool::NewStub(makeChannel(pool, {}));
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ListOffersResponse response;
    if (!stub->ListOffers(&context, {}, &response).ok() || response.offers().empty())
        return -1;
    return static_cast<int>(response.offers(0).standby_nodes_ready());
}

std::string takenFrom(const std::string &pool, const std::string &leaseId)
{
    auto stub = v1::CapacityPool::NewStub(makeChannel(pool, {}));
    for (const v1::Lease &l : test::allPoolLeases(*stub)) {
        if (l.lease_id() == leaseId)
            return l.taken_from();
    }
    return "";
}

// Each scale-up step: when it was decided, when it served, when HAProxy first had one of
// its replicas UP, and whether its node stood by.
void reportSteps(const Settings &s, const std::string &pool, int64_t stepUnixMs,
                 const std::map<std::string, int64_t> &firstUp)
{
    SQLite::Database journal(s.dir + "/journal.sqlite", SQLite::OPEN_READONLY);
    SQLite::Statement steps(journal,
                            "SELECT id, state, lease_id, node_id, created_unix_ms, "
                            "updated_unix_ms, idempotency_key FROM scaling_step ORDER BY id");
    while (steps.executeStep()) {
        const std::string state = steps.getColumn(1).getString();
        const std::string lease = steps.getColumn(2).getString();
        const int64_t created = steps.getColumn(4).getInt64();
        const int64_t updated = steps.getColumn(5).getInt64();
        const std::string standby = takenFrom(pool, lease);
        const std::string server = "meridian-" + steps.getColumn(6).getString() + "_";
        std::optional<int64_t> up;
        for (const auto &[name, at] : firstUp) {
            if (name.rfind(server, 0) == 0)
                up = std::min(up.value_or(at), at);
        }
        std::string served;
        if (state == "serving")
            served = fmt::format(" {:.1f} s after the decision", (updated - created) / 1000.0);
        if (up)
            served += fmt::format(", UP at HAProxy {:.1f} s after it", (*up - created) / 1000.0);
        fmt::print("step {}: decided {:+.1f} s after the step, {}{}, node {} ({}){}\n",
                   steps.getColumn(0).getInt(), (created - stepUnixMs) / 1000.0, state, served,
                   steps.getColumn(3).getString(), lease,
                   lease.empty()     ? ""
                   : standby.empty() ? ", provisioned for it"
                                     : ", a standby node");
    }
}

void reportLoad(const Settings &s, int64_t stepUnixMs)
{
    std::vector<Sample> samples = readSamples(s.dir + "/base.csv");
    const std::vector<Sample> more = readSamples(s.dir + "/step.csv");
    samples.insert(samples.end(), more.begin(), more.end());
    const std::vector<double> before =
        windowP95(samples, stepUnixMs - s.beforeSeconds * 1000, s.beforeSeconds);
    const std::vector<double> after = windowP95(samples, stepUnixMs, s.afterSeconds);
    fmt::print("p95 TTFT by 30 s window before the step: {:.2f}\n", fmt::join(before, " "));
    fmt::print("p95 TTFT by 30 s window from the step:   {:.2f}\n", fmt::join(after, " "));
    size_t recovered = after.size();
    while (recovered > 0 && after[recovered - 1] <= 5.0)
        --recovered;
    if (recovered == after.size())
        fmt::print("not back within 5 s by the end ({} s)\n", s.afterSeconds);
    else
        fmt::print("back within 5 s {} s after the step, and stayed\n", recovered * 30);
    size_t inside = 0, total = 0;
    for (const Sample &x : samples) {
        if (x.dueUnixMs >= stepUnixMs) {
            ++total;
            inside += x.ok && x.ttft <= 5.0;
        }
    }
    fmt::print("requests after the step inside 5 s: {:.2f}% of {}\n",
               total ? 100.0 * inside / total : 0.0, total);
}

std::unique_ptr<test::ChildProcess> drive(const Settings &s, int frontPort, double rps, int seconds,
                                          const std::string &name)
{
    return std::make_unique<test::ChildProcess>(
        std::vector<std::string>{MERIDIAN_SIM_BIN, "drive", "--url",
                                 fmt::format("http://127.0.0.1:{}", frontPort), "--rps",
                                 fmt::format("{}", rps), "--seconds", std::to_string(seconds),
                                 "--connections", "512", "--samples", s.dir + "/" + name + ".csv",
                                 "--seed", std::to_string(name.size() + 1)},
        s.dir + "/" + name + ".log");
}

int run(Settings s)
{
    const int frontPort = test::freePort(), runtimePort = test::freePort();
    const std::string pool = address(test::freePort());
    writeHaproxy(s, frontPort, runtimePort);
    test::ChildProcess haproxy({"haproxy", "-db", "-f", s.dir + "/haproxy.cfg"},
                               s.dir + "/haproxy.log");
    std::vector<std::string> steadyAgents;
    std::vector<std::unique_ptr<test::ChildProcess>> steady;
    for (int n = 1; n <= s.steadyNodes; ++n) {
        const std::string node = fmt::format("steady-{}", n);
        steadyAgents.push_back(address(test::freePort()));
        const std::string command = nodeAgent(s, runtimePort, node, steadyAgents.back());
        std::ofstream(s.dir + "/" + node + "/weights/qwen.weights") << "qwen\n";
        steady.push_back(std::make_unique<test::ChildProcess>(
            std::vector<std::string>{"sh", "-c", "exec " + command},
            s.dir + "/" + node + "/agent.log"));
        if (!startSteadyReplicas(steadyAgents.back(), node))
            return fmt::print(stderr, "{}'s agent did not start its replicas\n", node), 1;
    }
    writePool(s, runtimePort, pool);
    test::ChildProcess poolProcess({MERIDIAN_POOL_BIN, "--config", s.dir + "/pool.yaml"},
                                   s.dir + "/pool.log");
    writeScaled(s, steadyAgents, pool, runtimePort);
    test::ChildProcess scaled({MERIDIAN_SCALED_BIN, "--config", s.dir + "/scaled.yaml"},
                              s.dir + "/scaled.log");
    ServerWatch watch(runtimePort);
    // Ready when the steady replicas take requests and the standby stands by.
    const bool ready = test::waitUntil(
        [&] {
            return watch.upNow() >= static_cast<size_t>(2 * s.steadyNodes) &&
                   standbyReady(pool) == s.standby;
        },
        std::chrono::seconds(static_cast<int>(s.coldSeconds + s.provisionSeconds) + 120));
    if (!ready)
        return fmt::print(stderr, "not ready; see {}\n", s.dir), 1;
    fmt::print("ready: {} servers at HAProxy, {} standby node(s)\n", watch.upNow(), s.standby);
    auto base = drive(s, frontPort, s.baseRps, s.beforeSeconds + s.afterSeconds, "base");
    std::this_thread::sleep_for(std::chrono::seconds(s.beforeSeconds));
    const int64_t stepUnixMs = nowUnixMs();
    auto step = drive(s, frontPort, 2 * s.baseRps, s.afterSeconds, "step");
    fmt::print("load ×3: {} → {} requests/s\n", s.baseRps, 3 * s.baseRps);
    test::waitUntil([&] { return base->ended() && step->ended(); },
                    std::chrono::seconds(s.afterSeconds + 600));
    reportSteps(s, pool, stepUnixMs, watch.firstUp());
    reportLoad(s, stepUnixMs);
    return 0;
}

}  // namespace

int main(int argc, char **argv)
{
    Settings s;
    CLI::App app{"Elastic scale-up live: a ×3 load step through HAProxy, real processes"};
    app.add_option("--standby", s.standby, "standby nodes the pool keeps (0)");
    app.add_option("--cold", s.coldSeconds, "a replica's start without weights on disk (60)");
    app.add_option("--load", s.loadSeconds, "a replica's start with weights on disk (10)");
    app.add_option("--provision", s.provisionSeconds, "a spare node's power-on to agent (20)");
    app.add_option("--steady", s.steadyNodes, "steady nodes, two replicas each (2)");
    app.add_option("--base", s.baseRps, "requests/s before the step (8)");
    app.add_option("--before", s.beforeSeconds, "seconds of base load before the step (60)");
    app.add_option("--after", s.afterSeconds, "seconds of ×3 load (360)");
    app.add_option("--dir", s.dir, "where files and logs go (a new temporary directory)");
    CLI11_PARSE(app, argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (s.dir.empty()) {
        char pattern[] = "/tmp/live-scaleup-XXXXXX";
        s.dir = ::mkdtemp(pattern);
    }
    std::filesystem::create_directories(s.dir);
    fmt::print("files and logs in {}\n", s.dir);
    const int status = run(s);
    // Replicas live in sessions of their own; everything started here names a file in
    // the directory (this program names only the directory itself).
    std::fflush(stdout);
    std::system(fmt::format("pkill -f -- '{}/' >/dev/null 2>&1", s.dir).c_str());
    return status;
}
