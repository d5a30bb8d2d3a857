// meridian-pool over loopback gRPC with TLS and a token, its `local` provider run as an exec
// plugin, and real meridian-agent processes as the spare nodes: "power on" starts a
// node's agent, "power off" stops it. A lease is booked, provisioned and answered with
// agents that answer; the same key is answered from the books; a lease is its token's,
// and another controller's token may neither release it nor take it by its key; the
// owner's release powers the node off. Killed with kill -9 while a
// node is still coming up, the pool comes back, finishes that lease, and no node is
// taken twice; a lease its provider has lost is failed when the pool next starts. A
// provider that fails, hangs or prints garbage fails the lease with the
// provider's words.
#include <fmt/format.h>
#include <grpcpp/channel.h>
#include <gtest/gtest.h>

#include <thread>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "poolrig.h"
#include "silentclients.h"

using namespace meridian;
using namespace meridian::pooltest;

TEST(PoolProcess, LeasesARealNodeOnceReleasesOnlyToItsOwnerAndNeedsAToken)
{
    Pool pool;
    auto stub = pool.stub();
    v1::LeaseResponse first;
    const grpc::Status status = lease(*stub, "scale-up-9-step-1", "spare-a100", "scaled@xm", first);
    ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << pool.process->log();
    EXPECT_EQ(first.lease().state(), v1::LEASE_STATE_PROVISIONING) << "answered at once";
    const std::string id = first.lease().lease_id();
    ASSERT_TRUE(reaches(*stub, *stub, id, v1::LEASE_STATE_READY)) << pool.process->log();
    const auto ready = leaseNamed(*stub, id);
    ASSERT_EQ(ready->leased_nodes_size(), 1);
    // The node it names is a real agent that answers.
    auto agent = test::connect(ready->leased_nodes(0).agent_address());
    EXPECT_TRUE(test::untilAnswering(*agent));

    v1::LeaseResponse again;
    ASSERT_TRUE(lease(*stub, "scale-up-9-step-1", "spare-a100", "scaled@xm", again).ok());
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.lease().lease_id(), id);

    // The lease is its token's, whatever name the request gave.
    EXPECT_EQ(ready->requested_by(), "scaled");

    // Another controller may not give it back, whatever it says it is (or says nothing),
    // nor have its lease by asking with its key; its owner may.
    auto other = pool.stub(kOtherToken);
    for (const std::string claimed : {"scaled", "scaled@xm", ""}) {
        grpc::ClientContext context;
        test::withDeadline(context);
        v1::ReleaseRequest request;
        request.set_lease_id(id);
        request.set_requested_by(claimed);
        v1::ReleaseResponse response;
        const grpc::Status refused = other->Release(&context, request, &response);
        EXPECT_EQ(refused.error_code(), grpc::StatusCode::PERMISSION_DENIED) << claimed;
        EXPECT_NE(refused.error_message().find("belongs to scaled;"), std::string::npos)
            << refused.error_message();
    }
    {
        v1::LeaseResponse taken;
        const grpc::Status refused =
            lease(*other, "scale-up-9-step-1", "spare-a100", "scaled@xm", taken);
        EXPECT_EQ(refused.error_code(), grpc::StatusCode::PERMISSION_DENIED);
        EXPECT_NE(refused.error_message().find("is another owner's"), std::string::npos)
            << refused.error_message();
        EXPECT_FALSE(taken.has_lease()) << "the other owner's lease was handed over";
    }
    {
        ASSERT_TRUE(release(*stub, id).ok());
    }
    ASSERT_TRUE(reaches(*stub, *stub, id, v1::LEASE_STATE_RELEASED));
    EXPECT_TRUE(test::waitUntil([&] {
        grpc::ClientContext context;
        test::withDeadline(context, std::chrono::seconds(1));
        v1::NodeInventory inventory;
        return !agent->GetInventory(&context, {}, &inventory).ok();
    })) << "powered off";

    // Without the token nothing is leased.
    auto stranger = pool.stub("not-the-pool-token-at-all-000");
    v1::LeaseResponse refused;
    EXPECT_EQ(lease(*stranger, "k-stranger", "spare-a100", "x", refused).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
}

