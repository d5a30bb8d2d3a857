// The front door that meridian-agent, meridian-pool and meridian-scaled share, attacked
// the way a round of hardening found it could be, with real processes over loopback TLS:
// - one read-only token opening twice its share of connections (64; its share is 32 of
//   the 256), each holding what it may (an idle stream on the agent, an authenticated
//   connection on the others): the operator and another token's console must still be
//   served within a second;
// - on the agent, bare TCP connections churning from 40 addresses and idle TLS from 20
//   more, with a token hog (96 connections, past its share) on top: the operator still
//   within a second, the agent's memory within 100 MB of where it started, and a
//   console's stream opened before never dropped.
#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

#include "agentprocess.h"
#include "childprocess.h"
#include "core/textfile.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "meridian/v1/scaling_control.grpc.pb.h"
#include "silentclients.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;

namespace {

constexpr const char *kOperatorToken = "operator-token-0123456789abcdef";
constexpr const char *kHogToken = "read-only-hog-token-0123456789";
constexpr const char *kConsoleToken = "console-token-0123456789abcdef";

enum class Program { Agent, Pool, Scaled };

std::string nameOf(Program program)
{
    switch (program) {
    case Program::Agent: return "agent";
    case Program::Pool: return "pool";
    case Program::Scaled: return "scaled";
    }
    return "?";
}

// The three tokens every door here knows: an operator, the hog's and a console's.
std::string tokensYaml()
{
    return fmt::format(
        "tokens:\n  - {{name: ops, role: operator, token: {}}}\n"
        "  - {{name: hog, role: read-only, token: {}}}\n"
        "  - {{name: console, role: read-only, token: {}}}\n",
        kOperatorToken, kHogToken, kConsoleToken);
}

// One program, listening with TLS on a port of its own.
class Door {
public:
    explicit Door(Program program) : m_program(program)
    {
        const std::string tls = fmt::format("tls: {{cert_file: {}, key_file: {}}}\n",
                                            dir.file("door.crt"), dir.file("door.key"));
        EXPECT_TRUE(makeLocalhostCertificate(dir.file("door.key"), dir.file("door.crt")));
        std::vector<std::string> argv;
        if (program == Program::Agent) {
            std::ofstream(dir.file("door.yaml")) << "collector: sim\ndata_dir: " << dir.file("data")
                                                 << "\nlisten: " << address << "\n"
                                                 << tls << tokensYaml();
            argv = {MERIDIAN_AGENT_BIN, "--config", dir.file("door.yaml")};
        } else if (program == Program::Pool) {
            std::ofstream(dir.file("door.yaml"))
                << "listen: " << address << "\n"
                << tls << "data_dir: " << dir.file("books") << "\n"
                << tokensYaml() << "providers:\n"
                << "  - name: spare\n"
                << "    command: [sh, -c, 'cat > /dev/null; echo {\\\"leases\\\": []}']\n"
                << "    offers:\n"
                << "      - {offer_id: spare-a100, region: xiamen, vendor: nvidia, "
                   "card_model: A100, cards_per_node: 8, nodes: 2, price_cny_per_card_hour: 1}\n";
            argv = {MERIDIAN_POOL_BIN, "--config", dir.file("door.yaml")};
        } else {
            std::ofstream(dir.file("inventory.yaml"))
                << "capacity_pool: 127.0.0.1:" << freePort() << "\n"
                << "data_centers:\n  - name: xiamen\n    agents: [127.0.0.1:" << freePort()
                << "]\n";
            std::ofstream(dir.file("services.yaml")) << R"(services:
  - name: chat
    model: qwen2-72b-instruct
    cards_per_replica: 4
    slo: {ttft_p95_seconds: 5}
    replicas: {min: 1, max: 8}
    runs_on:
      - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 0.9, max_concurrency_per_card: 16}
)";
            std::ofstream(dir.file("door.yaml"))
                << "listen: " << address << "\n"
                << "controller_id: door-test\njournal: journal.sqlite\n"
                << "inventory: inventory.yaml\nservices: services.yaml\nmode: assisted\n"
                << tls << tokensYaml();
            argv = {MERIDIAN_SCALED_BIN, "--config", dir.file("door.yaml")};
        }
        m_process = std::make_unique<ChildProcess>(argv, dir.file("door.log"));
    }

    std::shared_ptr<grpc::Channel> channel(const std::string &token) const
    {
        return connectionOfItsOwn(token);
    }

    // A channel with a connection of its own: gRPC otherwise shares one connection among
    // every channel to the same address, and each client here is meant to be one more.
    std::shared_ptr<grpc::Channel> connectionOfItsOwn(const std::string &token) const
    {
        grpc::SslCredentialsOptions tls;
        tls.pem_root_certs = readTextFile(dir.file("door.crt"), 1 << 20).value();
        grpc::ChannelArguments args;
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        return grpc::CreateCustomChannel(
            address,
            grpc::CompositeChannelCredentials(grpc::SslCredentials(tls),
                                              grpc::AccessTokenCredentials(token)),
            args);
    }

    // One read call with `token` on `channel`, as each program offers one.
    grpc::Status read(grpc::Channel &channel, std::chrono::milliseconds deadline,
                      bool waitForReady = false) const
    {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + deadline);
        context.set_wait_for_ready(waitForReady);
        auto shared = std::shared_ptr<grpc::Channel>(&channel, [](grpc::Channel *) {});
        switch (m_program) {
        case Program::Agent: {
            v1::NodeInventory inventory;
            return v1::NodeAgent::NewStub(shared)->GetInventory(&context, {}, &inventory);
        }
        case Program::Pool: {
            v1::ListOffersResponse offers;
            return v1::CapacityPool::NewStub(shared)->ListOffers(&context, {}, &offers);
        }
        case Program::Scaled: {
            v1::ScalingViewReply view;
            return v1::ScalingControl::NewStub(shared)->GetScalingView(&context, {}, &view);
        }
        }
        return grpc::Status::CANCELLED;
    }

    bool answering()
    {
        // Serving before the first call: a channel that finds the port closed waits out
        // gRPC's reconnect back-off (a second) before it tries again.
        if (!m_process->untilLogSays("serving on"))
            return false;
        auto ops = channel(kOperatorToken);
        return waitUntil([&] { return read(*ops, 2000ms, true).ok(); }, 30s);
    }
    pid_t pid() const { return m_process->pid(); }
    bool running() { return !m_process->ended(); }
    std::string log() const { return m_process->log(); }
    Program program() const { return m_program; }

    TempDir dir;
    const int port = freePort();
    const std::string address = "127.0.0.1:" + std::to_string(port);

