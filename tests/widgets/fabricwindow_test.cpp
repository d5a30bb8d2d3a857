// The fabric window over a FleetState filled as agents fill it: it assembles in the
// background, draws the links, lists what is wrong, shows a path and focuses a NIC.
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <algorithm>
#include <optional>

#include "core/clock.h"
#include "fleet/fleetstate.h"
#include "widgets/fabric/fabricview.h"
#include "widgets/fabric/fabricwindow.h"

using namespace meridian;

namespace {

// Two hosts on one rail-0 leaf; the second host's PFC is on priority 4, the leaf says 3.
void fill(FleetState &state, const std::string &dataCenter = "xiamen",
          const std::string &prefix = "xm")
{
    const int64_t now = SystemClock::instance().nowUnixMs();
    for (int h = 0; h < 2; ++h) {
        const NodeHandle node = state.addNode(
            "127.0.0.1:" + std::to_string(41000 + h + (prefix == "xm" ? 0 : 100)), dataCenter);
        NodeInventory inventory;
        inventory.nodeId = prefix + "-n" + std::to_string(h);
        inventory.rack = prefix + "-r01";
        NicInfo nic;
        nic.netdev = "ens1np0";
        nic.speedMbps = 400'000;
        nic.linkState = LinkState::Up;
        nic.nearestCardIndex = 0;
        nic.pfcEnabledPriorities = {h == 0 ? 3u : 4u};
        LldpNeighbor n;
        n.systemName = prefix + "-leaf0";
        n.portId = "Ethernet" + std::to_string(h * 8);
        n.pfcPriorities = std::vector<uint32_t>{3};
        nic.neighbor = n;
        inventory.nics.push_back(nic);
        state.setInventory(node, inventory, 1000);
        TelemetrySample sample;
        sample.sampleTimeUnixMs = now;
        NicSample s;
        s.counters.netdev = "ens1np0";
        s.counters.linkState = LinkState::Up;
        s.txBytesPerSecond = 20e9;
        sample.nics.push_back(s);
        state.recordTelemetry(node, sample, now);
    }
}

bool waitFor(const std::function<bool()> &done)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < 5000)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

}  // namespace

TEST(FabricWindow, AssemblesInTheBackgroundListsFindingsShowsAPathAndFocusesANic)
{
    FleetState state;
    fill(state);
    FabricWindow window(state, std::nullopt, QStringLiteral("fabric.yaml:3: rail: 0..63"));
    window.resize(1200, 800);
    ASSERT_TRUE(waitFor([&] { return !window.view()->scene().lines.empty(); }));
    EXPECT_EQ(window.view()->scene().hostLinks, 2);
    ASSERT_EQ(window.findings()->count(), 1);
    EXPECT_TRUE(window.findings()->item(0)->text().contains(QStringLiteral("PFC mismatch")));
    EXPECT_TRUE(window.findings()->item(0)->text().contains(QStringLiteral("xm-n1 ens1np0")));

    ASSERT_TRUE(window.showPath("xm-n0", "xm-n1", 0));
    EXPECT_TRUE(window.details().contains(QStringLiteral("xm-n0 → xm-leaf0 → xm-n1")))
        << window.details().toStdString();
    EXPECT_FALSE(window.showPath("xm-n0", "xm-n7", 0));
    EXPECT_TRUE(window.details().contains(QStringLiteral("No path")));

    // Fitted, a leaf's hosts are one box; a click on it opens them, a second closes them.
    window.view()->zoomBy(0.01, QPointF(100, 100));  // two hosts fitted would open them
    ASSERT_FALSE(window.view()->racksExpanded());
    const auto hostBoxes = [&] {
        return std::count_if(
            window.view()->scene().boxes.begin(), window.view()->scene().boxes.end(),
            [](const FabricSceneBox &b) { return b.kind == FabricSceneBox::Kind::Host; });
    };
    const auto groupBox = [&]() -> std::optional<size_t> {
        const auto &boxes = window.view()->scene().boxes;
        for (size_t i = 0; i < boxes.size(); ++i) {
            if (boxes[i].kind == FabricSceneBox::Kind::HostGroup)
                return i;
        }
        return std::nullopt;
    };
    ASSERT_TRUE(groupBox().has_value());
    EXPECT_EQ(hostBoxes(), 0);
    Q_EMIT window.view()->boxClicked(*groupBox());
    EXPECT_EQ(hostBoxes(), 2) << "the leaf's two hosts, each on its own";
    Q_EMIT window.view()->boxClicked(*groupBox());
    EXPECT_EQ(hostBoxes(), 0);

    window.view()->fitAll();
    ASSERT_TRUE(window.focusNic("xm-n1", "ens1np0"));
    // Opened from an alert, the view zooms to the link, close enough to see its host.
    EXPECT_GE(window.view()->zoom(), FabricView::kExpandAtZoom);
    // From the fabric back to the alerts of that NIC.
    QPushButton *alerts = nullptr;
    for (QPushButton *b : window.findChildren<QPushButton *>()) {
        if (b->text() == QStringLiteral("Alerts for this link"))
            alerts = b;
    }
    ASSERT_NE(alerts, nullptr);
    ASSERT_TRUE(alerts->isEnabled());
    QSignalSpy asked(&window, &FabricWindow::alertsRequested);
    alerts->click();
    ASSERT_EQ(asked.count(), 1);
    EXPECT_EQ(asked.at(0).at(0).toString(), QStringLiteral("xm-n1"));
    EXPECT_EQ(asked.at(0).at(1).toString(), QStringLiteral("ens1np0"));
    // 20 GB/s sent on a 400 Gb/s link.
    EXPECT_TRUE(window.details().contains(QStringLiteral("load 40.0%")))
        << window.details().toStdString();
}

