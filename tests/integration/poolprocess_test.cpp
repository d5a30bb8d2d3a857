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

#include "agentprocess.h"
#include "childprocess.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "poolleases.h"
#include "silentclients.h"
#include "testsupport.h"
#include "wire/security.h"

using namespace meridian;

namespace {

constexpr const char *kToken = "pool-operator-token-0123456789";
// Another controller's: an operator too, but not the owner of the first one's leases.
constexpr const char *kOtherToken = "wuhu-operator-token-0123456789";

struct Pool {
    test::TempDir dir;
    std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    std::vector<std::string> agentAddresses;
    std::unique_ptr<test::ChildProcess> process;

    // Two spare nodes whose power-on starts a real agent after `bootSeconds`. Powering on
    // a node that is on, or still booting, does nothing, as `ipmitool power on` would: a
    // second agent would find the port taken, and the first would outlive the test.
    explicit Pool(double bootSeconds = 0, const std::string &extraProviders = "",
                  const std::string &offerExtra = "")
    {
        std::ofstream nodes(dir.file("nodes.yaml"));
        nodes << "ready_timeout_seconds: 30\nnodes:\n";
        for (int i = 1; i <= 2; ++i) {
            const std::string node = "spare-" + std::to_string(i);
            const std::string on = dir.file(node + ".on"), pidFile = dir.file(node + ".pid");
            agentAddresses.push_back("127.0.0.1:" + std::to_string(test::freePort()));
            const std::string start = fmt::format(
                "mkdir {} 2>/dev/null || exit 0; sleep {}; {} --listen {} --collector sim "
                "--data-dir {} > {} 2>&1 & echo $! > {}",
                on, bootSeconds, MERIDIAN_AGENT_BIN, agentAddresses.back(),
                dir.file(node + "-data"), dir.file(node + ".log"), pidFile);
            const std::string stop = fmt::format("kill $(cat {}); rmdir {}", pidFile, on);
            // Standby nodes are prepared: the weights put on their disk.
            const std::string prepare = "touch " + dir.file(node + ".weights");
            nodes << "  - node_id: " << node << "\n"
                  << "    agent_address: " << agentAddresses.back() << "\n"
                  << "    power_on: [sh, -c, " << nlohmann::json(start).dump() << "]\n"
                  << "    power_off: [sh, -c, " << nlohmann::json(stop).dump() << "]\n"
                  << "    prepare: [sh, -c, " << nlohmann::json(prepare).dump() << "]\n";
        }
        nodes.close();  // whole before the pool's provider first reads it
        test::makeLocalhostCertificate(dir.file("pool.key"), dir.file("pool.crt"));
        writeConfig(extraProviders, offerExtra);
        start();
    }
    // The pool's file; `offerExtra` goes inside the spare offer's braces.
    void writeConfig(const std::string &extraProviders, const std::string &offerExtra)
    {
        std::ofstream(dir.file("pool.yaml"))
            << "listen: " << address << "\n"
            << "tls: {cert_file: " << dir.file("pool.crt") << ", key_file: " << dir.file("pool.key")
            << "}\n"
            << "data_dir: " << dir.file("books") << "\n"
            << "tokens: [{name: scaled, role: operator, token: " << kToken << "},\n"
            << "         {name: scaled-wuhu, role: operator, token: " << kOtherToken << "}]\n"
            << "providers:\n"
            << "  - name: spare\n"
            << "    command: [" << MERIDIAN_POOL_BIN << ", local-provider, --nodes, "
            << dir.file("nodes.yaml") << ", --state, " << dir.file("state.json") << "]\n"
            << "    timeout_seconds: 60\n"
            << "    offers:\n"
            << "      - {offer_id: spare-a100, region: xiamen, vendor: nvidia, card_model: A100, "
               "cards_per_node: 8, nodes: 2, price_cny_per_card_hour: 0"
            << offerExtra << "}\n"
            << extraProviders;
    }
    ~Pool()
    {
        process.reset();
        for (int i = 1; i <= 2; ++i) {
            const std::string pid = test::readFile(dir.file("spare-" + std::to_string(i) + ".pid"));
            if (!pid.empty())
                ::kill(std::stoi(pid), SIGTERM);
        }
    }
    // Returns once the pool serves (or has ended), so no test calls it before it listens.
    void start()
    {
        process = std::make_unique<test::ChildProcess>(
            std::vector<std::string>{MERIDIAN_POOL_BIN, "--config", dir.file("pool.yaml")},
            dir.file("pool.log"));
        EXPECT_TRUE(process->untilLogSays("serving on")) << process->log();
    }
    // For failure messages: the pool's log, what the spare nodes' agents said and whether
    // they are on, and the pool's books as `stub` reads them.
    std::string whatItSays(v1::CapacityPool::Stub &stub) const
    {
        std::string text = process->log() + nodeLogs();
        const std::vector<v1::Lease> leases = test::allPoolLeases(stub, /*waitForReady=*/true);
        text += leases.empty() ? "--- the pool lists no lease, or did not answer\n"
                               : "--- the pool's leases:\n";
        for (const v1::Lease &l : leases)
            text += fmt::format("{} {} standby={} nodes={} {}\n", l.lease_id(),
                                v1::LeaseState_Name(l.state()), l.standby(), l.leased_nodes_size(),
                                l.message());
        return text;
    }
    // What the spare nodes' agents said, and whether they are on.
    std::string nodeLogs() const
    {
        std::string text;
        for (int i = 1; i <= 2; ++i) {
            const std::string node = "spare-" + std::to_string(i);
            text += fmt::format("--- {} ({}):\n{}", node,
                                std::filesystem::exists(dir.file(node + ".on")) ? "on" : "off",
                                test::readFile(dir.file(node + ".log")));
        }
        return text;
    }
    std::unique_ptr<v1::CapacityPool::Stub> stub(const std::string &token = kToken) const
    {
        ClientSecurity security;
        security.caFile = dir.file("pool.crt");
        security.token = token;
        return v1::CapacityPool::NewStub(makeChannel(address, security));
    }
};

grpc::Status lease(v1::CapacityPool::Stub &stub, const std::string &key, const std::string &offer,
                   const std::string &owner, v1::LeaseResponse &response)
{
    grpc::ClientContext context;
    test::withDeadline(context, std::chrono::seconds(10));
    context.set_wait_for_ready(true);
    v1::LeaseRequest request;
    request.set_idempotency_key(key);
    request.set_offer_id(offer);
    request.set_nodes(1);
    request.set_requested_by(owner);
    return stub.Lease(&context, request, &response);
}

// The owner gives a lease back.
grpc::Status release(v1::CapacityPool::Stub &stub, const std::string &id,
                     const std::string &owner = "scaled@xm")
{
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ReleaseRequest request;
    request.set_lease_id(id);
    request.set_requested_by(owner);
    v1::ReleaseResponse response;
    return stub.Release(&context, request, &response);
}

std::optional<v1::Lease> leaseNamed(v1::CapacityPool::Stub &stub, const std::string &id)
{
    for (const v1::Lease &l : test::allPoolLeases(stub, /*waitForReady=*/true)) {
        if (l.lease_id() == id)
            return l;
    }
    return std::nullopt;
}

bool reaches(const v1::CapacityPool::Stub &, v1::CapacityPool::Stub &stub, const std::string &id,
             v1::LeaseState state)
{
    return test::waitUntil([&] {
        const auto l = leaseNamed(stub, id);
        return l && l->state() == state;
    });
}

}  // namespace

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

