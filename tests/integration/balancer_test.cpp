// A real HAProxy (Debian's package, on free ports) in front of real replica processes
// (meridian-sim serve-replica), kept equal to the ready replicas through its runtime API:
// a new replica takes requests within 5 s of being added, a drained one finishes every
// request it holds and is deleted once idle, and a restarted HAProxy is put right by the
// next pass.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "agentprocess.h"
#include "balancer/balancersync.h"
#include "balancer/haproxyruntime.h"
#include "childprocess.h"
#include "hostilehttp.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;

namespace {

// The configuration an operator installs (packaging/scaled/haproxy.cfg), as written but
// for its two addresses, moved to free loopback ports.
std::string shippedConfiguration(int runtimePort, int frontPort)
{
    std::string text = readFile(MERIDIAN_SOURCE_DIR "/packaging/scaled/haproxy.cfg");
    const auto move = [&](const std::string &from, const std::string &to) {
        const size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << "the shipped configuration no longer has " << from;
        if (at != std::string::npos)
            text.replace(at, from.size(), to);
    };
    move("ipv4@127.0.0.1:9999", fmt::format("ipv4@127.0.0.1:{}", runtimePort));
    move("bind :8080", fmt::format("bind 127.0.0.1:{}", frontPort));
    // Each request's fate on stderr (HAProxy's own log), for a failure to show.
    move("    mode http\n",
         "    mode http\n    log stderr format raw local0\n    option httplog\n");
    return text;
}

class Haproxy {
public:
    Haproxy()
    {
        std::ofstream(m_dir.file("haproxy.cfg")) << shippedConfiguration(runtimePort, frontPort);
        start();
    }
    void start()
    {
        m_process.reset();
        m_process = std::make_unique<ChildProcess>(
            std::vector<std::string>{"haproxy", "-db", "-f", m_dir.file("haproxy.cfg")},
            m_dir.file("haproxy.log"));
        ASSERT_TRUE(waitUntil([&] { return runtime().command("show info").ok(); }, 10s))
            << "haproxy (Debian's package) is needed; it said:\n"
            << m_process->log();
    }
    void kill9() { m_process->kill(SIGKILL); }
    std::string log() const { return m_process->log(); }
    HaproxyRuntime runtime() const
    {
        return HaproxyRuntime(fmt::format("127.0.0.1:{}", runtimePort));
    }

    const int frontPort = freePort();
    const int runtimePort = freePort();

private:
    TempDir m_dir;
    std::unique_ptr<ChildProcess> m_process;
};

class Replica {
public:
    explicit Replica(int decodeTokensPerSecond = 50)
        : m_process({MERIDIAN_SIM_BIN, "serve-replica", "--port", std::to_string(port), "--model",
                     "chat", "--cold-start-seconds", "0", "--decode-tokens-per-second",
                     std::to_string(decodeTokensPerSecond)},
                    m_dir.file("replica.log"))
    {
        EXPECT_TRUE(waitUntil([&] { return !httpGet(port, "/health").empty(); }, 10s));
    }
    void kill9() { m_process.kill(SIGKILL); }
    ReadyReplica ready(const std::string &id) const
    {
        return {id, fmt::format("127.0.0.1:{}", port)};
    }
    // Requests it has answered, from its own counter.
    uint64_t served() const
    {
        const std::string metrics = httpGet(port, "/metrics");
        const size_t at = metrics.find("vllm:request_success_total{");
        if (at == std::string::npos)
            return 0;
        return std::stoull(metrics.substr(metrics.find("} ", at) + 2));
    }

