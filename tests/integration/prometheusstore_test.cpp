// The fleet through a real Prometheus-compatible store: a real meridian-sim serves every
// node's /metrics, a real Prometheus or VictoriaMetrics (Debian's packages, started here
// on a free port) scrapes it every second, and the console's PrometheusSource reads the
// store into FleetState. Faults are injected into the running simulator.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <SQLiteCpp/SQLiteCpp.h>

#include "agentprocess.h"
#include "childprocess.h"
#include "core/clock.h"
#include "history/historystore.h"
#include "promsource/prometheussource.h"
#include "testsupport.h"

namespace meridian {
namespace {

using test::ChildProcess;
using test::TempDir;
using test::waitUntil;

constexpr int kNodes = 20;  // 160 cards in three data centers

// A simulator whose nodes a store scrapes; its control address takes faults.
class ScrapedSim {
public:
    explicit ScrapedSim(const TempDir &dir)
        : m_targets(dir.file("targets.json"))
        , m_process({MERIDIAN_SIM_BIN, "--nodes", std::to_string(kNodes), "--metrics-listen",
                     "127.0.0.1:0", "--scrape-targets-out", m_targets},
                    dir.file("sim.log"))
    {
        waitUntil([this] { return std::filesystem::exists(m_targets); });
        std::smatch match;
        const std::string log = m_process.log();
        static const std::regex control("SimControl on (\\S+)");
        if (std::regex_search(log, match, control))
            m_control = match[1];
    }
    const std::string &targetsFile() const { return m_targets; }