namespace {

std::vector<v1::Lease> standbyLeases(v1::CapacityPool::Stub &stub, v1::LeaseState state)
{
    std::vector<v1::Lease> out;
    for (const v1::Lease &l : test::allPoolLeases(stub, /*waitForReady=*/true)) {
        if (l.standby() && l.state() == state)
            out.push_back(l);
    }
    return out;
}

uint32_t standbyNodesReady(v1::CapacityPool::Stub &stub)
{
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ListOffersResponse response;
    if (!stub.ListOffers(&context, {}, &response).ok() || response.offers().empty())
        return 0;
    return response.offers(0).standby_nodes_ready();
}

}  // namespace

TEST(PoolProcess, AStandbyNodeIsLeasedAtOnceReplacedAndOutlivesAKill9)
{
    Pool pool(/*bootSeconds=*/0.5, "", ", standby_nodes: 1, standby_price_cny_per_card_hour: 0.5");
    auto stub = pool.stub();
    // The pool brings one node up by itself, prepared, and holds it at the standby price.
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    const auto standing = standbyLeases(*stub, v1::LEASE_STATE_READY);
    ASSERT_EQ(standing.size(), 1u);
    EXPECT_EQ(standing[0].requested_by(), "meridian-pool standby");
    EXPECT_DOUBLE_EQ(standing[0].price_cny_per_card_hour(), 0.5);
    const std::string standbyNode = standing[0].leased_nodes(0).node_id();
    EXPECT_TRUE(std::filesystem::exists(pool.dir.file(standbyNode + ".weights")))
        << "the standby node was not prepared";

    // A one-node lease is READY in its answer, on that node, at the offer's price.
    const auto asked = std::chrono::steady_clock::now();
    v1::LeaseResponse taken;
    ASSERT_TRUE(lease(*stub, "scale-up-20-step-1", "spare-a100", "scaled@xm", taken).ok());
    EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(1));
    EXPECT_EQ(taken.lease().state(), v1::LEASE_STATE_READY);
    ASSERT_EQ(taken.lease().leased_nodes_size(), 1);
    EXPECT_EQ(taken.lease().leased_nodes(0).node_id(), standbyNode);
    EXPECT_EQ(taken.lease().taken_from(), standing[0].lease_id());
    EXPECT_DOUBLE_EQ(taken.lease().price_cny_per_card_hour(), 0);
    const auto given = leaseNamed(*stub, standing[0].lease_id());
    ASSERT_TRUE(given);
    EXPECT_EQ(given->state(), v1::LEASE_STATE_RELEASED) << "its standby hours go on";
    EXPECT_EQ(given->taken_by(), taken.lease().lease_id());

    // The other node is brought up to stand by in its place.
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    const std::string replacement =
        standbyLeases(*stub, v1::LEASE_STATE_READY).at(0).leased_nodes(0).node_id();
    EXPECT_NE(replacement, standbyNode);
    EXPECT_TRUE(std::filesystem::exists(pool.dir.file(replacement + ".weights")));

    // Killed and started again: the taken lease is still its owner's and still held (its
    // provider knows it by the standby lease's id), the key is answered from the books,
    // and no third node is asked for.
    pool.process->kill(SIGKILL);
    pool.start();
    stub = pool.stub();
    v1::LeaseResponse again;
    ASSERT_TRUE(lease(*stub, "scale-up-20-step-1", "spare-a100", "scaled@xm", again).ok());
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.lease().lease_id(), taken.lease().lease_id());
    ASSERT_TRUE(test::waitUntil([&] {
        return pool.process->log().find("provider spare: its list checked") != std::string::npos;
    })) << pool.process->log();
    EXPECT_EQ(leaseNamed(*stub, taken.lease().lease_id())->state(), v1::LEASE_STATE_READY)
        << pool.process->log();
    EXPECT_EQ(standbyLeases(*stub, v1::LEASE_STATE_READY).size(), 1u);

    // Given back by its owner, the node goes through the provider under the standby
    // lease's id and is powered off. One node standing by is what the offer asks: the
    // free node is not brought up too.
    ASSERT_TRUE(release(*stub, taken.lease().lease_id()).ok());
    ASSERT_TRUE(reaches(*stub, *stub, taken.lease().lease_id(), v1::LEASE_STATE_RELEASED));
    EXPECT_FALSE(
        nlohmann::json::parse(test::readFile(pool.dir.file("state.json")))["leases"].contains(
            standing[0].lease_id()));
    EXPECT_TRUE(test::holdsFor(
        [&] {
            return standbyLeases(*stub, v1::LEASE_STATE_READY).size() == 1u &&
                   standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).empty();
        },
        std::chrono::seconds(1)))
        << pool.process->log();

    // With standby_nodes lowered to 0, the next start gives both back.
    pool.process->kill(SIGTERM);
    pool.writeConfig("", "");
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return standbyLeases(*stub, v1::LEASE_STATE_READY).empty() &&
               standbyLeases(*stub, v1::LEASE_STATE_RELEASED).size() == 2;
    })) << pool.process->log();
    EXPECT_EQ(nlohmann::json::parse(test::readFile(pool.dir.file("state.json")))["leases"].size(),
              0u);
}