    const int port = freePort();

private:
    TempDir m_dir;
    ChildProcess m_process;
};

// A completion through the balancer; `tokens` at 50 a second (50: about a second).
bool completeThrough(int frontPort, int tokens = 5)
{
    httplib::Client client("127.0.0.1", frontPort);
    client.set_read_timeout(10, 0);
    auto answer = client.Post("/v1/completions",
                              fmt::format(R"({{"prompt": "hello", "max_tokens": {}}})", tokens),
                              "application/json");
    return answer && answer->status == 200;
}

std::vector<std::string> serverNames(const HaproxyRuntime &runtime)
{
    std::vector<std::string> names;
    const auto servers = runtime.servers("chat");
    EXPECT_TRUE(servers.ok()) << servers.error().message;
    for (const BalancedServer &s : servers.ok() ? servers.value() : std::vector<BalancedServer>{})
        names.push_back(s.name);
    return names;
}

}  // namespace

TEST(Balancer, NewReplicasTakeRequestsAtOnceAndADrainDropsNone)
{
    Haproxy haproxy;
    Replica a;
    Replica b;
    const HaproxyRuntime runtime = haproxy.runtime();
    ASSERT_TRUE(syncBalancer(runtime, "chat", {a.ready("chat-1/0")}).ok());
    for (int i = 0; i < 4; ++i)
        EXPECT_TRUE(completeThrough(haproxy.frontPort));
    EXPECT_EQ(a.served(), 4u);

    // A second replica is ready: it takes requests from the next one on.
    auto added = syncBalancer(runtime, "chat", {a.ready("chat-1/0"), b.ready("chat-2/0")});
    ASSERT_TRUE(added.ok()) << added.error().message;
    ASSERT_EQ(added->done.size(), 1u);
    EXPECT_NE(added->done.front().find("chat-2/0"), std::string::npos) << added->done.front();
    const auto addedAt = std::chrono::steady_clock::now();
    while (b.served() == 0 && std::chrono::steady_clock::now() - addedAt < 5s)
        completeThrough(haproxy.frontPort);
    EXPECT_GT(b.served(), 0u) << "the new replica took no request within 5 s";
    ::testing::Test::RecordProperty(
        "first_request_on_new_replica_ms",
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - addedAt)
                             .count()));

    // Replica a goes while eight clients keep sending half-second requests: what it holds
    // finishes there, nothing new reaches it, and no request fails.
    std::atomic<int> failed{0};
    std::vector<std::thread> clients;
    const uint64_t aBefore = a.served();
    for (int c = 0; c < 8; ++c)
        clients.emplace_back([&] {
            for (int r = 0; r < 3; ++r)
                failed += !completeThrough(haproxy.frontPort, 25);
        });
    // The clients' requests are reaching replica a when it is drained.
    const auto reachingA = std::chrono::steady_clock::now() + 5s;
    while (a.served() == aBefore && std::chrono::steady_clock::now() < reachingA)
        std::this_thread::sleep_for(10ms);
    auto drained = syncBalancer(runtime, "chat", {b.ready("chat-2/0")});
    ASSERT_TRUE(drained.ok()) << drained.error().message;
    ASSERT_EQ(drained->done.size(), 1u);
    EXPECT_NE(drained->done.front().find("drained"), std::string::npos) << drained->done.front();
    EXPECT_TRUE(drained->holds("chat-1/")) << "a draining server is still there";
    const uint64_t aAtDrain = a.served();
    for (std::thread &t : clients)
        t.join();
    EXPECT_EQ(failed, 0) << "requests were dropped by the drain";
    const uint64_t aAfter = a.served();
    EXPECT_LE(aAfter - aAtDrain, 8u) << "only what it held when drained finishes there";
    for (int i = 0; i < 4; ++i)
        EXPECT_TRUE(completeThrough(haproxy.frontPort));
    EXPECT_EQ(a.served(), aAfter) << "a drained replica took new requests";

    // Idle now: the next pass deletes it.
    auto deleted = syncBalancer(runtime, "chat", {b.ready("chat-2/0")});
    ASSERT_TRUE(deleted.ok()) << deleted.error().message;
    EXPECT_FALSE(deleted->holds("chat-1/"));
    EXPECT_EQ(serverNames(runtime), std::vector<std::string>{"meridian-chat-2_0"});
}

