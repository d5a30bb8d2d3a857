// The fabric model: hosts joined to leaves by LLDP, uplinks from the fabric file, load
// and congestion on links, and every inconsistency found with words that say where:
// a miscabled rail, PFC that differs from the switch, a stale neighbour, no neighbour,
// a port two hosts claim, a switch the file does not know. Also the real rail host
// capture, the path between two nodes, and a broken fabric file.
#include <gtest/gtest.h>

#include "fabric/fabricmodel.h"
#include "railnics.h"
#include "telemetry/nicparsers.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using test::kNow;

HostNic nic(const std::string &node, uint32_t rail, const std::string &leaf,
            const std::string &port)
{
    HostNic h = test::railHostNic(0, rail, kNow - 30'000);
    h.nodeId = node;
    h.nic.neighbor->systemName = leaf;
    h.nic.neighbor->portId = port;
    return h;
}

// Two pods' worth of one rail-optimised data center: leaf-rR serves rail R.
std::vector<HostNic> healthyPod()
{
    std::vector<HostNic> nics;
    for (int host = 0; host < 4; ++host) {
        for (uint32_t rail = 0; rail < 2; ++rail)
            nics.push_back(nic("xm-n" + std::to_string(host), rail, "leaf-r" + std::to_string(rail),
                               "Ethernet" + std::to_string(host * 8)));
    }
    return nics;
}

FabricFile twoLeavesTwoSpines()
{
    auto file = parseFabricFile(R"(data_centers:
  - name: xiamen
    spines: [spine-1, spine-2]
    leaves:
      - {name: leaf-r0, pod: 0, rail: 0, pfc_priorities: [3], uplink_gbps: 1600}
      - {name: leaf-r1, pod: 0, rail: 1, pfc_priorities: [3], uplink_gbps: 1600}
)",
                                "fabric.yaml");
    EXPECT_TRUE(file.ok()) << file.error().message;
    return file.value();
}

std::vector<FabricFinding> findingsOf(const Fabric &f, FindingKind kind)
{
    std::vector<FabricFinding> out;
    for (const FabricFinding &finding : f.findings) {
        if (finding.kind == kind)
            out.push_back(finding);
    }
    return out;
}

}  // namespace

TEST(FabricModel, AHealthyRailFabricHasHostLinksUplinksAndNoFindings)
{
    const FabricFile file = twoLeavesTwoSpines();
    const Fabric f = assembleFabric(healthyPod(), &file, kNow);
    EXPECT_TRUE(f.findings.empty()) << f.findings.front().what;
    EXPECT_EQ(f.links.size(), 8u + 4u);  // 8 host NICs, 2 leaves × 2 spines
    ASSERT_NE(f.findSwitch("leaf-r1"), nullptr);
    EXPECT_EQ(f.findSwitch("leaf-r1")->rail, 1);
    EXPECT_EQ(f.findSwitch("spine-2")->tier, SwitchTier::Spine);
}

TEST(FabricModel, ARailNicOnAnotherRailsLeafIsFoundWithOrWithoutTheFile)
{
    std::vector<HostNic> nics = healthyPod();
    nics[3] = nic("xm-n1", 1, "leaf-r0", "Ethernet40");  // rail 1 on the rail-0 leaf
    for (const bool withFile : {true, false}) {
        const FabricFile file = twoLeavesTwoSpines();
        const Fabric f = assembleFabric(nics, withFile ? &file : nullptr, kNow);
        const auto wrong = findingsOf(f, FindingKind::WrongLeaf);
        ASSERT_EQ(wrong.size(), 1u) << (withFile ? "with" : "without") << " the file";
        EXPECT_EQ(wrong[0].where, "xm-n1 ens11np0");
        EXPECT_NE(wrong[0].what.find("rail 1 NIC is cabled to leaf-r0 Ethernet40, a rail 0 leaf"),
                  std::string::npos)
            << wrong[0].what;
    }
}

TEST(FabricModel, PfcOnOtherPrioritiesThanTheSwitchIsAMismatch)
{
    std::vector<HostNic> nics = healthyPod();
    nics[0].nic.pfcEnabledPriorities = {3, 4};
    const FabricFile file = twoLeavesTwoSpines();
    Fabric f = assembleFabric(nics, &file, kNow);
    auto pfc = findingsOf(f, FindingKind::PfcMismatch);
    ASSERT_EQ(pfc.size(), 1u);
    EXPECT_NE(pfc[0].what.find("3,4 on the host, 3 on leaf-r0 Ethernet0"), std::string::npos)
        << pfc[0].what;
    // Without the file, what the switch advertises over LLDP (DCBX) is compared.
    nics = healthyPod();
    nics[5].nic.neighbor->pfcPriorities = std::vector<uint32_t>{4};
    f = assembleFabric(nics, nullptr, kNow);
    EXPECT_EQ(findingsOf(f, FindingKind::PfcMismatch).size(), 1u);
}