// The pool is behind the same TLS front door as the agent: a client that finishes its
// handshake and resets at once must cost a connection, not the pool. (The pool outlived
// it only because its first provider call, JSON on a tool's stdin, ignored SIGPIPE.)
TEST(PoolProcess, ClientsThatResetRightAfterTheTlsHandshakeLeaveItServing)
{
    Pool pool;
    auto stub = pool.stub();
    const auto answers = [&] {
        grpc::ClientContext context;
        test::withDeadline(context, std::chrono::seconds(10));
        context.set_wait_for_ready(true);
        v1::ListLeasesResponse response;
        return stub->ListLeases(&context, {}, &response).ok();
    };
    ASSERT_TRUE(answers()) << pool.process->log();
    const int port = std::stoi(pool.address.substr(pool.address.rfind(':') + 1));
    int handshakes = 0;
    for (int i = 0; i < 20; ++i)
        handshakes += test::handshakeAndReset(port, pool.dir.file("pool.crt"));
    EXPECT_GT(handshakes, 0) << "no client finished its handshake: nothing was tried";
    EXPECT_TRUE(answers()) << pool.process->log();
    ASSERT_FALSE(pool.process->ended())
        << "the pool died, wait status " << pool.process->waitStatus() << "\n"
        << pool.process->log();
}

TEST(PoolProcess, ConnectionsThatNeverCallLockNoControllerOut)
{
    // 256 TLS connections that finished their handshake and then said nothing, or only
    // the HTTP/2 preface, used to hold every slot: a controller with a token was refused.
    Pool pool;
    const auto answersWithin = [&](std::chrono::milliseconds limit) {
        auto stub = pool.stub();
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + limit);
        context.set_wait_for_ready(true);
        v1::ListLeasesResponse response;
        return stub->ListLeases(&context, {}, &response).ok();
    };
    ASSERT_TRUE(answersWithin(std::chrono::seconds(10))) << pool.process->log();
    const double baselineMiB = test::residentMiB(pool.process->pid());
    const int port = std::stoi(pool.address.substr(pool.address.rfind(':') + 1));
    const std::string cert = pool.dir.file("pool.crt");
    test::SilentClients quiet(port, cert, 128, test::Silence::AfterHandshake);
    test::SilentClients preface(port, cert, 128, test::Silence::AfterHttp2Preface);
    EXPECT_GE(quiet.opened() + preface.opened(), 250) << "nothing was tried";
    EXPECT_TRUE(answersWithin(std::chrono::milliseconds(1000)))
        << "a controller with a token was locked out\n"
        << pool.process->log();
    EXPECT_LT(test::residentMiB(pool.process->pid()), baselineMiB + 100);
    RecordProperty("rss_growth_mib",
                   static_cast<int>(test::residentMiB(pool.process->pid()) - baselineMiB));
    EXPECT_EQ(pool.process->log().find("agent"), std::string::npos)
        << "the pool speaks of itself as an agent:\n"
        << pool.process->log();
}