TEST(Balancer, AReplicaDrainedWhileItsReadingsPausedTakesRequestsAgain)
{
    // An agent a pass late: its replica is drained, then reported serving again. It used
    // to stay drained for good, its capacity paid for and unused.
    Haproxy haproxy;
    Replica a;
    const HaproxyRuntime runtime = haproxy.runtime();
    ASSERT_TRUE(syncBalancer(runtime, "chat", {a.ready("chat-1/0")}).ok());
    ASSERT_TRUE(syncBalancer(runtime, "chat", {}).ok());  // drained
    EXPECT_FALSE(completeThrough(haproxy.frontPort)) << "a drained server took a request";
    auto back = syncBalancer(runtime, "chat", {a.ready("chat-1/0")});
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_EQ(back->done.size(), 1u);
    EXPECT_NE(back->done.front().find("back in chat"), std::string::npos) << back->done.front();
    EXPECT_TRUE(completeThrough(haproxy.frontPort));
}

TEST(Balancer, ARestartedHaproxyIsPutRightOnTheNextPass)
{
    Haproxy haproxy;
    Replica a;
    const HaproxyRuntime runtime = haproxy.runtime();
    ASSERT_TRUE(syncBalancer(runtime, "chat", {a.ready("chat-1/0")}).ok());
    haproxy.kill9();
    haproxy.start();  // from its configuration file: no servers
    EXPECT_TRUE(serverNames(runtime).empty());
    EXPECT_FALSE(completeThrough(haproxy.frontPort)) << "503 with no server";
    ASSERT_TRUE(syncBalancer(runtime, "chat", {a.ready("chat-1/0")}).ok());
    EXPECT_TRUE(completeThrough(haproxy.frontPort));
}

TEST(Balancer, ARuntimeApiThatIsNotThereOrHasNoSuchBackendIsNamed)
{
    const HaproxyRuntime nobody(fmt::format("127.0.0.1:{}", freePort()), 500);
    auto refused = syncBalancer(nobody, "chat", {});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("HAProxy runtime API 127.0.0.1:"), std::string::npos)
        << refused.error().message;
    Haproxy haproxy;
    auto missing = syncBalancer(haproxy.runtime(), "summarise", {});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("no backend named summarise"), std::string::npos);
    // The frontend's port given for the runtime API: an HTTP error page, not statistics.
    const HaproxyRuntime frontend(fmt::format("127.0.0.1:{}", haproxy.frontPort), 2000);
    auto http = syncBalancer(frontend, "chat", {});
    ASSERT_FALSE(http.ok());
    EXPECT_NE(http.error().message.find("not statistics (is it HAProxy's stats socket"),
              std::string::npos)
        << http.error().message;
    // Something that never finishes its answer: named within the deadline.
    HostileHttpServer endless(HostileReply::Endless);
    const HaproxyRuntime silent(fmt::format("127.0.0.1:{}", endless.port()), 500);
    const auto started = std::chrono::steady_clock::now();
    auto hung = syncBalancer(silent, "chat", {});
    ASSERT_FALSE(hung.ok());
    EXPECT_NE(hung.error().message.find("no whole answer"), std::string::npos)
        << hung.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);
}

TEST(Balancer, OnlyReplicasThatServeAndSayWhereAreBalanced)
{
    const auto reading = [](std::string id, std::string service, bool serving, uint32_t port) {
        ReplicaReading r;
        r.agentAddress = "10.1.2.3:50051";
        r.signals.replicaId = std::move(id);
        r.signals.service = std::move(service);
        if (serving)
            r.signals.requestsPerSecond = 1.5;
        r.signals.servingPort = port;
        return r;
    };
    const std::vector<ReadyReplica> ready =
        readyReplicas("chat", {reading("chat-1/0", "chat", true, 8000),
                               reading("chat-2/0", "chat", false, 8001),  // loading weights
                               reading("chat-3/0", "chat", true, 0),      // simulated: no port
                               reading("sum-1/0", "summarise", true, 8002)});
    ASSERT_EQ(ready.size(), 1u);
    EXPECT_EQ(ready[0].replicaId, "chat-1/0");
    EXPECT_EQ(ready[0].address, "10.1.2.3:8000");
    EXPECT_EQ(balancedServerName("chat-1/0"), "meridian-chat-1_0");
}