TEST(FabricModel, StaleNoNeighbourClaimedTwiceAndUnknownSwitch)
{
    std::vector<HostNic> nics = healthyPod();
    nics[1].neighborSeenMs = kNow - 30 * 60'000;
    nics[2].nic.neighbor.reset();
    nics[4].nic.neighbor->portId = "Ethernet0";  // xm-n2 rail 0 claims xm-n0's port
    nics[6].nic.neighbor->systemName = "leaf-x";
    nics[7].nic.neighbor->systemName = "leaf-x";
    nics[7].nic.neighbor->portId = "Ethernet32";
    const FabricFile file = twoLeavesTwoSpines();
    const Fabric f = assembleFabric(nics, &file, kNow);
    const auto stale = findingsOf(f, FindingKind::StaleNeighbor);
    ASSERT_EQ(stale.size(), 1u);
    EXPECT_NE(stale[0].what.find("not reported for 30 min"), std::string::npos);
    const auto linkOf = [&](const std::string &node, uint32_t rail) {
        for (const FabricLink &l : f.links) {
            if (l.hostNode == node && l.rail == rail)
                return &l;
        }
        return static_cast<const FabricLink *>(nullptr);
    };
    ASSERT_NE(linkOf("xm-n0", 1), nullptr);
    EXPECT_TRUE(linkOf("xm-n0", 1)->stale);
    EXPECT_EQ(findingsOf(f, FindingKind::NoNeighbor).size(), 1u);
    EXPECT_EQ(linkOf("xm-n1", 0), nullptr) << "no neighbour, no link";
    const auto twice = findingsOf(f, FindingKind::PortClaimedTwice);
    ASSERT_EQ(twice.size(), 1u);
    EXPECT_NE(twice[0].what.find("claimed by xm-n0 ens1np0 and by xm-n2 ens1np0"),
              std::string::npos)
        << twice[0].what;
    const auto unknown = findingsOf(f, FindingKind::UnknownSwitch);
    ASSERT_EQ(unknown.size(), 1u) << "once per switch";
    EXPECT_EQ(unknown[0].where, "leaf-x");
}

TEST(FabricModel, LoadPfcEcnDownAndFlappingReachTheLinks)
{
    std::vector<HostNic> nics = healthyPod();
    NicSample busy;
    busy.counters.linkState = LinkState::Up;
    busy.rxBytesPerSecond = 10e9;  // 80 Gb/s of 400
    busy.txBytesPerSecond = 25e9;  // 200 Gb/s: the busier direction
    busy.rxPausePerSecond[3] = 1200;
    busy.txPausePerSecond[3] = 300;
    busy.ecnMarkedPerSecond = 50;
    busy.cnpHandledPerSecond = 20;
    nics[0].sample = busy;
    NicSample down;
    down.counters.linkState = LinkState::Down;
    nics[1].sample = down;
    nics[2].recentLinkDrops = 3;
    const FabricFile file = twoLeavesTwoSpines();
    const Fabric f = assembleFabric(nics, &file, kNow);
    EXPECT_DOUBLE_EQ(*f.links[0].loadShare, 0.5);
    EXPECT_DOUBLE_EQ(f.links[0].pfcPausesPerSecond, 1500);
    EXPECT_DOUBLE_EQ(f.links[0].ecnPerSecond, 70);
    EXPECT_EQ(f.links[1].health, LinkHealth::Down);
    EXPECT_EQ(f.links[2].health, LinkHealth::Flapping);
    // leaf-r0's uplinks carry what its hosts send, shared over two spines: 200 Gb/s over
    // 2 × 800 Gb/s.
    for (const FabricLink &l : f.links) {
        if (l.kind == FabricLink::Kind::LeafToSpine && l.leaf == "leaf-r0") {
            EXPECT_TRUE(l.estimated);
            EXPECT_DOUBLE_EQ(*l.loadShare, 0.125);
        }
    }
}

TEST(FabricModel, AFlappingLinkADownLinkAndAPfcStormAreFindings)
{
    std::vector<HostNic> nics = healthyPod();
    nics[2].recentLinkDrops = 4;
    NicSample down;
    down.counters.linkState = LinkState::Down;
    nics[1].sample = down;
    NicSample storm;
    storm.counters.linkState = LinkState::Up;
    storm.rxPausePerSecond[3] = 48'000;
    nics[5].sample = storm;
    const FabricFile file = twoLeavesTwoSpines();
    const Fabric f = assembleFabric(nics, &file, kNow);
    const auto findingAt = [&](FindingKind kind) -> const FabricFinding * {
        for (const FabricFinding &finding : f.findings) {
            if (finding.kind == kind)
                return &finding;
        }
        return nullptr;
    };
    const FabricFinding *flap = findingAt(FindingKind::LinkFlapping);
    ASSERT_NE(flap, nullptr);
    EXPECT_EQ(flap->where, "xm-n1 ens1np0");
    EXPECT_NE(flap->what.find("4 times"), std::string::npos) << flap->what;
    const FabricFinding *downFinding = findingAt(FindingKind::LinkDown);
    ASSERT_NE(downFinding, nullptr);
    EXPECT_EQ(downFinding->where, "xm-n0 ens11np0");
    const FabricFinding *pfc = findingAt(FindingKind::PfcStorm);
    ASSERT_NE(pfc, nullptr);
    EXPECT_EQ(pfc->where, "xm-n2 ens11np0");
    EXPECT_NE(pfc->what.find("48000 pause frames/s"), std::string::npos) << pfc->what;
    EXPECT_EQ(findingKindName(FindingKind::PfcStorm), "PFC storm");
    // A healthy fabric has none of them.
    EXPECT_TRUE(assembleFabric(healthyPod(), &file, kNow).findings.empty());
}

