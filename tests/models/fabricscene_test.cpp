// The fabric drawing's model and view: a leaf's hosts gather into one box with one line
// that shows their worst link and open on a click, hosts open in place when zoomed, a
// rail filter keeps one rail, a fitted data center is named and fills its view, and the
// view finds what was clicked and opens racks past its zoom level.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <set>

#include "models/fabric/fabricscene.h"
#include "railnics.h"
#include "widgets/fabric/fabricview.h"

using namespace meridian;

namespace {

constexpr int64_t kNow = 1'800'000'000'000;

// Two racks of two hosts, two rails: leaf-r0 and leaf-r1 under two spines.
Fabric smallFabric()
{
    std::vector<HostNic> nics;
    for (int host = 0; host < 4; ++host) {
        for (uint32_t rail = 0; rail < 2; ++rail) {
            HostNic h = test::railHostNic(host, rail, kNow);
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

TEST(FabricScene, HostsGatherPerLeafUnderOneLineThatShowsTheirWorstLink)
{
    const Fabric fabric = smallFabric();
    const FabricScene collapsed = layoutFabricScene(fabric, kRacks, {"xiamen", {}, false});
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::HostGroup), 2u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Host), 0u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Leaf), 2u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::LeafLabel), 2u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::Spine), 2u);
    EXPECT_EQ(count(collapsed, FabricSceneBox::Kind::PodLabel), 1u);
    EXPECT_EQ(collapsed.hostLinks, 8);
    size_t bundles = 0, uplinks = 0;
    for (const FabricSceneLine &l : collapsed.lines) {
        if (l.uplink) {
            ++uplinks;
            continue;
        }
        ++bundles;
        ASSERT_EQ(l.bundled.size(), 4u) << "a leaf's four hosts";
        if (fabric.links[l.bundled[0]].leaf == "leaf-r0") {
            EXPECT_EQ(l.health, LinkHealth::Down) << "xm-n1's rail 0 link is down";
            EXPECT_EQ(l.pfcPausesPerSecond, 9000) << "the worst link, not a sum";
        }
    }
    EXPECT_EQ(bundles, 2u);  // one per leaf
    EXPECT_EQ(uplinks, 2u);  // the pod's 2 leaves bundled, to each of 2 spines
    for (const FabricSceneBox &b : collapsed.boxes) {
        if (b.kind == FabricSceneBox::Kind::HostGroup) {
            EXPECT_EQ(b.health, b.key == "leaf-r0" ? LinkHealth::Down : LinkHealth::Up) << b.key;
            EXPECT_TRUE(b.shortLabel.isEmpty())
                << "a count that fits only a partial pod's box would stand out alone";
        }
        if (b.kind == FabricSceneBox::Kind::LeafLabel) {
            EXPECT_EQ(b.shortLabel, QString::fromStdString(b.key.substr(b.key.size() - 1)));
        }
    }

    // A click opens one leaf's hosts in place: each with its own link to that leaf.
    const FabricScene opened =
        layoutFabricScene(fabric, kRacks, {"xiamen", {}, false, 0, "leaf-r0"});
    EXPECT_EQ(count(opened, FabricSceneBox::Kind::Host), 4u);
    size_t own = 0;
    for (const FabricSceneLine &l : opened.lines) {
        if (l.link != FabricSceneLine::kAggregate) {
            ++own;
            EXPECT_EQ(fabric.links[l.link].leaf, "leaf-r0");
        }
    }
    EXPECT_EQ(own, 4u);

    const FabricScene expanded = layoutFabricScene(fabric, kRacks, {"xiamen", {}, true});
    EXPECT_EQ(count(expanded, FabricSceneBox::Kind::Host), 4u);
    EXPECT_EQ(count(expanded, FabricSceneBox::Kind::HostGroup), 0u);
    EXPECT_EQ(expanded.lines.size(), 8u + 4u);
    // Hosts keep their places: opening a leaf and zooming in show them in the same spot.
    for (const FabricSceneBox &a : opened.boxes) {
        for (const FabricSceneBox &b : expanded.boxes) {
            if (a.kind == FabricSceneBox::Kind::Host && b.key == a.key) {
                EXPECT_EQ(a.rect, b.rect) << a.key;
            }
        }
    }
}