// A replica that dies between passes: HAProxy's own health check takes it out of
// rotation (no controller pass needed), and requests through the balancer keep being
// answered by the one left.
TEST(Balancer, AReplicaKilledBetweenPassesIsTakenOutByHaproxysCheck)
{
    Haproxy haproxy;
    Replica first;
    Replica second;
    const HaproxyRuntime runtime = haproxy.runtime();
    ASSERT_TRUE(
        syncBalancer(runtime, "chat", {first.ready("chat-1/0"), second.ready("chat-2/0")}).ok());
    for (int i = 0; i < 4; ++i)
        ASSERT_TRUE(completeThrough(haproxy.frontPort));
    second.kill9();
    const auto start = std::chrono::steady_clock::now();
    const auto statusOf = [&](const std::string &name) {
        const auto servers = runtime.servers("chat");
        for (const BalancedServer &s :
             servers.ok() ? servers.value() : std::vector<BalancedServer>{})
            if (s.name == name)
                return s.status;
        return std::string("gone");
    };
    ASSERT_TRUE(waitUntil([&] { return statusOf("meridian-chat-2_0").rfind("DOWN", 0) == 0; }, 10s))
        << statusOf("meridian-chat-2_0");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 3.0) << "two failed checks 500 ms apart";
    EXPECT_TRUE(statusOf("meridian-chat-1_0").rfind("UP", 0) == 0) << statusOf("meridian-chat-1_0");
    for (int i = 0; i < 10; ++i)
        EXPECT_TRUE(completeThrough(haproxy.frontPort)) << "request " << i;
}

TEST(Balancer, RequestsPastEveryServersMaxconnWaitAtTheBalancerAndAreCounted)
{
    Haproxy haproxy;
    Replica replica;
    const HaproxyRuntime runtime = haproxy.runtime();
    // The server's limit comes with it: HAProxy's default-server line does not reach a
    // server added at run time.
    ASSERT_TRUE(syncBalancer(runtime, "chat", {replica.ready("chat-1/0")}, "maxconn 1").ok());
    const auto first = runtime.backend("chat");
    ASSERT_TRUE(first.ok()) << first.error().message;
    EXPECT_EQ(first->queued, 0);
    // Four requests of a second and a half at once to a server that takes one: three wait
    // at HAProxy, seen while the first is answered (half a second was too short a window
    // to see all three arrive on a loaded machine).
    std::vector<std::thread> clients;
    std::atomic<int> answered{0};
    for (int c = 0; c < 4; ++c)
        clients.emplace_back([&] { answered += completeThrough(haproxy.frontPort, 75); });
    std::optional<BackendState> busy;
    EXPECT_TRUE(waitUntil(
        [&] {
            auto now = runtime.backend("chat");
            if (now.ok() && now->queued == 3)
                busy = std::move(now).value();
            return busy.has_value();
        },
        3s))
        << "the requests waiting at the balancer were not seen";
    // A request is counted once finished; the backend holds the others, at the server or
    // queued: together every request that came in (the door's rate is their growth).
    if (busy) {
        EXPECT_EQ(*busy->requestsTotal - *first->requestsTotal + busy->open, 4u);
        EXPECT_EQ(busy->open, 4);
    }
    for (std::thread &t : clients)
        t.join();
    EXPECT_EQ(answered, 4);
    // HAProxy counts a request once it has logged it, which may come a moment after the
    // client has its answer: the count is awaited, then checked to be exactly the four.
    std::optional<BackendState> after;
    EXPECT_TRUE(waitUntil(
        [&] {
            auto now = runtime.backend("chat");
            if (now.ok())
                after = std::move(now).value();
            return after && after->requestsTotal &&
                   *after->requestsTotal - *first->requestsTotal >= 4u && after->queued == 0;
        },
        2s));
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(after->queued, 0);
    EXPECT_EQ(*after->requestsTotal - *first->requestsTotal, 4u)
        << "health checks are not requests";
}