private:
    Program m_program;
    std::unique_ptr<ChildProcess> m_process;
};

// Clients with one read-only token, each on a connection of its own, each holding what it
// may until the end: the agent's telemetry stream (`streams` of them per connection), or,
// on the pool and the controller, a connection authenticated by one call and kept.
class TokenHog {
public:
    TokenHog(const Door &door, int connections, int streams = 1) : m_door(door)
    {
        for (int c = 0; c < connections; ++c) {
            auto channel = door.channel(kHogToken);
            m_channels.push_back(channel);
            const int holds = door.program() == Program::Agent ? streams : 1;
            for (int s = 0; s < holds; ++s) {
                m_contexts.push_back(std::make_unique<grpc::ClientContext>());
                grpc::ClientContext *context = m_contexts.back().get();
                m_threads.emplace_back([this, channel, context] { hold(*channel, *context); });
            }
            // Eight at a time, each eight settled before the next: a client opening them
            // in a loop with a few in flight. Half a network's pending connections, so
            // none of its own still in their handshake makes another give way.
            if ((c + 1) % 8 != 0 && c + 1 != connections)
                continue;
            std::unique_lock lock(m_mutex);
            m_changed.wait_for(lock, 5s, [&] { return m_settled == m_threads.size(); });
        }
    }
    ~TokenHog()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        for (auto &context : m_contexts)
            context->TryCancel();
        for (std::thread &thread : m_threads)
            thread.join();
    }
    int held() const { return m_held; }
    int refused() const { return m_refused; }
    std::string lastRefusal() const
    {
        std::lock_guard lock(m_mutex);
        return m_lastRefusal;
    }

