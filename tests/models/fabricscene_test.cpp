// The fabric drawing's model and view: racks collapse into one box with one line per
// leaf that shows its worst link, open in place when zoomed, a rail filter keeps one
// rail, and the view finds what was clicked and opens racks past its zoom level.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <set>

#include "models/fabricscene.h"
#include "widgets/fabricview.h"

using namespace meridian;

namespace {

constexpr int64_t kNow = 1'800'000'000'000;

// Two racks of two hosts, two rails: leaf-r0 and leaf-r1 under two spines.
Fabric smallFabric()
{
    std::vector<HostNic> nics;
    for (int host = 0; host < 4; ++host) {
        for (uint32_t rail = 0; rail < 2; ++rail) {
            HostNic h;
            h.nodeId = "xm-n" + std::to_string(host);
            h.dataCenter = "xiamen";
            h.nic.netdev = "ens" + std::to_string(1 + rail * 10) + "np0";
            h.nic.speedMbps = 400'000;
            h.nic.linkState = LinkState::Up;
            h.nic.nearestCardIndex = rail;
            h.nic.pfcEnabledPriorities = {3};
            LldpNeighbor n;
            n.systemName = "leaf-r" + std::to_string(rail);
            n.portId = "Ethernet" + std::to_string(host * 8);
            h.nic.neighbor = n;
            h.neighborSeenMs = kNow;
            NicSample s;
            s.counters.linkState = host == 1 && rail == 0 ? LinkState::Down : LinkState::Up;
            s.txBytesPerSecond = 5e9 * (host + 1);
            s.rxPausePerSecond[3] = host == 0 && rail == 0 ? 9000 : 10;
            h.sample = s;
            nics.push_back(h);
        }
    }
    FabricFile file;
    file.dataCenters.push_back({"xiamen",
                                {"spine-1", "spine-2"},
                                {{"leaf-r0", 0, 0, std::vector<uint32_t>{3}, 1600, {}},
                                 {"leaf-r1", 0, 1, std::vector<uint32_t>{3}, 1600, {}}}});
    return assembleFabric(nics, &file, kNow);
}

const std::map<std::string, std::string> kRacks = {
    {"xm-n0", "xm-r01"}, {"xm-n1", "xm-r01"}, {"xm-n2", "xm-r02"}, {"xm-n3", "xm-r02"}};

size_t count(const FabricScene &s, FabricSceneBox::Kind kind)
{
    return static_cast<size_t>(std::count_if(
        s.boxes.begin(), s.boxes.end(), [&](const FabricSceneBox &b) { return b.kind == kind; }));
}

}  // namespace

TEST(FabricScene, RacksCollapseIntoBundlesThatShowTheirWorstLink)
{
    const Fabric fabric = smallFabric();
    const FabricScene collapsed = layoutFabricScene(fabric, kRacks, {"xiamen", {}, false});
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Rack), 2u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Host), 0u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Leaf), 2u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Spine), 2u);
    EXPECT_EQ(collapsed.hostLinks, 8);
    size_t bundles = 0, uplinks = 0;
    for (const FabricSceneLine &l : collapsed.lines) {
        if (l.uplink) {
            ++uplinks;
            continue;
        }
        ++bundles;
        EXPECT_EQ(l.bundled.size(), 2u);
        if (l.bundled.size() == 2 && fabric.links[l.bundled[0]].hostNode == "xm-n0" &&
            fabric.links[l.bundled[0]].rail == 0u) {
            EXPECT_EQ(l.health, LinkHealth::Down) << "xm-n1's rail 0 link is down";
            EXPECT_EQ(l.pfcPausesPerSecond, 9000) << "the worst link, not a sum";
        }
    }
    EXPECT_EQ(bundles, 4u);  // 2 racks × 2 leaves
    EXPECT_EQ(uplinks, 2u);  // the pod's 2 leaves bundled, to each of 2 spines

    const FabricScene expanded = layoutFabricScene(fabric, kRacks, {"xiamen", {}, true});
    EXPECT_EQ(count(expanded, FabricSceneBox::Kind::Host), 4u);
    EXPECT_EQ(expanded.lines.size(), 8u + 4u);
    // A rack's box covers exactly its hosts: zooming in opens it in place.
    QRectF rack01, hosts01;
    for (const FabricSceneBox &b : collapsed.boxes) {
        if (b.key == "xm-r01")
            rack01 = b.rect;
    }
    for (const FabricSceneBox &b : expanded.boxes) {
        if (b.key == "xm-n0" || b.key == "xm-n1")
            hosts01 = hosts01.isNull() ? b.rect : hosts01.united(b.rect);
    }
    EXPECT_EQ(rack01, hosts01);
}