TEST(Balancer, StatisticsThatDoNotAddUpAreReadAsAbsentNotBelieved)
{
    const std::string header = "# pxname,svname,qcur,scur,stot,status,addr,req_tot\n";
    // A count that is not a number, a queue past any balancer's: no count, no queue.
    auto garbled = backendFromStatistics(header +
                                             "chat,meridian-a,99999999999,3,,UP,10.0.0.1:8000,\n"
                                             "chat,BACKEND,2,5,lots,UP,,-1\n",
                                         "chat", "HAProxy runtime API x:1");
    ASSERT_TRUE(garbled.ok()) << garbled.error().message;
    EXPECT_FALSE(garbled->requestsTotal) << "a count that does not read was believed";
    EXPECT_EQ(garbled->queued, 2);
    EXPECT_EQ(garbled->open, 5);
    ASSERT_EQ(garbled->servers.size(), 1u) << "the servers are still listed, for routing";
    EXPECT_EQ(garbled->servers[0].sessions, 3);
    // Where req_tot is empty, sessions stand in.
    auto sessions = backendFromStatistics(header + "chat,BACKEND,0,0,42,UP,,\n", "chat", "x");
    ASSERT_TRUE(sessions.ok());
    EXPECT_EQ(sessions->requestsTotal.value_or(0), 42u);
    EXPECT_NE(backendFromStatistics(header, "chat", "HAProxy runtime API x:1")
                  .error()
                  .message.find("HAProxy runtime API x:1: no backend named chat"),
              std::string::npos);
    EXPECT_NE(backendFromStatistics("Unknown command.\n", "chat", "x")
                  .error()
                  .message.find("not statistics"),
              std::string::npos);
}

// The configuration docs/scaling.md shows is the file shipped for operators, line for
// line, and HAProxy accepts it as written.
TEST(Balancer, TheDocumentedConfigurationIsTheShippedOneAndHaproxyLoadsIt)
{
    const std::string shipped = readFile(MERIDIAN_SOURCE_DIR "/packaging/scaled/haproxy.cfg");
    const std::string docs = readFile(MERIDIAN_SOURCE_DIR "/docs/scaling.md");
    const size_t named = docs.find("`packaging/scaled/haproxy.cfg`:\n\n```\n");
    ASSERT_NE(named, std::string::npos) << "docs/scaling.md no longer shows the shipped file";
    const size_t from = docs.find("```\n", named) + 4;
    const size_t to = docs.find("```\n", from);
    ASSERT_NE(to, std::string::npos);
    EXPECT_EQ(docs.substr(from, to - from), shipped)
        << "docs/scaling.md and packaging/scaled/haproxy.cfg say different things";
    TempDir dir;
    ChildProcess check({"haproxy", "-c", "-f", MERIDIAN_SOURCE_DIR "/packaging/scaled/haproxy.cfg"},
                       dir.file("check.log"));
    ASSERT_TRUE(waitUntil([&] { return check.ended(); }, 10s));
    EXPECT_TRUE(WIFEXITED(check.waitStatus()) && WEXITSTATUS(check.waitStatus()) == 0)
        << check.log();
}