private:
    void hold(grpc::Channel &channel, grpc::ClientContext &context)
    {
        grpc::Status status;
        if (m_door.program() == Program::Agent) {
            auto shared = std::shared_ptr<grpc::Channel>(&channel, [](grpc::Channel *) {});
            v1::StreamTelemetryRequest request;
            request.set_interval_ms(1000);
            auto reader = v1::NodeAgent::NewStub(shared)->StreamTelemetry(&context, request);
            v1::TelemetryBatch batch;
            bool first = true;
            while (reader->Read(&batch)) {
                if (first)
                    settle(true, {});
                first = false;
            }
            status = reader->Finish();
            if (first)
                settle(false, status);
            return;
        }
        status = m_door.read(channel, 5000ms);
        settle(status.ok(), status);
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_stop; });
    }
    void settle(bool held, const grpc::Status &status)
    {
        std::lock_guard lock(m_mutex);
        ++m_settled;
        if (held) {
            ++m_held;
        } else if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
            ++m_refused;
            m_lastRefusal = status.error_message();
        }
        m_changed.notify_all();
    }

    const Door &m_door;
    std::vector<std::shared_ptr<grpc::Channel>> m_channels;
    std::vector<std::unique_ptr<grpc::ClientContext>> m_contexts;
    std::vector<std::thread> m_threads;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    size_t m_settled = 0;
    bool m_stop = false;
    std::atomic<int> m_held{0};
    std::atomic<int> m_refused{0};
    std::string m_lastRefusal;
};

// A console's telemetry stream on the agent, opened before an attack: counts the
// batches it gets, and whether it ended.
class ConsoleStream {
public:
    explicit ConsoleStream(const Door &door) : m_channel(door.channel(kConsoleToken))
    {
        m_thread = std::thread([this] {
            v1::StreamTelemetryRequest request;
            request.set_interval_ms(200);
            auto reader = v1::NodeAgent::NewStub(m_channel)->StreamTelemetry(&m_context, request);
            v1::TelemetryBatch batch;
            while (reader->Read(&batch))
                ++m_batches;
            m_ended = true;
        });
    }
    ~ConsoleStream()
    {
        m_context.TryCancel();
        m_thread.join();
    }
    int batches() const { return m_batches; }
    bool ended() const { return m_ended; }

private:
    std::shared_ptr<grpc::Channel> m_channel;
    grpc::ClientContext m_context;
    std::atomic<int> m_batches{0};
    std::atomic<bool> m_ended{false};
    std::thread m_thread;
};

// `calls` operator calls, each on a new connection (its TLS handshake counted): the
// slowest, and how many failed or took a second or more.
struct Served {
    std::chrono::milliseconds slowest{0};
    int late = 0;
    std::string why;
};
Served operatorCalls(const Door &door, int calls)
{
    Served served;
    for (int i = 0; i < calls; ++i) {
        const auto asked = std::chrono::steady_clock::now();
        auto channel = door.channel(kOperatorToken);
        const grpc::Status status = door.read(*channel, 1000ms);
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - asked);
        served.slowest = std::max(served.slowest, took);
        if (!status.ok() || took >= 1s) {
            ++served.late;
            served.why = status.ok() ? fmt::format("{} ms", took.count()) : status.error_message();
        }
        std::this_thread::sleep_for(50ms);
    }
    return served;
}

class FrontDoor : public testing::TestWithParam<Program> {};

