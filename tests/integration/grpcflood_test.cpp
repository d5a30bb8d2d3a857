// The agent under abuse that needs no token: the HTTP/2 rapid reset, thousands of
// streams opened and left open, and more connections than it has files for. Its memory
// stays bounded, a valid call still answers, and once the abuse stops it serves again.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "agentprocess.h"
#include "h2flood.h"
#include "silentclients.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;

namespace {

struct FloodRun {
    double baselineMiB = 0;
    double peakMiB = 0;
    bool answeredDuring = false;
};

// Floods the agent with `plan` while sampling its memory; a valid call is made 1.5 s in.
FloodRun floodAgent(AgentProcess &agent, v1::NodeAgent::Stub &stub, const FloodPlan &plan)
{
    FloodRun run;
    run.baselineMiB = residentMiB(agent.pid());
    std::atomic<bool> done{false};
    std::thread sampler([&] {
        while (!done) {
            run.peakMiB = std::max(run.peakMiB, residentMiB(agent.pid()));
            std::this_thread::sleep_for(50ms);
        }
    });
    std::thread caller([&] {
        std::this_thread::sleep_for(1500ms);
        grpc::ClientContext context;
        withDeadline(context, 2s);
        v1::NodeInventory inventory;
        run.answeredDuring = stub.GetInventory(&context, {}, &inventory).ok();
    });
    floodHttp2(plan);
    caller.join();
    std::this_thread::sleep_for(500ms);
    done = true;
    sampler.join();
    return run;
}

bool answersWithin(v1::NodeAgent::Stub &stub, std::chrono::seconds limit)
{
    grpc::ClientContext context;
    withDeadline(context, limit);
    v1::NodeInventory inventory;
    return stub.GetInventory(&context, {}, &inventory).ok() && inventory.cards_size() > 0;
}

// Whether a fresh client is served within a few seconds.
bool servesAgain(const std::string &address)
{
    auto fresh = connect(address);
    for (int attempt = 0; attempt < 20; ++attempt) {
        if (answersWithin(*fresh, 1s))
            return true;
        std::this_thread::sleep_for(250ms);
    }
    return false;
}

struct Agent {
    TempDir dir;
    int port = freePort();
    std::string address = "127.0.0.1:" + std::to_string(port);
    AgentProcess process;
    std::unique_ptr<v1::NodeAgent::Stub> stub;
    explicit Agent(AgentLimits limits = {})
        : process({"--listen", address, "--collector", "sim", "--data-dir", dir.path()}, limits)
    {
        stub = connect(address);
    }
};

}  // namespace

TEST(GrpcFlood, TheRapidResetIsCutOffAndTheAgentStaysSmallAndAnswering)
{
    Agent agent;
    ASSERT_TRUE(untilAnswering(*agent.stub));
    FloodPlan plan;
    plan.port = agent.port;
    plan.connections = 4;
    plan.streamsPerConnection = 100'000;
    plan.maxSeconds = 5;
    const FloodRun run = floodAgent(agent.process, *agent.stub, plan);
    // Before the agent checked frames itself, this took it from 20 MiB to over 4 GiB and
    // no call answered.
    EXPECT_EQ(agent.process.exitedWith(), -1) << "the agent died under the flood";
    EXPECT_LT(run.peakMiB, run.baselineMiB + 64) << run.baselineMiB << " -> " << run.peakMiB;
    EXPECT_TRUE(run.answeredDuring) << "a valid call did not answer during the flood";
    EXPECT_TRUE(answersWithin(*agent.stub, 3s));
}

TEST(GrpcFlood, ThousandsOfOpenStreamsAreCutOffAndAValidCallAnswers)
{
    Agent agent;
    ASSERT_TRUE(untilAnswering(*agent.stub));
    FloodPlan plan;
    plan.port = agent.port;
    plan.connections = 4;
    plan.streamsPerConnection = 4'000;  // 16,000 streams, none finished
    plan.resetEachStream = false;
    plan.maxSeconds = 5;
    const FloodRun run = floodAgent(agent.process, *agent.stub, plan);
    EXPECT_EQ(agent.process.exitedWith(), -1);
    EXPECT_LT(run.peakMiB, run.baselineMiB + 64) << run.baselineMiB << " -> " << run.peakMiB;
    EXPECT_TRUE(run.answeredDuring);
}

TEST(GrpcFlood, MoreConnectionsThanFilesAreRefusedAndTheAgentRecovers)
{
    // 256 files: room for about 74 connections. 400 are attempted.
    Agent agent({256, 0});
    ASSERT_TRUE(untilAnswering(*agent.stub));
    {
        SilentClients held(agent.port, "", 400, Silence::AfterHttp2Preface);
        std::this_thread::sleep_for(1s);
        EXPECT_EQ(agent.process.exitedWith(), -1) << "the agent died out of files";
        // Those past the cap were closed at once, not left hanging in the backlog.
        EXPECT_GE(held.closedByServer(), 300) << "of " << held.opened() << " connections";
    }
    EXPECT_TRUE(servesAgain(agent.address))
        << "the agent did not serve again once the connections closed";
}

TEST(GrpcFlood, AClientTheAgentHasNoThreadForIsRefusedAndTheAgentLives)
{
    // The agent's own threads first (gRPC sizes its pools by the cores), then a limit a
    // few above them; as nobody, so the limit applies.
    int ownThreads = 0;
    {
        Agent probe;
        ASSERT_TRUE(untilAnswering(*probe.stub));
        ownThreads = threadCount(probe.process.pid());
    }
    ASSERT_GT(ownThreads, 0);
    TempDir dir;
    ASSERT_EQ(chmod(dir.path().c_str(), 0777), 0);
    const int port = freePort();
    const std::string address = "127.0.0.1:" + std::to_string(port);
    AgentProcess agent({"--listen", address, "--collector", "sim", "--data-dir", dir.path()},
                       {0, ownThreads + 8, dir.path()});
    ASSERT_TRUE(untilAnswering(*connect(address)));
    {
        // Fewer than one address may hold unauthenticated: only the thread limit refuses.
        SilentClients held(port, "", 12, Silence::AfterHttp2Preface);
        std::this_thread::sleep_for(1s);
        // std::thread threw when no thread could be made; uncaught, that ended the agent.
        EXPECT_EQ(agent.exitedWith(), -1) << "the agent died when it ran out of threads";
        EXPECT_GT(held.closedByServer(), 0) << "every client got a thread: the limit did not bite";
    }
    EXPECT_TRUE(servesAgain(address));
}