namespace {

// What `meridian-sim drive` said at its end: sent, answered, failed.
struct DriveTally {
    int sent = -1, answered = -1, failed = -1;
    std::string notAnswered;  // HAProxy's log lines of the requests not answered 200
};

DriveTally tallyOf(const std::string &log)
{
    DriveTally t;
    const size_t at = log.find("sent ");
    if (at != std::string::npos)
        std::sscanf(log.c_str() + at, "sent %d  answered %d  failed %d", &t.sent, &t.answered,
                    &t.failed);
    return t;
}

// Three replicas behind the shipped configuration under 60 req/s for 4 s, which they keep
// up with, so HAProxy sends each request on as it arrives rather than from its queue; the
// second is killed with kill -9 once it has answered 40, while it holds requests. What the
// clients saw.
DriveTally killOneUnderLoad(bool stream, int &heldWhenKilled)
{
    Haproxy haproxy;
    // Short prompts and quick tokens: a replica answers in about 0.15 s.
    Replica a(200), b(200), c(200);
    const HaproxyRuntime runtime = haproxy.runtime();
    const std::string options =
        "maxconn 8 inter 500ms fall 2 rise 1 observe layer7 "
        "error-limit 1 on-error mark-down";
    EXPECT_TRUE(syncBalancer(runtime, "chat",
                             {a.ready("chat-1/0"), b.ready("chat-2/0"), c.ready("chat-3/0")},
                             options)
                    .ok());
    TempDir dir;
    std::vector<std::string> argv = {
        MERIDIAN_SIM_BIN,  "drive",
        "--url",           fmt::format("http://127.0.0.1:{}", haproxy.frontPort),
        "--rps",           "60",
        "--seconds",       "4",
        "--max-tokens",    "25",
        "--prompt-tokens", "128",
        "--connections",   "256"};
    if (!stream)
        argv.push_back("--no-stream");
    ChildProcess drive(argv, dir.file("drive.log"));
    // Two seconds into the drive (about 20 requests a second reach each), with two
    // seconds left for what is sent after the kill (its checks fail within one).
    EXPECT_TRUE(waitUntil([&] { return b.served() >= 40; }, 30s)) << drive.log();
    const std::string metrics = httpGet(b.port, "/metrics");
    const size_t running = metrics.find("vllm:num_requests_running{");
    heldWhenKilled = running == std::string::npos
                         ? 0
                         : std::atoi(metrics.c_str() + metrics.find("} ", running) + 2);
    b.kill9();
    EXPECT_TRUE(waitUntil([&] { return drive.ended(); }, 90s)) << drive.log();
    DriveTally tally = tallyOf(drive.log());
    std::istringstream lines(haproxy.log());
    for (std::string line; std::getline(lines, line);)
        if (line.find("\"POST ") != std::string::npos && line.find(" 200 ") == std::string::npos)
            tally.notAnswered += line + "\n";
    return tally;
}

}  // namespace

// kill -9 of a replica that is answering requests: what it had not begun to answer (sent
// to it in the second before its checks fail, or waiting in its batch) is sent again to
// another replica by HAProxy (retry-on, redispatch, layer-7 observation), so no client
// asking for its answer whole sees a failure.
TEST(Balancer, AReplicaKilledUnderLoadLosesNoRequestItHadNotBegunToAnswer)
{
    int held = 0;
    const DriveTally whole = killOneUnderLoad(false, held);
    ::testing::Test::RecordProperty("sent", whole.sent);
    ::testing::Test::RecordProperty("failed", whole.failed);
    ::testing::Test::RecordProperty("held_when_killed", held);
    EXPECT_GT(held, 0) << "the killed replica was answering requests";
    EXPECT_GE(whole.sent, 200);
    EXPECT_EQ(whole.failed, 0) << "of " << whole.sent << " requests:\n" << whole.notAnswered;
    EXPECT_EQ(whole.answered, whole.sent);
}

// Streamed answers are under way from their first byte: a stream the killed replica was
// sending cannot be sent again by a balancer, so those few break; every other request,
// those sent to the dead replica after it died included, is answered.
TEST(Balancer, AReplicaKilledUnderLoadBreaksOnlyTheStreamsItWasSending)
{
    int held = 0;
    const DriveTally streamed = killOneUnderLoad(true, held);
    ::testing::Test::RecordProperty("sent", streamed.sent);
    ::testing::Test::RecordProperty("failed", streamed.failed);
    ::testing::Test::RecordProperty("held_when_killed", held);
    EXPECT_GE(streamed.sent, 200);
    EXPECT_GT(held, 0) << "the killed replica was answering requests";
    EXPECT_LE(streamed.failed, 8) << "more than the killed replica's maxconn broke:\n"
                                  << streamed.notAnswered;
    EXPECT_EQ(streamed.answered + streamed.failed, streamed.sent);
}