// A data center as the simulator builds one: ten pods of eight rails, thirty hosts a pod.
static Fabric bigFabric(std::map<std::string, std::string> &racks)
{
    std::vector<HostNic> nics;
    FabricFile file;
    FabricDataCenter dc{"xiamen", {"spine1", "spine2", "spine3", "spine4"}, {}};
    for (int pod = 0; pod < 10; ++pod) {
        for (uint32_t rail = 0; rail < 8; ++rail)
            dc.leaves.push_back(
                {"xiamen-pod" + std::to_string(pod) + "-leaf" + std::to_string(rail),
                 pod,
                 static_cast<int>(rail),
                 std::vector<uint32_t>{3},
                 1600,
                 {}});
        for (int host = 0; host < 30; ++host) {
            const std::string node = "xm-p" + std::to_string(pod) + "-n" + std::to_string(host);
            racks[node] = "xm-p" + std::to_string(pod) + "-r" + std::to_string(host / 4);
            for (uint32_t rail = 0; rail < 8; ++rail) {
                HostNic h;
                h.nodeId = node;
                h.dataCenter = "xiamen";
                h.nic.netdev = "ens" + std::to_string(rail);
                h.nic.speedMbps = 400'000;
                h.nic.linkState = LinkState::Up;
                h.nic.nearestCardIndex = rail;
                LldpNeighbor n;
                n.systemName = "xiamen-pod" + std::to_string(pod) + "-leaf" + std::to_string(rail);
                n.portId = "Ethernet" + std::to_string(host);
                h.nic.neighbor = n;
                h.neighborSeenMs = kNow;
                NicSample s;
                s.counters.linkState = LinkState::Up;
                s.txBytesPerSecond = 5e9;
                h.sample = s;
                nics.push_back(h);
            }
        }
    }
    file.dataCenters.push_back(dc);
    return assembleFabric(nics, &file, kNow);
}

// 2,400 host links used to be one green wall of rack-to-leaf lines, nothing named, the
// lower third of the view empty. Fitted to a 1366x768 screen's view, the data center now
// has a line per leaf, its spines' names whole, every pod named, and fills the height.
TEST(FabricView, AFittedDataCenterIsNamedGatheredPerLeafAndFillsTheView)
{
    std::map<std::string, std::string> racks;
    const Fabric fabric = bigFabric(racks);
    FabricView view;
    view.resize(1000, 690);
    FabricSceneOptions options{"xiamen", {}, false, 690.0 / 1000};
    view.setScene(layoutFabricScene(fabric, racks, options));
    view.fitAll();
    ASSERT_FALSE(view.racksExpanded());
    const FabricScene &scene = view.scene();
    EXPECT_EQ(scene.hostLinks, 2400);
    size_t hostLines = 0;
    for (const FabricSceneLine &l : scene.lines)
        hostLines += l.uplink ? 0 : 1;
    EXPECT_EQ(hostLines, 80u) << "one line per leaf, not one per rack and leaf";
    EXPECT_GE(scene.bounds.height() * view.zoom(), 0.95 * view.height())
        << "the drawing fills the view's height";
    const QFontMetrics metrics(view.font());
    std::set<std::string> pods;
    for (const FabricSceneBox &b : scene.boxes) {
        const double onScreen = b.rect.width() * view.zoom();
        if (b.kind == FabricSceneBox::Kind::Spine) {
            EXPECT_GE(onScreen, metrics.horizontalAdvance(b.label) + 4) << b.key;
        }
        if (b.kind == FabricSceneBox::Kind::PodLabel) {
            pods.insert(b.key);
            EXPECT_TRUE(b.label.startsWith(QStringLiteral("pod ")));
        }
        if (b.kind == FabricSceneBox::Kind::LeafLabel) {
            EXPECT_GE(onScreen, metrics.horizontalAdvance(b.shortLabel))
                << "a leaf's number reads under it";
        }
    }
    EXPECT_EQ(pods.size(), 10u);
    view.grab();
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
