// The agent's doors held by clients that never make a call: TLS connections that finish
// their handshake and then say nothing, or only the HTTP/2 preface. They used to hold
// every one of the agent's 256 slots for as long as they liked, and a console with a
// token was refused for all that time.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "agentprocess.h"
#include "childprocess.h"
#include "silentclients.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;

namespace {

constexpr const char *kToken = "read-only-token-0123456789";
// The agent's allowance to authenticate, shorter than the 10 s default so the case need
// not wait it out; the closing is the same.
constexpr int kAllowanceS = 3;

bool servedWithin(v1::NodeAgent::Stub &stub, std::chrono::milliseconds limit)
{
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + limit);
    v1::NodeInventory inventory;
    return stub.GetInventory(&context, {}, &inventory).ok();
}

}  // namespace

TEST(IdleClients, ConnectionsThatNeverCallLockNoClientWithATokenOut)
{
    TempDir dir;
    const int port = freePort();
    const std::string address = "127.0.0.1:" + std::to_string(port);
    const std::string config = writeTlsAgentConfig(
        dir, "listen: " + address +
                 "\nauthenticate_within_seconds: " + std::to_string(kAllowanceS) +
                 "\ntokens:\n  - {name: desk, role: read-only, token: " + kToken + "}\n");
    ASSERT_FALSE(config.empty()) << "openssl is needed for this test";
    const std::string cert = dir.file("agent.crt");
    AgentProcess agent({"--config", config});
    ClientSecurity security;
    security.caFile = cert;
    security.token = kToken;
    const auto consoleChannel = makeChannel(address, security);
    auto console = v1::NodeAgent::NewStub(consoleChannel);
    ASSERT_TRUE(untilAnswering(*console));
    const double baselineMiB = residentMiB(agent.pid());

    SilentClients quiet(port, cert, 128, Silence::AfterHandshake);
    SilentClients preface(port, cert, 128, Silence::AfterHttp2Preface);
    const int held = quiet.opened() + preface.opened();
    EXPECT_GE(held, 250) << "the attack did not get its connections: nothing was tried";

    // A client with a token that connects now, in the middle of it, is served at once.
    // Its connection and TLS handshake count too: from a new channel to the answer.
    const auto asked = std::chrono::steady_clock::now();
    auto newcomer = v1::NodeAgent::NewStub(makeChannel(address, security));
    EXPECT_TRUE(servedWithin(*newcomer, 1000ms)) << "a client with a token was locked out";
    const auto served = std::chrono::steady_clock::now() - asked;
    EXPECT_LT(served, 1s);
    RecordProperty("served_ms", static_cast<int>(served / 1ms));
    RecordProperty("rss_growth_mib", static_cast<int>(residentMiB(agent.pid()) - baselineMiB));
    EXPECT_TRUE(servedWithin(*console, 1000ms)) << "the console connected before lost its slot";
    EXPECT_LT(residentMiB(agent.pid()), baselineMiB + 100);

    // None of them made a call: none keeps its connection past the allowance the agent's
    // file gives (the default's 10 s would fail the bound below).
    const auto closing = std::chrono::steady_clock::now();
    EXPECT_TRUE(
        waitUntil([&] { return quiet.closedByServer() + preface.closedByServer() >= held; }, 15s));
    const auto closedAfter = std::chrono::steady_clock::now() - closing;
    EXPECT_LT(closedAfter, std::chrono::seconds(kAllowanceS + 2));
    EXPECT_EQ(quiet.closedByServer() + preface.closedByServer(), held);
    EXPECT_EQ(agent.exitedWith(), -1);
    // The console's connection was never closed (a closed one goes idle until its next call).
    EXPECT_EQ(consoleChannel->GetState(false), GRPC_CHANNEL_READY)
        << "the authenticated console was closed with them";
    EXPECT_TRUE(servedWithin(*console, 1000ms));
}
