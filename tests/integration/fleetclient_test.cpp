// The console's fleet client against a simulated fleet over loopback: everyone
// connects, a crashed agent comes back with no lost or repeated event, a hung agent goes
// stale and is reconnected, and none of it slows the other agents.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <set>
#include <thread>

#include "alerts/alertengine.h"
#include "childprocess.h"
#include "cost/reportloader.h"
#include "cost/usagereport.h"
#include "fleetlink/fleetclient.h"
#include "fleetlink/usagebackfill.h"
#include "fleetlink/usagesync.h"
#include "history/historystore.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "sim/simfleet.h"
#include "testsupport.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

FleetInventory inventoryOf(const SimFleet &fleet)
{
    FleetInventory inventory;
    for (const SimNodeView &node : fleet.nodes())
        inventory.agents.push_back({node.nodeId, node.address, node.dataCenter});
    return inventory;
}

ConnectionOptions fastOptions()
{
    ConnectionOptions options;
    options.intervalMs = 200;
    options.backoff = {100, 1.6, 1000, 0.2};
    return options;
}

NodeHandle handleOf(const FleetSnapshot &s, const std::string &nodeId)
{
    for (NodeHandle n = 0; n < s.nodeCount(); ++n) {
        if (s.layout->nodeId[n] == nodeId)
            return n;
    }
    return static_cast<NodeHandle>(-1);
}

// Every sequence the agent holds, asked directly.
std::vector<uint64_t> agentSequences(const std::string &address)
{
    auto stub =
        v1::NodeAgent::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + 1s);
    auto reader = stub->StreamEvents(&context, {});
    std::vector<uint64_t> sequences;
    v1::Event event;
    while (reader->Read(&event))
        sequences.push_back(event.sequence());  // ends at the deadline
    return sequences;
}

// Where seeded usage starts: two hours ago, on a minute boundary (recent enough to be
// inside the history's retention).
const int64_t kSeedMinute = SystemClock::instance().nowUnixMs() / 60'000 * 60 - 7200;