// The first double-click on a Wuhu link alert: the window is new and its fabric not yet
// assembled. It opens on Wuhu, not the first data center listed, with the link lit.
TEST(FabricWindow, ALinkAskedForBeforeTheFirstAssemblyOpensOnItsOwnDataCenter)
{
    FleetState state;
    fill(state, "xiamen", "xm");
    fill(state, "wuhu", "wh");
    FabricWindow window(state, std::nullopt, QString());
    window.resize(1200, 800);
    window.show();
    ASSERT_EQ(window.fabric().links.size(), 0u) << "asked before the first assembly";
    ASSERT_TRUE(window.focusNic("wh-n1", "ens1np0"));
    ASSERT_TRUE(waitFor([&] { return !window.view()->scene().lines.empty(); }));
    QApplication::processEvents();
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("Wuhu")))
        << window.windowTitle().toStdString();
    EXPECT_TRUE(window.details().contains(QStringLiteral("wh-n1 ens1np0")))
        << window.details().toStdString();
    EXPECT_GE(window.view()->zoom(), FabricView::kExpandAtZoom) << "zoomed in on the link";

    // A NIC the fabric never heard of is said, not silently the first data center fitted.
    FabricWindow other(state, std::nullopt, QString());
    ASSERT_TRUE(other.focusNic("wh-n9", "ens1np0"));
    ASSERT_TRUE(waitFor([&] { return !other.view()->scene().lines.empty(); }));
    EXPECT_TRUE(other.details().contains(QStringLiteral("wh-n9 ens1np0 is not in the fabric")))
        << other.details().toStdString();
    EXPECT_FALSE(other.focusNic("wh-n9", "ens1np0")) << "once assembled, asked and answered";
}

// Switch and node names come from agents' LLDP: markup in them is shown as its characters.
TEST(FabricWindow, MarkupInAnAgentsNamesIsShownAsItsCharacters)
{
    FleetState state;
    fill(state, "zhongwei", "<i>zw");
    FabricWindow window(state, std::nullopt, QString());
    window.resize(1200, 800);
    ASSERT_TRUE(window.focusNic("<i>zw-n0", "ens1np0"));
    ASSERT_TRUE(waitFor([&] { return !window.view()->scene().lines.empty(); }));
    EXPECT_TRUE(window.details().contains(QStringLiteral("&lt;i&gt;zw-leaf0")))
        << window.details().toStdString();
    EXPECT_FALSE(window.details().contains(QStringLiteral("<i>")))
        << window.details().toStdString();
}