TEST(FabricModel, PathsOnOneLeafAndAcrossASpine)
{
    std::vector<HostNic> nics = healthyPod();
    nics.push_back(nic("xm-n9", 0, "leaf-r0b", "Ethernet0"));  // another pod's rail-0 leaf
    auto file = twoLeavesTwoSpines();
    file.dataCenters[0].leaves.push_back(
        {"leaf-r0b", 1, 0, std::vector<uint32_t>{3}, 1600, {"spine-2"}});
    const Fabric f = assembleFabric(nics, &file, kNow);
    FabricPath p = pathBetween(f, "xm-n0", "xm-n3", 1);
    EXPECT_EQ(p.hops, (std::vector<std::string>{"xm-n0", "leaf-r1", "xm-n3"}));
    EXPECT_EQ(p.links.size(), 2u);
    p = pathBetween(f, "xm-n0", "xm-n9", 0);
    EXPECT_EQ(p.hops,
              (std::vector<std::string>{"xm-n0", "leaf-r0", "spine-2", "leaf-r0b", "xm-n9"}));
    p = pathBetween(f, "xm-n0", "xm-n9", 1);
    EXPECT_TRUE(p.hops.empty());
    EXPECT_NE(p.why.find("xm-n9 has no rail 1 NIC"), std::string::npos);
}

TEST(FabricModel, TheRealRailHostCaptureJoinsFourLeavesAndStorage)
{
    auto lldp = parseLldpctlJson(test::readFile(
        test::realData("fabric/lldpctl-f-json0_gpu-host_4-sonic-leaves_unifabric.json")));
    ASSERT_TRUE(lldp.ok()) << lldp.error().message;
    std::vector<HostNic> nics;
    for (const LldpInterface &i : lldp.value()) {
        HostNic h;
        h.nodeId = "gpu-host";
        h.dataCenter = "lab";
        h.nic.netdev = i.netdev;
        h.nic.linkState = LinkState::Up;
        h.nic.neighbor = i.neighbor;
        nics.push_back(h);
    }
    const Fabric f = assembleFabric(nics, nullptr, kNow);
    EXPECT_EQ(f.links.size(), 5u);
    for (const char *leaf : {"LEAF01", "LEAF02", "LEAF03", "LEAF04", "StorageSW"})
        EXPECT_NE(f.findSwitch(leaf), nullptr) << leaf;
    EXPECT_TRUE(findingsOf(f, FindingKind::PortClaimedTwice).empty());
}

TEST(FabricFile, MistakesNameTheirLineAndTheFileRoundTrips)
{
    auto bad = parseFabricFile(
        "data_centers:\n  - name: xiamen\n    spines: [s1]\n    leaves:\n"
        "      - {name: l1, pfc_priorities: [9]}\n",
        "fabric.yaml");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("fabric.yaml:5"), std::string::npos) << bad.error().message;
    auto twice = parseFabricFile("data_centers:\n  - name: a\n    spines: [s1, s1]\n", "f.yaml");
    EXPECT_FALSE(twice.ok());
    auto spine = parseFabricFile(
        "data_centers:\n  - name: a\n    spines: [s1]\n    leaves:\n      - {name: l1, spines: "
        "[s9]}\n",
        "f.yaml");
    ASSERT_FALSE(spine.ok());
    EXPECT_NE(spine.error().message.find("no spine s9"), std::string::npos);
    auto rail = parseFabricFile(
        "data_centers:\n  - name: a\n    spines: [s1]\n    leaves:\n      - {name: l1, rail: "
        "first}\n",
        "f.yaml");
    ASSERT_FALSE(rail.ok());
    EXPECT_NE(rail.error().message.find("f.yaml:5"), std::string::npos) << rail.error().message;
    EXPECT_NE(rail.error().message.find("rail must be a whole number ('first')"), std::string::npos)
        << rail.error().message;

    const FabricFile file = twoLeavesTwoSpines();
    auto again = parseFabricFile(fabricFileToYaml(file), "again.yaml");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->dataCenters[0].leaves[1].rail, 1);
    EXPECT_EQ(again->dataCenters[0].spines.size(), 2u);
}