// Finished minutes in a simulated node's own ledger, as its agent keeps them: `minutes`
// minutes from kSeedMinute for each of the node's eight cards.
void seedUsage(SimFleet &fleet, const SimNodeView &node, int minutes)
{
    auto stub = v1::NodeAgent::NewStub(
        grpc::CreateChannel(node.address, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    v1::NodeInventory inventory;
    ASSERT_TRUE(stub->GetInventory(&context, {}, &inventory).ok());
    std::vector<UsageMinute> rows;
    for (int m = 0; m < minutes; ++m) {
        for (const auto &card : inventory.cards())
            rows.push_back(
                {kSeedMinute + m * 60, card.index(), card.uuid(), 60, 50, 83.0, 18'000.0, {}});
    }
    ASSERT_TRUE(fleet.usageLedger(node.nodeId)->record(rows).ok());
}

// Four agents misbehave at once: the fourth crashes for 2 s, the eighth hangs, the
// twelfth answers everything 2 s late, the fourteenth sends NaN, negative and impossible
// readings.
void injectTrouble(SimFleet &fleet, const std::vector<SimNodeView> &nodes)
{
    FaultSpec crash;
    crash.nodeId = nodes[3].nodeId;
    crash.kind = FaultKind::Crash;
    crash.durationMs = 2000;
    ASSERT_TRUE(fleet.inject(crash).ok());
    FaultSpec hang;
    hang.nodeId = nodes[7].nodeId;
    hang.kind = FaultKind::Hang;
    ASSERT_TRUE(fleet.inject(hang).ok());
    FaultSpec slow;
    slow.nodeId = nodes[11].nodeId;
    slow.kind = FaultKind::Slow;
    slow.delayMs = 2000;
    ASSERT_TRUE(fleet.inject(slow).ok());
    FaultSpec garbage;
    garbage.nodeId = nodes[13].nodeId;
    garbage.kind = FaultKind::GarbageValues;
    ASSERT_TRUE(fleet.inject(garbage).ok());
}

bool allConnected(const FleetState &state, size_t cards)
{
    const FleetSnapshot s = state.snapshot(SystemClock::instance().nowUnixMs());
    for (NodeHandle n = 0; n < s.nodeCount(); ++n) {
        if (s.nodeConnection[n] != ConnectionState::Connected || s.nodeStale(n))
            return false;
    }
    return s.cardCount() == cards;
}

bool connectedAgain(const FleetState &state, NodeHandle node)
{
    const FleetSnapshot s = state.snapshot(SystemClock::instance().nowUnixMs());
    return s.nodeConnection[node] == ConnectionState::Connected && !s.nodeStale(node);
}

// The node's events the console holds, in order.
std::vector<uint64_t> consoleSequences(const FleetState &state, NodeHandle node)
{
    uint64_t counter = 0;
    std::vector<uint64_t> seen;
    for (const FleetEvent &e : state.eventsSince(0, &counter)) {
        if (e.node == node)
            seen.push_back(e.event.sequence);
    }
    return seen;
}

}  // namespace

TEST(FleetClient, ConnectsEveryAgentAndSurvivesCrashAndHang)
{
    SimFleetOptions simOptions;
    simOptions.nodes = 24;
    simOptions.sampleIntervalMs = 200;
    SimFleet fleet(simOptions, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    FleetState state;
    FleetClient client(state, SystemClock::instance(), fastOptions());
    client.connect(inventoryOf(fleet));
    ASSERT_TRUE(test::waitUntil([&] { return allConnected(state, 24 * 8); }));

    const auto nodes = fleet.nodes();
    injectTrouble(fleet, nodes);
    const auto now = [] { return SystemClock::instance().nowUnixMs(); };
    NodeHandle crashed = handleOf(state.snapshot(now()), nodes[3].nodeId);
    NodeHandle hung = handleOf(state.snapshot(now()), nodes[7].nodeId);
    // Triage runs beside the client, as in the console.
    AlertEngine alerts;
    uint64_t eventCounter = 0;
    const auto alertActive = [&](const std::string &key) {
        alerts.evaluate(state.snapshot(now()), state.eventsSince(eventCounter, &eventCounter));
        const Alert *a = alerts.find(key);
        return a && a->active;
    };
    // Checked as each condition appears: the crashed agent comes back by itself.
    EXPECT_TRUE(test::waitUntil([&] { return alertActive("unreachable/" + nodes[3].nodeId); }));
    if (const Alert *crash = alerts.find("unreachable/" + nodes[3].nodeId)) {
        // Plain words for people, not a status number.
        EXPECT_FALSE(crash->message.empty());
        EXPECT_EQ(crash->message.find("(14)"), std::string::npos) << crash->message;
    }
    EXPECT_TRUE(test::waitUntil([&] {
        return alertActive("stale/" + nodes[7].nodeId) ||
               alertActive("unreachable/" + nodes[7].nodeId);
    }));
    EXPECT_TRUE(state.snapshot(now()).nodeStale(hung));
    // The rest keep streaming while four agents misbehave; garbage shows as no reading.
    const NodeHandle slowNode = handleOf(state.snapshot(now()), nodes[11].nodeId);
    const NodeHandle garbageNode = handleOf(state.snapshot(now()), nodes[13].nodeId);
    const FleetSnapshot during = state.snapshot(now());
    for (NodeHandle n = 0; n < during.nodeCount(); ++n) {
        if (n != crashed && n != hung && n != slowNode) {
            EXPECT_FALSE(during.nodeStale(n)) << during.layout->nodeId[n];
        }
    }
    EXPECT_TRUE(test::waitUntil([&] {
        const FleetSnapshot s = state.snapshot(now());
        const CardHandle card = s.layout->nodeCards[garbageNode].front();
        return std::isnan(s.utilization[card]) && std::isnan(s.temperature[card]) &&
               std::isnan(s.power[card]) &&
               s.nodeConnection[garbageNode] == ConnectionState::Connected;
    }));

    // The crashed agent restarts by itself after 2 s; the client reconnects.
    EXPECT_TRUE(test::waitUntil([&] { return connectedAgain(state, crashed); }));
    fleet.clearFaults(nodes[7].nodeId);
    EXPECT_TRUE(test::waitUntil([&] { return connectedAgain(state, hung); }));
    // Recovered agents resolve their alerts.
    EXPECT_TRUE(test::waitUntil([&] {
        return !alertActive("unreachable/" + nodes[3].nodeId) &&
               !alertActive("stale/" + nodes[7].nodeId) &&
               !alertActive("unreachable/" + nodes[7].nodeId);
    }));

    // No event lost or repeated across the reconnect: the console comes to hold exactly
    // what the agent holds.
    const std::vector<uint64_t> held = agentSequences(nodes[3].address);
    EXPECT_GE(held.size(), 2u);  // the first start and the restart at least
    EXPECT_TRUE(test::waitUntil([&] { return consoleSequences(state, crashed) == held; }));
    EXPECT_EQ(consoleSequences(state, crashed), held);
    client.stop();
    fleet.stop();
}

TEST(FleetClient, UnreachableAddressIsReportedNotFatal)
{
    FleetState state;
    FleetClient client(state, SystemClock::instance(), fastOptions());
    FleetInventory inventory;
    inventory.agents.push_back({"ghost", "127.0.0.1:1", "zhongwei"});  // nothing listens there
    client.connect(inventory);
    EXPECT_TRUE(test::waitUntil([&] {
        const FleetSnapshot s = state.snapshot(SystemClock::instance().nowUnixMs());
        return s.nodeConnection[0] == ConnectionState::Unreachable && !s.nodeError[0].empty();
    }));
    client.stop();
}

TEST(UsageSync, BackfillsEveryAgentOnceAndNamesTheOnesThatFail)
{
    SimFleetOptions simOptions;
    simOptions.nodes = 4;
    SimFleet fleet(simOptions, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    const auto nodes = fleet.nodes();
    seedUsage(fleet, nodes[0], 10);

    test::TempDir dir;
    auto store = HistoryStore::open(dir.file("history.db"));
    ASSERT_TRUE(store.ok());
    const FleetInventory fleetInventory = inventoryOf(fleet);
    SyncReport first = syncUsage(fleetInventory, *store.value());
    EXPECT_EQ(first.synced, 4);
    EXPECT_TRUE(first.failures.empty()) << first.failures.front();
    EXPECT_GE(store.value()->minuteCount(), 80);
    const int64_t afterFirst = store.value()->minuteCount();

    // A broken agent's impossible minutes (newer than anything stored, so they are sent)
    // are named and kept out of the cost.
    ASSERT_TRUE(fleet.usageLedger(nodes[1].nodeId)
                    ->record({{kSeedMinute + 3 * 3600, 0, "bad-0", std::nan(""), 10, {}, {}, {}},
                              {kSeedMinute + 3 * 3600 + 60, 0, "bad-0", 60, -5, {}, {}, {}},
                              {kSeedMinute + 3 * 3600 + 120, 0, "bad-0", 3600, 60, {}, {}, {}}})
                    .ok());
    FaultSpec crash;
    crash.nodeId = nodes[2].nodeId;
    crash.kind = FaultKind::Crash;
    ASSERT_TRUE(fleet.inject(crash).ok());
    SyncReport second = syncUsage(fleetInventory, *store.value());
    EXPECT_EQ(second.synced, 2);
    ASSERT_EQ(second.failures.size(), 2u);
    std::string failures = second.failures[0] + "\n" + second.failures[1];
    EXPECT_NE(failures.find(nodes[2].address), std::string::npos) << failures;
    EXPECT_NE(failures.find(nodes[1].address + ": 3 usage minutes ignored"), std::string::npos)
        << failures;
    // Everything again, nothing twice (a minute the agent finished meanwhile may be new).
    EXPECT_LE(store.value()->minuteCount() - afterFirst, 4 * 8);
    // (a live minute of the simulator's own may have been finished since: later still)
    EXPECT_GE(store.value()->lastMinute(nodes[0].nodeId), kSeedMinute + 9 * 60);
    fleet.stop();
}

TEST(UsageSync, RecordsCloudLeasesAndBillsTheRentedNodesAtThePoolsPrice)
{
    SimFleetOptions simOptions;
    simOptions.nodes = 2;
    simOptions.provisioningSeconds = 1;
    SimFleet fleet(simOptions, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    FleetInventory fleetInventory = inventoryOf(fleet);
    fleetInventory.capacityPool = fleet.controlAddress();
    auto pool = v1::CapacityPool::NewStub(
        grpc::CreateChannel(fleet.controlAddress(), grpc::InsecureChannelCredentials()));
    v1::LeaseRequest request;
    request.set_idempotency_key("burst-1");
    request.set_requested_by("fleetclient-test");  // the pool has no tokens to tell callers apart
    request.set_offer_id("cn-south-910b");         // 8 Ascend 910B per node at 1.5 CNY/card-hour
    request.set_nodes(1);
    v1::LeaseResponse leased;
    grpc::ClientContext context;
    ASSERT_TRUE(pool->Lease(&context, request, &leased).ok());
    std::optional<SimNodeView> cloudNode;
    ASSERT_TRUE(test::waitUntil([&] {
        for (const SimNodeView &node : fleet.nodes()) {
            if (node.dataCenter == "cloud")
                cloudNode = node;
        }
        return cloudNode.has_value();
    }));
    seedUsage(fleet, *cloudNode, 30);

    test::TempDir dir;
    auto store = HistoryStore::open(dir.file("history.db"));
    ASSERT_TRUE(store.ok());
    SyncReport report;
    ASSERT_TRUE(test::waitUntil([&] {  // until the rented node's agent answers
        report = syncUsage(fleetInventory, *store.value());
        return report.synced == 3;
    })) << (report.failures.empty() ? "" : report.failures[0]);
    EXPECT_EQ(report.leases, 1);
    store.value().reset();

    PriceBook prices;  // no price for the Ascend cards: only the lease prices the node
    const int64_t now = SystemClock::instance().nowUnixMs() / 1000;
    auto cost = buildUsageReport(dir.file("history.db"), prices,
                                 {kSeedMinute, kSeedMinute + 1800, ReportGroup::DataCenter, now});
    ASSERT_TRUE(cost.ok()) << cost.error().message;
    ASSERT_EQ(cost->rows.size(), 1u);
    EXPECT_EQ(cost->rows[0].group, "cloud");
    EXPECT_NEAR(cost->rows[0].costCny, 8 * 0.5 * 1.5, 1e-9);  // 8 cards × 30 min at the lease price
    // The lease itself: one started hour of 8 cards, billed from its creation.
    auto spend = buildUsageReport(dir.file("history.db"), prices,
                                  {now - 3600, now + 3600, ReportGroup::DataCenter, now});
    ASSERT_TRUE(spend.ok());
    ASSERT_EQ(spend->cloud.size(), 1u);
    EXPECT_EQ(spend->cloud[0].leaseId, leased.lease().lease_id());
    EXPECT_NEAR(spend->cloudSpendCny, 8 * 1.5, 1e-9);
    fleet.stop();
}

TEST(UsageBackfill, FillsTheHistoryInTheBackgroundAndStopsPromptly)
{
    SimFleetOptions simOptions;
    simOptions.nodes = 2;
    SimFleet fleet(simOptions, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    const auto nodes = fleet.nodes();
    seedUsage(fleet, nodes[1], 1);
    test::TempDir dir;
    auto store = HistoryStore::open(dir.file("history.db"));
    ASSERT_TRUE(store.ok());
    const auto started = std::chrono::steady_clock::now();
    {
        UsageBackfill backfill(inventoryOf(fleet), *store.value(), 3600);
        EXPECT_TRUE(test::waitUntil([&] { return backfill.lastReport().synced == 2; }));
    }  // stopping must not wait for the hour-long period
    EXPECT_LT(std::chrono::steady_clock::now() - started, 8s);
    EXPECT_GE(store.value()->lastMinute(nodes[1].nodeId), kSeedMinute);
    fleet.stop();
}

// In a console the backfill talks to each agent over the connection the console has
// open, and takes the inventory the agent sent there. Its own inventory asks for TLS,
// which these plaintext agents cannot speak: alone it reaches nobody, over the
// console's links it reaches both, and the node rows carry what the links said.
TEST(UsageBackfill, InAConsoleItUsesTheOpenConnectionsAndTheInventoryTheyWereSent)
{
    SimFleetOptions simOptions;
    simOptions.nodes = 2;
    SimFleet fleet(simOptions, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    const auto nodes = fleet.nodes();
    seedUsage(fleet, nodes[0], 5);
    FleetState state;
    FleetClient client(state, SystemClock::instance(), fastOptions());
    client.connect(inventoryOf(fleet));
    ASSERT_TRUE(test::waitUntil([&] {
        return client.inventoryOf(nodes[0].address) && client.inventoryOf(nodes[1].address);
    }));
    EXPECT_EQ(client.inventoryOf(nodes[0].address)->nodeId, nodes[0].nodeId);
    EXPECT_FALSE(client.inventoryOf("127.0.0.1:1"));

    // What the console was told, marked so the history shows where it came from.
    struct MarkedLinks final : AgentLinks {
        const FleetClient &client;
        explicit MarkedLinks(const FleetClient &c) : client(c) {}
        std::shared_ptr<grpc::Channel> channelTo(const std::string &address) const override
        {
            return client.channelTo(address);
        }
        std::optional<NodeInventory> inventoryOf(const std::string &address) const override
        {
            auto inventory = client.inventoryOf(address);
            if (inventory)
                inventory->hostname = "as-the-console-heard-it";
            return inventory;
        }
    } links(client);

    test::TempDir dir;
    FleetInventory overTls = inventoryOf(fleet);
    overTls.security.caFile = dir.file("ca.pem");
    std::ofstream(overTls.security.caFile) << "not a certificate\n";
    auto store = HistoryStore::open(dir.file("history.db"));
    ASSERT_TRUE(store.ok()) << store.error().message;
    const SyncReport alone = syncUsage(overTls, *store.value(), 2, 3000);
    EXPECT_EQ(alone.synced, 0) << "a channel of its own would have to speak TLS";
    const SyncReport linked =
        syncUsage(overTls, *store.value(), 2, 3000, SystemClock::instance(), &links);
    EXPECT_EQ(linked.synced, 2) << (linked.failures.empty() ? "" : linked.failures[0]);
    EXPECT_GE(store.value()->lastMinute(nodes[0].nodeId), kSeedMinute + 4 * 60);
    store.value().reset();
    SQLite::Database history(dir.file("history.db"));
    EXPECT_EQ(history
                  .execAndGet("SELECT count(*) FROM node WHERE hostname = "
                              "'as-the-console-heard-it'")
                  .getInt(),
              2);

    client.disconnect(nodes[1].address);
    EXPECT_FALSE(client.channelTo(nodes[1].address));
    EXPECT_FALSE(client.inventoryOf(nodes[1].address));
    client.stop();
    fleet.stop();
}