TEST(PoolProcess, KilledWhileANodeComesUpItFinishesThatLeaseAndTakesNoNodeTwice)
{
    Pool pool(/*bootSeconds=*/1);
    auto stub = pool.stub();
    v1::LeaseResponse first;
    ASSERT_TRUE(lease(*stub, "scale-up-10-step-1", "spare-a100", "scaled@xm", first).ok())
        << pool.process->log();
    const std::string id = first.lease().lease_id();
    // The provider writes which node the lease holds before it powers the node on.
    ASSERT_TRUE(test::waitUntil([&] {
        return test::readFile(pool.dir.file("state.json")).find(id) != std::string::npos;
    })) << pool.process->log();
    pool.process->kill(SIGKILL);  // the provider is powering a node on
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(reaches(*stub, *stub, id, v1::LEASE_STATE_READY)) << pool.process->log();
    v1::LeaseResponse again;
    ASSERT_TRUE(lease(*stub, "scale-up-10-step-1", "spare-a100", "scaled@xm", again).ok());
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.lease().lease_id(), id);
    // One lease in the provider's state, holding one node, and a second node still free.
    const auto state = nlohmann::json::parse(test::readFile(pool.dir.file("state.json")));
    ASSERT_EQ(state["leases"].size(), 1u) << state.dump();
    EXPECT_EQ(state["leases"][id]["nodes"].size(), 1u);
    v1::LeaseResponse second;
    ASSERT_TRUE(lease(*stub, "scale-up-11-step-1", "spare-a100", "scaled@xm", second).ok());
    ASSERT_TRUE(reaches(*stub, *stub, second.lease().lease_id(), v1::LEASE_STATE_READY));
    EXPECT_NE(leaseNamed(*stub, second.lease().lease_id())->leased_nodes(0).node_id(),
              leaseNamed(*stub, id)->leased_nodes(0).node_id());
    // A lease its provider has lost (its state edited by hand here) is failed, saying so,
    // when the pool next starts: it is not capacity.
    pool.process->kill(SIGTERM);
    auto edited = nlohmann::json::parse(test::readFile(pool.dir.file("state.json")));
    edited["leases"].erase(id);
    std::ofstream(pool.dir.file("state.json")) << edited.dump();
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(reaches(*stub, *stub, id, v1::LEASE_STATE_FAILED)) << pool.process->log();
    EXPECT_NE(leaseNamed(*stub, id)->message().find("provider spare no longer holds it"),
              std::string::npos);
    EXPECT_EQ(leaseNamed(*stub, second.lease().lease_id())->state(), v1::LEASE_STATE_READY);
    // The node it lost is free to lease again; with it taken, a fourth is refused,
    // naming the offer.
    v1::LeaseResponse third;
    ASSERT_TRUE(lease(*stub, "scale-up-12-step-1", "spare-a100", "scaled@xm", third).ok());
    ASSERT_TRUE(reaches(*stub, *stub, third.lease().lease_id(), v1::LEASE_STATE_READY));
    v1::LeaseResponse fourth;
    const grpc::Status full = lease(*stub, "scale-up-13-step-1", "spare-a100", "scaled@xm", fourth);
    EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(full.error_message().find("spare-a100: 1 nodes asked, 0 free"), std::string::npos)
        << full.error_message();
}

TEST(PoolProcess, AProviderThatFailsHangsOrPrintsGarbageFailsTheLeaseWithItsWords)
{
    const std::string broken =
        "  - name: broken\n"
        "    command: [sh, -c, 'echo quota exceeded in cn-wulanchabu >&2; exit 2', plugin]\n"
        "    offers: [{offer_id: broken-h100, vendor: nvidia, card_model: H100, nodes: 4}]\n"
        "  - name: slow\n"
        "    command: [sh, -c, 'sleep 30', plugin]\n"
        "    timeout_seconds: 1\n"
        "    offers: [{offer_id: slow-h100, vendor: nvidia, card_model: H100, nodes: 4}]\n"
        "  - name: chatty\n"
        "    command: [sh, -c, 'echo Welcome to the cloud CLI', plugin]\n"
        "    offers: [{offer_id: chatty-h100, vendor: nvidia, card_model: H100, nodes: 4}]\n";
    Pool pool(0, broken);
    auto stub = pool.stub();
    const std::pair<std::string, std::string> cases[] = {
        {"broken-h100",
         "provider broken: lease: sh: exit status 2: quota exceeded in cn-wulanchabu"},
        {"slow-h100", "provider slow: lease: sh: no answer within 1000 ms; killed it"},
        {"chatty-h100",
         "provider chatty: lease: answered with no JSON object: 'Welcome to the cloud CLI"},
    };
    for (const auto &[offer, words] : cases) {
        v1::LeaseResponse response;
        ASSERT_TRUE(lease(*stub, "key-" + offer, offer, "scaled@xm", response).ok())
            << pool.process->log();
        const std::string id = response.lease().lease_id();
        ASSERT_TRUE(reaches(*stub, *stub, id, v1::LEASE_STATE_FAILED)) << offer;
        EXPECT_EQ(leaseNamed(*stub, id)->message().rfind(words, 0), 0u)
            << leaseNamed(*stub, id)->message();
    }
}
