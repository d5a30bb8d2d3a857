// The fabric of meridian-sim's fleet as the console assembles it: every node's NICs come
// over real loopback gRPC into FleetState, are joined with the simulator's fabric file,
// and a healthy fleet has no findings; a flapping link, a PFC storm and ECN congestion
// injected on three NICs show on exactly those links.
#include <gtest/gtest.h>

#include <thread>

#include "childprocess.h"
#include "fabric/fabricmodel.h"
#include "fleetlink/fleetclient.h"
#include "sim/simfleet.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

const FabricLink *hostLink(const Fabric &f, const std::string &node, const std::string &netdev)
{
    for (const FabricLink &l : f.links) {
        if (l.kind == FabricLink::Kind::HostToLeaf && l.hostNode == node && l.netdev == netdev)
            return &l;
    }
    return nullptr;
}

}  // namespace

TEST(SimFabric, AHealthyFleetHasNoFindingsAndInjectedTroubleShowsOnItsLink)
{
    SimFleetOptions options;
    options.nodes = 40;
    // Four samples a second: a flapping link drops every second (two samples of four),
    // instead of every four.
    options.sampleIntervalMs = 250;
    SimFleet fleet(options, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    FleetState state;
    ConnectionOptions connection;
    connection.fabricRefreshMs = 500;  // LLDP asked again twice a second, not once a minute
    FleetClient client(state, SystemClock::instance(), connection);
    FleetInventory inventory;
    for (const SimNodeView &n : fleet.nodes())
        inventory.agents.push_back({n.nodeId, n.address, n.dataCenter});
    client.connect(inventory);
    const FabricFile file = fleet.fabricFile();

    const auto assemble = [&] {
        return assembleFabric(state.hostNics(SystemClock::instance().nowUnixMs()), &file,
                              SystemClock::instance().nowUnixMs());
    };
    // Every host's links, waited for as such: the switches' uplinks are links too, so a
    // count of all of them is reached before the last hosts have answered.
    const auto hostLinksOf = [](const Fabric &f) {
        size_t n = 0;
        for (const FabricLink &l : f.links)
            n += l.kind == FabricLink::Kind::HostToLeaf;
        return n;
    };
    Fabric fabric;
    for (int i = 0; i < 100 && hostLinksOf(fabric) < 40u * 8; ++i) {
        std::this_thread::sleep_for(100ms);
        fabric = assemble();
    }
    ASSERT_EQ(hostLinksOf(fabric), 40u * 8);
    EXPECT_TRUE(fabric.findings.empty())
        << fabric.findings.front().where << ": " << fabric.findings.front().what;

    // The console asks each agent for its NICs again: the neighbours' seen time moves on.
    const auto seenOf = [&](const std::string &node) {
        for (const HostNic &h : state.hostNics(SystemClock::instance().nowUnixMs()))
            if (h.nodeId == node && h.nic.netdev == "ens1np0")
                return h.neighborSeenMs;
        return int64_t{0};
    };
    const std::string first = fleet.nodes()[0].nodeId;
    const int64_t before = seenOf(first);
    ASSERT_GT(before, 0);
    EXPECT_TRUE(test::waitUntil([&] { return seenOf(first) > before; }))
        << "the neighbour was not seen again";

    const std::string node = fleet.nodes()[5].nodeId;
    for (const auto &[kind, netdev] :
         {std::pair{FaultKind::LinkFlap, "ens1np0"}, std::pair{FaultKind::PfcStorm, "ens11np0"},
          std::pair{FaultKind::EcnCongestion, "ens21np0"}}) {
        FaultSpec fault;
        fault.nodeId = node;
        fault.kind = kind;
        fault.netdev = netdev;
        ASSERT_TRUE(fleet.inject(fault).ok());
    }
    const FabricLink *quiet = nullptr;
    for (int i = 0; i < 120; ++i) {
        std::this_thread::sleep_for(100ms);
        fabric = assemble();
        const FabricLink *flap = hostLink(fabric, node, "ens1np0");
        if (flap && flap->health == LinkHealth::Flapping)
            break;
    }
    const FabricLink *flap = hostLink(fabric, node, "ens1np0");
    const FabricLink *storm = hostLink(fabric, node, "ens11np0");
    const FabricLink *hot = hostLink(fabric, node, "ens21np0");
    quiet = hostLink(fabric, node, "ens31np0");
    ASSERT_TRUE(flap && storm && hot && quiet);
    EXPECT_EQ(flap->health, LinkHealth::Flapping);
    EXPECT_GT(storm->pfcPausesPerSecond, 100 * std::max(1.0, quiet->pfcPausesPerSecond));
    EXPECT_GT(hot->ecnPerSecond, 20 * std::max(1.0, quiet->ecnPerSecond));
    ASSERT_TRUE(hot->loadShare && quiet->loadShare);
    EXPECT_GT(*hot->loadShare, *quiet->loadShare);
    EXPECT_EQ(quiet->health, LinkHealth::Up);
    client.stop();
    fleet.stop();
}