    // `meridian-sim fault …` against the running simulator, as an operator would.
    int fault(const std::string &node, const std::string &kind, int card = 0) const
    {
        const std::string command =
            fmt::format("{} fault --control {} --node {} --kind {} --card {} >/dev/null 2>&1",
                        MERIDIAN_SIM_BIN, m_control, node, kind, card);
        return std::system(command.c_str());
    }

private:
    std::string m_targets;
    ChildProcess m_process;
    std::string m_control;
};

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream(path) << text;
}

std::unique_ptr<ChildProcess> startPrometheus(const TempDir &dir, const std::string &targets,
                                              int port)
{
    writeFile(dir.file("prometheus.yml"),
              fmt::format("global: {{scrape_interval: 1s, scrape_timeout: 1s}}\n"
                          "scrape_configs:\n"
                          "  - job_name: meridian\n"
                          "    file_sd_configs: [{{files: ['{}'], refresh_interval: 1s}}]\n",
                          targets));
    auto process = std::make_unique<ChildProcess>(
        std::vector<std::string>{"prometheus", "--config.file=" + dir.file("prometheus.yml"),
                                 "--storage.tsdb.path=" + dir.file("tsdb"),
                                 fmt::format("--web.listen-address=127.0.0.1:{}", port)},
        dir.file("prometheus.log"));
    return process;
}

std::unique_ptr<ChildProcess> startVictoriaMetrics(const TempDir &dir, const std::string &targets,
                                                   int port)
{
    writeFile(dir.file("scrape.yml"), fmt::format("global: {{scrape_interval: 1s}}\n"
                                                  "scrape_configs:\n"
                                                  "  - job_name: meridian\n"
                                                  "    file_sd_configs: [{{files: ['{}']}}]\n",
                                                  targets));
    // Queries normally leave out the newest 30 s (for late writers); a console wants them.
    return std::make_unique<ChildProcess>(
        std::vector<std::string>{
            "victoria-metrics", fmt::format("-httpListenAddr=127.0.0.1:{}", port),
            "-storageDataPath=" + dir.file("vm"), "-promscrape.config=" + dir.file("scrape.yml"),
            "-promscrape.fileSDCheckInterval=1s", "-search.latencyOffset=1s",
            "-retentionPeriod=1d"},
        dir.file("vm.log"));
}

// One poll: whether every card has a utilisation from the store.
bool allCardsRead(PrometheusSource &source, FleetState &state, size_t cards)
{
    if (!source.pollOnce())
        return false;
    const FleetSnapshot snapshot = state.snapshot(SystemClock::instance().nowUnixMs());
    size_t read = 0;
    for (float u : snapshot.utilization)
        read += std::isfinite(u) ? 1 : 0;
    return snapshot.cardCount() == cards && read == cards;
}

// Polls until every simulated card has a utilisation from the store.
bool untilAllCardsRead(PrometheusSource &source, FleetState &state, size_t cards)
{
    return waitUntil([&] { return allCardsRead(source, state, cards); }, std::chrono::seconds(60));
}

// VictoriaMetrics makes what it ingested searchable in its own time (about 10 s here); a
// writer that wants it read at once asks it to, as these tests do after writing.
void flushVictoriaMetrics(int port)
{
    httplib::Client client("127.0.0.1", port);
    (void)client.Get("/internal/force_flush");
}

PrometheusSourceOptions storeAt(int port)
{
    PrometheusSourceOptions options;
    options.endpoint.url = fmt::format("http://127.0.0.1:{}", port);
    options.scrapeIntervalMs = 1000;
    options.discoverEveryRounds = 1;
    return options;
}

std::optional<NodeHandle> nodeNamed(const FleetSnapshot &snapshot, const std::string &id)
{
    for (NodeHandle n = 0; n < snapshot.layout->nodeCount(); ++n) {
        if (snapshot.layout->nodeId[n] == id)
            return n;
    }
    return std::nullopt;
}

// What a card panel and a heatmap need, read back through the store.
void expectWholeFleet(const FleetSnapshot &snapshot, int64_t nowMs)
{
    const FleetLayout &layout = *snapshot.layout;
    ASSERT_EQ(layout.cardCount(), size_t(kNodes * 8));
    std::set<std::string> dcs(layout.nodeDataCenter.begin(), layout.nodeDataCenter.end());
    EXPECT_EQ(dcs, (std::set<std::string>{"wuhu", "xiamen", "zhongwei"}));
    std::set<Vendor> vendors(layout.cardVendor.begin(), layout.cardVendor.end());
    EXPECT_TRUE(vendors.count(Vendor::Nvidia));
    EXPECT_TRUE(vendors.count(Vendor::Huawei)) << "hybrid nodes' Ascend cards keep their vendor";
    EXPECT_TRUE(nodeNamed(snapshot, "xm-r01-n1").has_value());
    for (CardHandle c = 0; c < layout.cardCount(); ++c) {
        EXPECT_FALSE(layout.cardUuid[c].empty());
        EXPECT_GT(snapshot.memoryPercent[c], 0.0f) << layout.cardUuid[c];
        EXPECT_LE(snapshot.memoryPercent[c], 100.0f) << layout.cardUuid[c];
        EXPECT_TRUE(std::isfinite(snapshot.temperature[c]));
        EXPECT_TRUE(std::isfinite(snapshot.power[c]));
        // The age shown is the scrape's: at a 1 s interval, a few seconds at most.
        EXPECT_LE(nowMs - snapshot.cardLastSeenMs[c], 5000) << layout.cardUuid[c];
    }
}

TEST(PrometheusStore, ConsoleReadsTheSimulatedFleetThroughPrometheus)
{
    TempDir dir;
    ScrapedSim sim(dir);
    const int port = test::freePort();
    auto prometheus = startPrometheus(dir, sim.targetsFile(), port);
    ASSERT_TRUE(waitUntil([&] { return !test::httpGet(port, "/-/ready").empty(); }))
        << prometheus->log();

    FleetState state;
    PrometheusSource source(state, SystemClock::instance(), storeAt(port));
    ASSERT_TRUE(untilAllCardsRead(source, state, kNodes * 8)) << prometheus->log();
    const int64_t now = SystemClock::instance().nowUnixMs();
    expectWholeFleet(state.snapshot(now), now);

    // A card's history of any period comes from the store (a range query).
    // The store may hold only its first scrape yet: wait for a second.
    const std::string uuid = state.snapshot(now).layout->cardUuid[0];
    Result<std::vector<HistoryPoint>> history = Error{"not asked"};
    ASSERT_TRUE(waitUntil([&] {
        const int64_t end = SystemClock::instance().nowUnixMs() / 1000;
        history = source.history(uuid, CardMetric::Utilization, end - 20, end, 1);
        return history && history->size() >= 2;
    })) << (history ? "fewer than two points" : history.error().message);
    for (const HistoryPoint &p : history.value()) {
        EXPECT_GE(p.value, 0.0f);
        EXPECT_LE(p.value, 100.0f);
    }

    // An Xid reaches the console as an event; a dead agent as a failed scrape (up = 0).
    ASSERT_EQ(sim.fault("wh-r01-n1", "ecc-dbe", 0), 0);
    ASSERT_EQ(sim.fault("xm-r01-n2", "crash"), 0);
    uint64_t seen = 0;
    bool xid = false;
    ASSERT_TRUE(waitUntil(
        [&] {
            (void)source.pollOnce();
            for (const FleetEvent &e : state.eventsSince(seen, &seen))
                xid |= e.event.kind == EventKind::Xid && e.event.xid == 48u;
            const FleetSnapshot s = state.snapshot(SystemClock::instance().nowUnixMs());
            const auto crashed = nodeNamed(s, "xm-r01-n2");
            return xid && crashed && s.nodeConnection[*crashed] == ConnectionState::Unreachable &&
                   s.nodeError[*crashed].find("up = 0") != std::string::npos;
        },
        std::chrono::seconds(30)));
}

TEST(PrometheusStore, ConsoleReadsVictoriaMetricsAndOtherVendorsExporters)
{
    TempDir dir;
    ScrapedSim sim(dir);
    const int port = test::freePort();
    auto vm = startVictoriaMetrics(dir, sim.targetsFile(), port);
    ASSERT_TRUE(waitUntil([&] { return !test::httpGet(port, "/health").empty(); })) << vm->log();

    // Two nodes watched by Huawei's npu-exporter and Cambricon's mlu exporter, written in
    // their own names and units (MB) through VictoriaMetrics's import API.
    const std::string foreign =
        "npu_chip_info_utilization{instance=\"ascend-01:8082\",id=\"0\",vdie_id=\"d0\",model_name="
        "\"Ascend910B\",dc=\"wuhu\"} 61\n"
        "npu_chip_info_utilization{instance=\"ascend-01:8082\",id=\"1\",vdie_id=\"d1\",model_name="
        "\"Ascend910B\",dc=\"wuhu\"} 12\n"
        "npu_chip_info_hbm_used_memory{instance=\"ascend-01:8082\",id=\"0\"} 16384\n"
        "npu_chip_info_hbm_total_memory{instance=\"ascend-01:8082\",id=\"0\"} 65536\n"
        "npu_chip_info_temperature{instance=\"ascend-01:8082\",id=\"0\"} 47\n"
        "mlu_utilization{instance=\"mlu-01:30108\",mlu=\"0\",uuid=\"MLU-a\",model=\"MLU370-X8\"} "
        "33\n"
        "mlu_memory_used{instance=\"mlu-01:30108\",mlu=\"0\"} 24576\n"
        "mlu_memory_total{instance=\"mlu-01:30108\",mlu=\"0\"} 49152\n";
    FleetState state;
    PrometheusSourceOptions options = storeAt(port);
    options.dataCenter = "zhongwei";  // for series that carry no dc label
    PrometheusSource source(state, SystemClock::instance(), options);
    ASSERT_TRUE(waitUntil(
        [&] {
            httplib::Client client("127.0.0.1", port);
            (void)client.Post("/api/v1/import/prometheus", foreign, "text/plain");
            flushVictoriaMetrics(port);  // the exporters' lines and the scrapes so far
            return allCardsRead(source, state, kNodes * 8 + 3);
        },
        std::chrono::seconds(60)))
        << vm->log();
    const FleetSnapshot snapshot = state.snapshot(SystemClock::instance().nowUnixMs());
    const FleetLayout &layout = *snapshot.layout;
    int ascend = 0;
    for (CardHandle c = 0; c < layout.cardCount(); ++c) {
        const std::string &node = layout.nodeHostname[layout.cardNode[c]];
        if (layout.cardUuid[c] == "d0") {
            ++ascend;
            EXPECT_EQ(layout.cardVendor[c], Vendor::Huawei);
            EXPECT_EQ(layout.cardModel[c], "Ascend 910B");  // the exporter's "Ascend910B"
            EXPECT_EQ(layout.nodeDataCenter[layout.cardNode[c]], "wuhu");
            EXPECT_FLOAT_EQ(snapshot.utilization[c], 61.0f);
            EXPECT_FLOAT_EQ(snapshot.memoryPercent[c], 25.0f);  // MB over MB
            EXPECT_FLOAT_EQ(snapshot.temperature[c], 47.0f);
            EXPECT_EQ(node, "ascend-01:8082");
        }
        if (layout.cardUuid[c] == "MLU-a") {
            EXPECT_EQ(layout.cardVendor[c], Vendor::Cambricon);
            EXPECT_EQ(layout.nodeDataCenter[layout.cardNode[c]], "zhongwei");
            EXPECT_FLOAT_EQ(snapshot.memoryPercent[c], 50.0f);
        }
    }
    EXPECT_EQ(ascend, 1);
}

TEST(PrometheusStore, UsageMinutesForTheCostHistoryComeFromTheStoresSamples)
{
    TempDir dir;
    const int port = test::freePort();
    auto vm = startVictoriaMetrics(dir, dir.file("no-targets.json"), port);
    ASSERT_TRUE(waitUntil([&] { return !test::httpGet(port, "/health").empty(); })) << vm->log();

    // Ten minutes of a two-card node, scraped every 15 s half an hour ago: card 0 at 50%
    // and 200 W throughout; card 1 idle for five minutes, then 80%. And one sample now,
    // by which the console finds the node.
    const int64_t now = SystemClock::instance().nowUnixMs() / 1000;
    const int64_t t0 = (now - 1800) / 60 * 60;
    std::string text;
    const auto line = [&](const char *metric, int gpu, double value, int64_t ms) {
        text += fmt::format(
            "{}{{Hostname=\"h1\",gpu=\"{}\",UUID=\"G{}\",modelName=\"A100\","
            "dc=\"wuhu\",instance=\"h1:9400\"}} {} {}\n",
            metric, gpu, gpu, value, ms);
    };
    for (int k = 0; k < 40; ++k) {
        const int64_t ms = t0 * 1000 + 7500 + k * 15'000;
        line("DCGM_FI_DEV_GPU_UTIL", 0, 50, ms);
        line("DCGM_FI_DEV_POWER_USAGE", 0, 200, ms);
        line("DCGM_FI_DEV_GPU_UTIL", 1, k < 20 ? 0 : 80, ms);
    }
    // Half a second past the whole second: were `now` the first second of a minute, a
    // sample at exactly `now` would end the finished minute before it, (now − 60 s, now].
    line("DCGM_FI_DEV_GPU_UTIL", 0, 50, now * 1000 + 500);
    line("DCGM_FI_DEV_GPU_UTIL", 1, 80, now * 1000 + 500);
    httplib::Client client("127.0.0.1", port);
    auto imported = client.Post("/api/v1/import/prometheus", text, "text/plain");
    ASSERT_TRUE(imported && imported->status / 100 == 2);
    flushVictoriaMetrics(port);

    FleetState state;
    PrometheusSourceOptions options = storeAt(port);
    options.scrapeIntervalMs = 15'000;
    PrometheusSource source(state, SystemClock::instance(), options);
    ASSERT_TRUE(waitUntil([&] { return source.pollOnce() && source.nodeCount() == 1; }));
    auto history = HistoryStore::open(dir.file("history.db"));
    ASSERT_TRUE(history) << history.error().message;
    Result<bool> done = false;
    for (int step = 0; step < 5 && done && !done.value(); ++step)
        done = source.backfillUsage(*history.value(), now, 1);
    ASSERT_TRUE(done) << done.error().message;
    EXPECT_TRUE(done.value());
    ASSERT_TRUE(history.value()->flush());

    SQLite::Database db(dir.file("history.db"));
    SQLite::Statement rows(db, R"(
        SELECT c.uuid, m.minute_start_unix_s, m.observed_seconds, m.busy_seconds,
               m.mean_utilization_percent, m.energy_joules
        FROM usage_minute m JOIN card c ON c.id = m.card ORDER BY c.uuid, 2)");
    std::map<std::string, int> minutes;
    while (rows.executeStep()) {
        const std::string uuid = rows.getColumn(0).getString();
        const int64_t minute = (rows.getColumn(1).getInt64() - t0) / 60;
        SCOPED_TRACE(uuid + " minute " + std::to_string(minute));
        ASSERT_GE(minute, 0);
        ASSERT_LT(minute, 10);
        ++minutes[uuid];
        EXPECT_DOUBLE_EQ(rows.getColumn(2).getDouble(), 60.0);
        const bool busy = uuid == "G0" || minute >= 5;
        EXPECT_DOUBLE_EQ(rows.getColumn(3).getDouble(), busy ? 60.0 : 0.0);
        EXPECT_DOUBLE_EQ(rows.getColumn(4).getDouble(), uuid == "G0" ? 50.0 : busy ? 80.0 : 0.0);
        if (uuid == "G0") {
            EXPECT_DOUBLE_EQ(rows.getColumn(5).getDouble(), 200.0 * 60);
        }
    }
    EXPECT_EQ(minutes["G0"], 10);
    EXPECT_EQ(minutes["G1"], 10);
}

TEST(PrometheusStore, AnAnswerTooLargeIsRefusedAsItArrives)
{
    // A hostile or broken server that never stops answering.
    httplib::Server server;
    server.Get("/api/v1/query", [](const httplib::Request &, httplib::Response &response) {
        response.set_content_provider(
            "application/json", [](size_t offset, httplib::DataSink &sink) {
                const std::string chunk(64 << 10, ' ');
                return offset < (64u << 20) && sink.write(chunk.data(), chunk.size());
            });
    });
    const int port = server.bind_to_any_port("127.0.0.1");
    std::thread serving([&] { server.listen_after_bind(); });
    PromEndpoint endpoint;
    endpoint.url = fmt::format("http://127.0.0.1:{}", port);
    endpoint.maxAnswerBytes = 1 << 20;
    auto client = PromClient::create(endpoint);
    ASSERT_TRUE(client);
    const auto answer = client.value()->instant("up");
    server.stop();
    serving.join();
    ASSERT_FALSE(answer);
    EXPECT_NE(answer.error().message.find("passed 1 MiB"), std::string::npos)
        << answer.error().message;
}

TEST(PrometheusStore, SomethingThatIsNotAStoreIsNamedAndAddsNoCards)
{
    TempDir dir;
    ScrapedSim sim(dir);  // its metrics port answers HTTP, but not the query API
    const std::string targets = test::readFile(sim.targetsFile());
    const std::smatch port = [&] {
        std::smatch m;
        std::regex_search(targets, m, std::regex("127\\.0\\.0\\.1:(\\d+)"));
        return m;
    }();
    ASSERT_FALSE(port.empty());

    FleetState state;
    PrometheusSource notAStore(state, SystemClock::instance(), storeAt(std::stoi(port[1])));
    const Status wrong = notAStore.pollOnce();
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.message().find("is this a Prometheus-compatible query API"), std::string::npos)
        << wrong.message();

    PrometheusSource nobody(state, SystemClock::instance(), storeAt(test::freePort()));
    const Status closed = nobody.pollOnce();
    ASSERT_FALSE(closed);
    EXPECT_NE(closed.message().find("http://127.0.0.1:"), std::string::npos) << closed.message();
    EXPECT_EQ(state.snapshot(0).cardCount(), 0u);
}

}  // namespace
}  // namespace meridian