TEST_P(FrontDoor, AReadOnlyTokenPastItsShareLeavesTheOperatorAndOtherTokensServed)
{
    Door door(GetParam());
    ASSERT_TRUE(door.answering()) << door.log();
    auto console = door.channel(kConsoleToken);
    ASSERT_TRUE(door.read(*console, 2000ms, true).ok());

    // Twice its share: what it holds is its share whatever it asks, and each refusal is
    // a handshake the door makes (the churn case below asks past its share under load).
    TokenHog hog(door, 64);
    // The hog got its token's share, an eighth of the doors, and not the rest.
    EXPECT_EQ(hog.held(), 32) << hog.lastRefusal();
    EXPECT_EQ(hog.refused(), 32);
    EXPECT_NE(hog.lastRefusal().find("token 'hog' holds"), std::string::npos) << hog.lastRefusal();

    // What the hog holds does not change while it holds it: a dozen calls sample it.
    const Served served = operatorCalls(door, 12);
    EXPECT_EQ(served.late, 0) << "last: " << served.why;
    RecordProperty("operator_slowest_ms", static_cast<int>(served.slowest.count()));
    // The console connected before, and a new one with its token, are served too.
    EXPECT_TRUE(door.read(*console, 1000ms).ok());
    EXPECT_TRUE(door.read(*door.channel(kConsoleToken), 1000ms).ok());
    EXPECT_TRUE(door.running()) << door.log();
}

INSTANTIATE_TEST_SUITE_P(Programs, FrontDoor,
                         testing::Values(Program::Agent, Program::Pool, Program::Scaled),
                         [](const testing::TestParamInfo<Program> &info) {
                             return nameOf(info.param);
                         });

// On the agent alone. The three programs start the same door with the same options
// (startGuardedGrpcServer with their files' security), which the case above proves for
// each; a churn at full speed loads both cores for as long as it runs, the same code
// three times over. The agent is the door on every server, and the one a console keeps
// a stream open on.
TEST(FrontDoorChurn, FromManyAddressesWithATokenHogLeavesTheOperatorAndAConsolesStreamServed)
{
    Door door(Program::Agent);
    ASSERT_TRUE(door.answering()) << door.log();
    ConsoleStream stream(door);
    const double baselineMiB = residentMiB(door.pid());

    ChurningClients bare(door.port, "", "127.0.1.1", 40);
    ChurningClients idleTls(door.port, door.dir.file("door.crt"), "127.0.2.1", 20);
    // Past its share of connections (a quarter of 256) by half as much again: under churn
    // each refused one is a TLS handshake the door makes while busy, and a hog of 256
    // would only make the test longer (the test above has one).
    TokenHog hog(door, 96);
    // The churn in full swing: the door has closed some of it, the idle ones are in.
    EXPECT_TRUE(
        test::waitUntil([&] { return bare.closedByServer() > 0 && idleTls.connections() > 20; }));
    const Served served = operatorCalls(door, 12);
    EXPECT_EQ(served.late, 0) << "last: " << served.why;
    RecordProperty("operator_slowest_ms", static_cast<int>(served.slowest.count()));
    EXPECT_GT(bare.closedByServer(), 0) << "the churn did not reach the door";
    EXPECT_GT(idleTls.connections(), 20);

    const double grownMiB = residentMiB(door.pid()) - baselineMiB;
    RecordProperty("rss_growth_mib", static_cast<int>(grownMiB));
    EXPECT_LT(grownMiB, 100);
    const int before = stream.batches();
    EXPECT_TRUE(test::waitUntil([&] { return stream.batches() > before; }, 5s))
        << "the console's stream stalled";
    EXPECT_FALSE(stream.ended()) << "the console's stream was dropped";
    EXPECT_TRUE(door.running()) << door.log();
}

TEST(FrontDoorStreams, OneTokensStreamsOnTheAgentAreCappedAndAnotherTokensAreNot)
{
    Door door(Program::Agent);
    ASSERT_TRUE(door.answering()) << door.log();
    // Its share of connections, five streams on each: past its share of streams.
    TokenHog hog(door, 32, 5);
    EXPECT_EQ(hog.held(), 128) << hog.lastRefusal();
    EXPECT_EQ(hog.refused(), 160 - 128);
    EXPECT_NE(hog.lastRefusal().find("token 'hog' holds 128 streams"), std::string::npos)
        << hog.lastRefusal();
    ConsoleStream console(door);
    EXPECT_TRUE(waitUntil([&] { return console.batches() > 0; }, 5s))
        << "another token's stream was refused";
    EXPECT_FALSE(console.ended());
}

}  // namespace