// The last free node is being brought up to stand by when a paying lease asks: the lease
// takes that node over as it comes up, rather than being refused while a node waits idle
// for nobody. The standby is refilled from the next node given back.
TEST(PoolProcess, APayingLeaseTakesOverTheLastNodeComingUpToStandBy)
{
    Pool pool(/*bootSeconds=*/2, "", ", standby_nodes: 1, standby_price_cny_per_card_hour: 0.5");
    auto stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    v1::LeaseResponse first;
    ASSERT_TRUE(lease(*stub, "scale-up-30-step-1", "spare-a100", "scaled@xm", first).ok());
    ASSERT_EQ(first.lease().state(), v1::LEASE_STATE_READY);
    // The pool now brings the other (and last) node up to stand by: two seconds of boot.
    ASSERT_TRUE(test::waitUntil([&] {
        return standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).size() == 1u;
    })) << pool.whatItSays(*stub);
    const std::string coming = standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING)[0].lease_id();

    v1::LeaseResponse second;
    const grpc::Status asked =
        lease(*stub, "scale-up-30-step-2", "spare-a100", "scaled@xm", second);
    ASSERT_TRUE(asked.ok()) << "a paying lease refused while a node came up to stand by: "
                            << asked.error_message();
    EXPECT_EQ(second.lease().state(), v1::LEASE_STATE_PROVISIONING);
    EXPECT_EQ(second.lease().taken_from(), coming);
    ASSERT_TRUE(reaches(*stub, *stub, second.lease().lease_id(), v1::LEASE_STATE_READY))
        << pool.process->log();
    const auto ready = leaseNamed(*stub, second.lease().lease_id());
    ASSERT_TRUE(ready && ready->leased_nodes_size() == 1);
    EXPECT_NE(ready->leased_nodes(0).node_id(), first.lease().leased_nodes(0).node_id());
    EXPECT_EQ(leaseNamed(*stub, coming)->state(), v1::LEASE_STATE_RELEASED);
    EXPECT_EQ(leaseNamed(*stub, coming)->taken_by(), second.lease().lease_id());
    EXPECT_EQ(standbyNodesReady(*stub), 0) << "no node is left to stand by";

    // Killed and started again: the lease is still held, under the standby lease's id.
    pool.process->kill(SIGKILL);
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return pool.process->log().find("provider spare: its list checked") != std::string::npos;
    })) << pool.process->log();
    EXPECT_EQ(leaseNamed(*stub, second.lease().lease_id())->state(), v1::LEASE_STATE_READY)
        << pool.process->log();

    // The first lease given back: its node stands by again.
    ASSERT_TRUE(release(*stub, first.lease().lease_id()).ok());
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
}

