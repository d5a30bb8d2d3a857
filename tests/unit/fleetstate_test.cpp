// FleetState: stable card handles, garbage kept out of the numbers, staleness, events.
#include <gtest/gtest.h>

#include <cmath>

#include "fleet/fleetstate.h"
#include "wire/backoff.h"

using namespace meridian;

namespace {

NodeInventory inventoryOf(const std::string &node, std::vector<std::string> uuids)
{
    NodeInventory inv;
    inv.nodeId = node;
    for (uint32_t i = 0; i < uuids.size(); ++i) {
        CardInfo card;
        card.index = i;
        card.uuid = uuids[i];
        card.vendor = Vendor::Nvidia;
        card.model = "A100-SXM4-80GB";
        inv.cards.push_back(card);
    }
    return inv;
}

}  // namespace

TEST(FleetState, CardHandlesSurviveAgentRestartsAndReorderedInventories)
{
    FleetState state;
    const NodeHandle a = state.addNode("127.0.0.1:1", "xiamen");
    const NodeHandle b = state.addNode("127.0.0.1:2", "wuhu");
    state.setInventory(a, inventoryOf("a", {"u0", "u1"}), 1000);
    state.setInventory(b, inventoryOf("b", {"u2"}), 1000);
    state.setInventory(a, inventoryOf("a", {"u1", "u0"}), 1000);  // after a restart
    const FleetSnapshot s = state.snapshot(0);
    ASSERT_EQ(s.cardCount(), 3u);
    const FleetLayout &l = *s.layout;
    EXPECT_EQ(l.cardUuid[l.nodeCards[a][0]], "u1");
    EXPECT_EQ(l.cardIndex[l.nodeCards[a][0]], 0u);
    EXPECT_EQ(l.nodeCards[a][1], 0u);  // u0 kept handle 0
    EXPECT_EQ(l.nodeDataCenter[b], "wuhu");
    // Snapshots share the layout until an inventory changes it.
    EXPECT_EQ(state.snapshot(1).layout, s.layout);
    state.setInventory(b, inventoryOf("b", {"u2", "u3"}), 1000);
    EXPECT_NE(state.snapshot(2).layout, s.layout);
    EXPECT_EQ(state.snapshot(2).layout->generation, s.layout->generation + 1);
}