TEST(FabricScene, ARailFilterKeepsOneRailsLinksAndLeaf)
{
    const FabricScene s = layoutFabricScene(smallFabric(), kRacks, {"xiamen", 1u, true});
    EXPECT_EQ(count(s, FabricSceneBox::Kind::Leaf), 1u);
    EXPECT_EQ(s.hostLinks, 4);
    for (const FabricSceneBox &b : s.boxes) {
        if (b.kind == FabricSceneBox::Kind::Leaf) {
            EXPECT_EQ(b.key, "leaf-r1");
        }
    }
    EXPECT_TRUE(layoutFabricScene(smallFabric(), kRacks, {"atlantis", {}, false}).lines.empty());
}

TEST(FabricView, PicksTheClickedLineAndOpensRacksWhenZoomedIn)
{
    const Fabric fabric = smallFabric();
    FabricView view;
    view.resize(900, 600);
    view.setScene(layoutFabricScene(fabric, kRacks, {"xiamen", {}, false}));
    view.fitAll();
    QSignalSpy expanded(&view, &FabricView::expandRacksChanged);
    const bool wasExpanded = view.racksExpanded();
    view.zoomBy(wasExpanded ? 0.05 : 20, QPointF(450, 300));
    ASSERT_EQ(expanded.count(), 1);
    EXPECT_NE(view.racksExpanded(), wasExpanded);

    view.setScene(layoutFabricScene(fabric, kRacks, {"xiamen", {}, true}));
    view.fitAll();
    // Somewhere on screen the last line is the one picked (and nothing off screen is).
    const size_t last = view.scene().lines.size() - 1;
    bool found = false;
    for (int x = 0; x < view.width() && !found; x += 2) {
        for (int y = 0; y < view.height() && !found; y += 2) {
            const auto hit = view.lineAt(QPointF(x, y));
            found = hit && *hit == last;
        }
    }
    EXPECT_TRUE(found);
    EXPECT_FALSE(view.lineAt(QPointF(-500, -500)).has_value());
}

TEST(FabricScene, SwitchesAreNamedApartAndHostsSayTheirRack)
{
    // Two pods with a leaf per rail each: their labels must not read alike.
    std::vector<HostNic> nics;
    for (int pod = 0; pod < 2; ++pod) {
        for (uint32_t rail = 0; rail < 2; ++rail) {
            HostNic h;
            h.nodeId = "xm-p" + std::to_string(pod) + "-n1";
            h.dataCenter = "xiamen";
            h.nic.netdev = "ens" + std::to_string(rail);
            h.nic.linkState = LinkState::Up;
            h.nic.nearestCardIndex = rail;
            LldpNeighbor n;
            n.systemName = "xiamen-pod" + std::to_string(pod) + "-leaf" + std::to_string(rail);
            n.portId = "Ethernet1";
            h.nic.neighbor = n;
            h.neighborSeenMs = kNow;
            nics.push_back(h);
        }
    }
    const Fabric fabric = assembleFabric(nics, nullptr, kNow);
    const std::map<std::string, std::string> racks = {{"xm-p0-n1", "xm-r01"},
                                                      {"xm-p1-n1", "xm-r02"}};
    const FabricScene scene = layoutFabricScene(fabric, racks, {"xiamen", {}, true});
    std::set<QString> leafLabels;
    for (const FabricSceneBox &b : scene.boxes) {
        if (b.kind == FabricSceneBox::Kind::Leaf)
            leafLabels.insert(b.label);
    }
    EXPECT_EQ(leafLabels,
              (std::set<QString>{QStringLiteral("pod0-leaf0"), QStringLiteral("pod0-leaf1"),
                                 QStringLiteral("pod1-leaf0"), QStringLiteral("pod1-leaf1")}));
    // Opened racks keep a label under their hosts.
    std::vector<QString> rackLabels;
    for (const FabricSceneBox &b : scene.boxes) {
        if (b.kind == FabricSceneBox::Kind::RackLabel) {
            rackLabels.push_back(b.label);
            EXPECT_TRUE(scene.bounds.contains(b.rect));
        }
    }
    EXPECT_EQ(rackLabels,
              (std::vector<QString>{QStringLiteral("xm-r01"), QStringLiteral("xm-r02")}));
}

TEST(FabricView, CentringOnALinkZoomsInFarEnoughToOpenRacks)
{
    FabricView view;
    view.resize(900, 600);
    view.setScene(layoutFabricScene(smallFabric(), kRacks, {"xiamen", {}, false}));
    view.fitAll();
    view.centerOn(QPointF(40, 300), FabricView::kExpandAtZoom * 2);
    EXPECT_TRUE(view.racksExpanded());
    view.grab();  // paints the legend and the halo without trouble
}