// Standby lowered while a standby node is still coming up: the next start lets that one go
// as soon as its provider answers, and keeps the one already standing by. It never stands
// by as a surplus billed until the pool next tops up.
TEST(PoolProcess, AStandbyNodeStillComingUpWhenStandbyIsLoweredIsLetGo)
{
    // Long enough a boot to be caught in it (the pool is killed as soon as it is seen).
    Pool pool(/*bootSeconds=*/1, "", ", standby_nodes: 1");
    auto stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    // Asked for a second, the pool is killed while that node boots.
    pool.process->kill(SIGTERM);
    pool.writeConfig("", ", standby_nodes: 2");
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).size() == 1;
    })) << pool.process->log();
    const std::string comingUp =
        standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).at(0).lease_id();
    pool.process->kill(SIGKILL);

    pool.writeConfig("", ", standby_nodes: 1");
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        const auto lease = leaseNamed(*stub, comingUp);
        return lease && lease->state() == v1::LEASE_STATE_RELEASED;
    })) << pool.process->log();
    EXPECT_EQ(leaseNamed(*stub, comingUp)->message(), "standby_nodes lowered in the configuration");
    EXPECT_EQ(standbyLeases(*stub, v1::LEASE_STATE_READY).size(), 1u)
        << "the node already standing by stays";
    EXPECT_EQ(standbyNodesReady(*stub), 1u);
}

TEST(PoolProcess, AStandbyNodeThatFailsToComeUpIsNotAskedForAgainAndAgain)
{
    // A provider whose leases fail and whose releases succeed: each failed standby lease
    // is given back at once, which must not free the way for the next attempt.
    const std::string flaky =
        "  - name: flaky\n"
        "    command: [sh, -c, 'if [ \"$1\" = lease ]; then echo no capacity >&2; exit 2; fi;"
        " echo \"{}\"', plugin]\n"
        "    offers: [{offer_id: flaky-h100, vendor: nvidia, card_model: H100, nodes: 4,"
        " standby_nodes: 1}]\n";
    Pool pool(0, flaky);
    auto stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return !standbyLeases(*stub, v1::LEASE_STATE_FAILED).empty();
    })) << pool.process->log();
    // The top-up follows a failed standby's release at once, with no pause between tries:
    // had it asked again, a second would hold dozens of failed leases.
    EXPECT_TRUE(
        test::holdsFor([&] { return standbyLeases(*stub, v1::LEASE_STATE_FAILED).size() == 1u; },
                       std::chrono::seconds(1)))
        << "the pool kept asking a failing provider";
    const auto failed = standbyLeases(*stub, v1::LEASE_STATE_FAILED);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].message().rfind("provider flaky: lease: sh: exit status 2: no capacity", 0),
              0u)
        << failed[0].message();
}