TEST(FleetState, EachCardKeepsFifteenMinutesAtItsNodesInterval)
{
    FleetState state;
    const NodeHandle scraped = state.addNode("prometheus:a", "xiamen");
    const NodeHandle streamed = state.addNode("127.0.0.1:1", "xiamen");
    state.setInventory(scraped, inventoryOf("a", {"ua"}), 15'000);
    state.setInventory(streamed, inventoryOf("b", {"ub"}), 1000);
    for (int i = 0; i < 1000; ++i) {
        TelemetrySample sample;
        CardSample card;
        card.index = 0;
        card.utilizationPercent = i % 100;
        sample.cards = {card};
        sample.sampleTimeUnixMs = 1'000'000'000 + i * 15'000LL;
        state.recordTelemetry(scraped, sample, sample.sampleTimeUnixMs);
        sample.sampleTimeUnixMs = 1'000'000'000 + i * 1000LL;
        state.recordTelemetry(streamed, sample, sample.sampleTimeUnixMs);
    }
    // A store's card: 60 points of 15 s, the newest last, not 900 of them.
    const auto a = state.history(0, CardMetric::Utilization);
    ASSERT_EQ(a.size(), 60u);
    EXPECT_EQ(a.front().timeUnixMs, 1'000'000'000 + 940 * 15'000LL);
    EXPECT_EQ(a.back().timeUnixMs, 1'000'000'000 + 999 * 15'000LL);
    EXPECT_FLOAT_EQ(a.back().value, 99.0f);
    const auto b = state.history(1, CardMetric::Utilization);
    ASSERT_EQ(b.size(), 900u);
    EXPECT_EQ(b.back().timeUnixMs, 1'000'000'000 + 999'000LL);
}

// The headless watcher judges the latest readings and draws no chart: it keeps none.
TEST(FleetState, AJudgeThatDrawsNoChartsKeepsTheLatestReadingAndNoHistory)
{
    FleetState state;
    state.keepNoCardHistory();
    const NodeHandle node = state.addNode("127.0.0.1:1", "xiamen");
    state.setInventory(node, inventoryOf("a", {"ua"}), 1000);
    for (int i = 0; i < 10; ++i) {
        TelemetrySample sample;
        CardSample card;
        card.index = 0;
        card.utilizationPercent = 40 + i;
        sample.cards = {card};
        sample.sampleTimeUnixMs = 1'000'000'000 + i * 1000LL;
        state.recordTelemetry(node, sample, sample.sampleTimeUnixMs);
    }
    EXPECT_FLOAT_EQ(state.snapshot(1'000'010'000).utilization[0], 49.0f);
    EXPECT_TRUE(state.history(0, CardMetric::Utilization).empty());
}

TEST(FleetState, GarbageReadingsBecomeNoReadingAndStalenessFollowsTheInterval)
{
    FleetState state;
    const NodeHandle n = state.addNode("127.0.0.1:1", "xiamen");
    state.setInventory(n, inventoryOf("n", {"u0", "u1"}), 1000);
    TelemetrySample sample;
    sample.sampleTimeUnixMs = 10'000;
    CardSample good;
    good.index = 0;
    good.utilizationPercent = 55;
    good.memoryUsedBytes = 40;
    good.memoryTotalBytes = 80;
    good.temperatureCelsius = 61;
    good.powerWatts = 300;
    CardSample garbage;
    garbage.index = 1;
    garbage.utilizationPercent = std::nan("");
    garbage.temperatureCelsius = -273;
    garbage.powerWatts = 1e12;
    garbage.memoryUsedBytes = 300;
    garbage.memoryTotalBytes = 80;
    CardSample unknownCard;
    unknownCard.index = 7;
    sample.cards = {good, garbage, unknownCard};
    state.recordTelemetry(n, sample, 10'000);
    FleetSnapshot s = state.snapshot(11'000);
    EXPECT_FLOAT_EQ(s.utilization[0], 55);
    EXPECT_FLOAT_EQ(s.memoryPercent[0], 50);
    EXPECT_TRUE(std::isnan(s.utilization[1]));
    EXPECT_TRUE(std::isnan(s.temperature[1]));
    EXPECT_TRUE(std::isnan(s.power[1]));
    EXPECT_TRUE(std::isnan(s.memoryPercent[1]));
    EXPECT_FALSE(s.nodeStale(n));
    EXPECT_TRUE(state.snapshot(13'001).nodeStale(n));  // three 1 s intervals missed
    const auto history = state.history(0, CardMetric::Temperature);
    ASSERT_EQ(history.size(), 1u);
    EXPECT_FLOAT_EQ(history[0].value, 61);
}

TEST(FleetState, EventsCountErrorsAndResumeFromTheLastSequence)
{
    FleetState state;
    const NodeHandle n = state.addNode("127.0.0.1:1", "xiamen");
    state.setInventory(n, inventoryOf("n", {"u0", "u1"}), 1000);
    Event xid;
    xid.sequence = 4;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 1;
    state.recordEvent(n, xid);
    Event gap;
    gap.kind = EventKind::Gap;
    gap.gapFirst = 5;
    gap.gapLast = 9;
    state.recordEvent(n, gap);
    EXPECT_EQ(state.lastEventSequence(n), 9u);
    EXPECT_EQ(state.snapshot(0).errors[1], 1u);
    uint64_t counter = 0;
    EXPECT_EQ(state.eventsSince(0, &counter).size(), 2u);
    EXPECT_EQ(counter, 2u);
    EXPECT_TRUE(state.eventsSince(counter, &counter).empty());
}

TEST(Backoff, GrowsWithJitterUpToTheCapAndResets)
{
    Backoff backoff(7, {1000, 1.6, 5000, 0.2});
    const int64_t first = backoff.nextDelayMs();
    EXPECT_GE(first, 800);
    EXPECT_LE(first, 1200);
    const int64_t second = backoff.nextDelayMs();
    EXPECT_GE(second, 1280);
    EXPECT_LE(second, 1920);
    for (int i = 0; i < 20; ++i)
        EXPECT_LE(backoff.nextDelayMs(), 6000);
    backoff.reset();
    EXPECT_LE(backoff.nextDelayMs(), 1200);
}

TEST(FleetState, AGarbageAgentsNicAndReplicaNumbersBecomeAbsent)
{
    FleetState state;
    const NodeHandle node = state.addNode("127.0.0.1:1", "xiamen");
    NodeInventory inventory;
    inventory.nodeId = "xm-n1";
    NicInfo nic;
    nic.netdev = "ens1np0";
    inventory.nics.push_back(nic);
    state.setInventory(node, inventory, 1000);
    TelemetrySample sample;
    NicSample s;
    s.counters.netdev = "ens1np0";
    s.rxBytesPerSecond = std::numeric_limits<double>::quiet_NaN();
    s.txBytesPerSecond = -5;
    s.rxPausePerSecond[3] = std::numeric_limits<double>::infinity();
    s.ecnMarkedPerSecond = 12;
    sample.nics.push_back(s);
    ReplicaSignals r;
    r.replicaId = "chat/r1";
    r.service = "chat";
    r.ttftP95Seconds = -1;
    r.queueDelayP95Seconds = std::numeric_limits<double>::quiet_NaN();
    r.kvCacheUsedRatio = 7;
    r.requestsPerSecond = 3;
    sample.replicas.push_back(r);
    state.recordTelemetry(node, sample, 1000);
    const auto nics = state.hostNics(1500);
    ASSERT_EQ(nics.size(), 1u);
    ASSERT_TRUE(nics[0].sample.has_value());
    EXPECT_FALSE(nics[0].sample->rxBytesPerSecond.has_value());
    EXPECT_FALSE(nics[0].sample->txBytesPerSecond.has_value());
    EXPECT_FALSE(nics[0].sample->rxPausePerSecond[3].has_value());
    EXPECT_EQ(nics[0].sample->ecnMarkedPerSecond, 12);
    const auto replicas = state.replicaReadings(1500);
    ASSERT_EQ(replicas.size(), 1u);
    EXPECT_FALSE(replicas[0].signals.ttftP95Seconds.has_value());
    EXPECT_FALSE(replicas[0].signals.queueDelayP95Seconds.has_value());
    EXPECT_FALSE(replicas[0].signals.kvCacheUsedRatio.has_value());
    EXPECT_EQ(replicas[0].signals.requestsPerSecond, 3);
    EXPECT_TRUE(state.replicaReadings(1000 + 3001 + 1000).empty()) << "a silent node says nothing";
}

TEST(FleetState, ANeighbourThatLldpStopsNamingIsKeptAsLastSeenWithItsTime)
{
    FleetState state;
    const NodeHandle node = state.addNode("127.0.0.1:2", "xiamen");
    NodeInventory inventory;
    inventory.nodeId = "xm-n2";
    NicInfo nic;
    nic.netdev = "ens1np0";
    LldpNeighbor leaf;
    leaf.systemName = "xm-leaf0";
    leaf.portId = "Ethernet8";
    nic.neighbor = leaf;
    inventory.nics.push_back(nic);
    state.setInventory(node, inventory, 1000, 10'000);
    auto nics = state.hostNics(10'500);
    ASSERT_EQ(nics.size(), 1u);
    EXPECT_EQ(nics[0].neighborSeenMs, 10'000);

    nic.neighbor.reset();  // the cable was pulled: LLDP names nobody now
    state.updateNics(node, {nic}, 70'000);
    nics = state.hostNics(70'500);
    ASSERT_EQ(nics.size(), 1u);
    ASSERT_TRUE(nics[0].nic.neighbor.has_value());
    EXPECT_EQ(nics[0].nic.neighbor->systemName, "xm-leaf0");
    EXPECT_EQ(nics[0].neighborSeenMs, 10'000) << "seen when it was last named, not now";

    nic.neighbor = leaf;
    nic.neighbor->systemName = "xm-leaf1";  // re-cabled
    state.updateNics(node, {nic}, 130'000);
    nics = state.hostNics(130'500);
    EXPECT_EQ(nics[0].nic.neighbor->systemName, "xm-leaf1");
    EXPECT_EQ(nics[0].neighborSeenMs, 130'000);
}

TEST(FleetState, EachNicKeepsFifteenMinutesOfRatesAPointEveryFiveSeconds)
{
    FleetState state;
    const NodeHandle node = state.addNode("127.0.0.1:3", "wuhu");
    NodeInventory inventory;
    inventory.nodeId = "wh-n3";
    NicInfo nic;
    nic.netdev = "ens1np0";
    inventory.nics.push_back(nic);
    state.setInventory(node, inventory, 1000);
    for (int second = 0; second < 20 * 60; ++second) {
        TelemetrySample sample;
        NicSample s;
        s.counters.netdev = "ens1np0";
        s.txBytesPerSecond = 1e9;  // 8 Gb/s
        s.rxPausePerSecond[3] = second;
        sample.nics.push_back(s);
        state.recordTelemetry(node, sample, 1'000'000 + second * 1000LL);
    }
    const std::vector<NicPoint> history = state.nicHistory("wh-n3", "ens1np0");
    ASSERT_EQ(history.size(), 180u);
    EXPECT_EQ(history.back().timeUnixMs - history.front().timeUnixMs, 179 * 5000);
    EXPECT_FLOAT_EQ(history.back().txBitsPerSecond, 8e9f);
    EXPECT_TRUE(std::isnan(history.back().rxBitsPerSecond)) << "not reported, not zero";
    EXPECT_FLOAT_EQ(history.back().pfcPausesPerSecond, 20 * 60 - 5);
    EXPECT_TRUE(state.nicHistory("wh-n3", "ens99np0").empty());
    EXPECT_TRUE(state.nicHistory("nobody", "ens1np0").empty());
}

TEST(FleetState, EachCardsFaultsAndEachNodesLinksAreKeptForTheHealthView)
{
    FleetState state;
    const NodeHandle n = state.addNode("127.0.0.1:1", "xiamen");
    state.setInventory(n, inventoryOf("n", {"u0", "u1", "u2", "u3"}), 1000);
    const auto event = [&](EventKind kind, std::optional<uint32_t> card, int64_t at = 1000,
                           const std::string &netdev = {}) {
        Event e;
        e.kind = kind;
        e.cardIndex = card;
        e.netdev = netdev;
        e.timeUnixMs = at;
        state.recordEvent(n, e);
    };
    event(EventKind::Xid, 0);
    event(EventKind::EccUncorrected, 1);
    event(EventKind::ThermalThrottle, 2);
    TelemetrySample sample;
    CardSample braked;
    braked.index = 3;
    braked.throttleReasons = std::vector<ThrottleReason>{ThrottleReason::HwPowerBrake};
    sample.cards.push_back(braked);
    state.recordTelemetry(n, sample, 1000);
    FleetSnapshot s = state.snapshot(1000);
    EXPECT_EQ(s.cardFaults[0], kFaultXid);
    EXPECT_EQ(s.cardFaults[1], kFaultEccUncorrected);
    EXPECT_EQ(s.cardFaults[2], kFaultThermal);
    EXPECT_EQ(s.cardFaults[3], kFaultThrottled);
    EXPECT_EQ(s.nodeLinkFault[n], 0);

    // A reading with reasons says what throttles now; one without reasons says nothing.
    sample.cards.front().throttleReasons = std::vector<ThrottleReason>{};
    CardSample cooled;
    cooled.index = 2;
    cooled.throttleReasons = std::vector<ThrottleReason>{ThrottleReason::Idle};
    CardSample unknown;
    unknown.index = 0;
    sample.cards.push_back(cooled);
    sample.cards.push_back(unknown);
    state.recordTelemetry(n, sample, 2000);
    event(EventKind::ThermalThrottleCleared, 1);  // not hot: changes nothing
    s = state.snapshot(2000);
    EXPECT_EQ(s.cardFaults[0], kFaultXid) << "an Xid stays until the card is looked at";
    EXPECT_EQ(s.cardFaults[1], kFaultEccUncorrected);
    EXPECT_EQ(s.cardFaults[2], 0);
    EXPECT_EQ(s.cardFaults[3], 0);

    // A link down until it is up again; a flap for ten minutes.
    event(EventKind::LinkDown, std::nullopt, 3000, "ens1np0");
    EXPECT_EQ(state.snapshot(3000).nodeLinkFault[n], 1);
    event(EventKind::LinkUp, std::nullopt, 4000, "ens1np0");
    EXPECT_EQ(state.snapshot(4000).nodeLinkFault[n], 0);
    event(EventKind::LinkFlap, std::nullopt, 5000, "ens1np0");
    EXPECT_EQ(state.snapshot(5000 + 9 * 60'000).nodeLinkFault[n], 1);
    EXPECT_EQ(state.snapshot(5000 + 11 * 60'000).nodeLinkFault[n], 0);
}
