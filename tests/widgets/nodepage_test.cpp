// The node page: where the node is and whether it reports, its cards with their health,
// its RDMA links with switch port, state and drops, its events; opened from the main
// window for a node, and a card from it.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "core/clock.h"
#include "fakefleet.h"
#include "models/fleet/nodepagemodels.h"
#include "models/fleetsnapshotsource.h"
#include "widgets/fleet/carddetailpanel.h"
#include "widgets/fleet/nodepage.h"
#include "widgets/shell/mainwindow.h"

using namespace meridian;

namespace {

NicInfo nic(const std::string &netdev, const std::string &port)
{
    NicInfo n;
    n.netdev = netdev;
    n.linkState = LinkState::Up;
    LldpNeighbor neighbor;
    neighbor.systemName = "leaf-7";
    neighbor.portId = port;
    n.neighbor = neighbor;
    n.nearestCardIndex = 0;
    return n;
}

}  // namespace

TEST(NodePage, ShowsTheNodesCardsLinksAndEventsAndOpensACard)
{
    const int64_t now = SystemClock::instance().nowUnixMs();
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "wh-r01"}, {"wuhu", "wh-2", "wh-r01"}}, now);
    state.updateNics(0, {nic("ens1np0", "Ethernet1/1"), nic("ens2np0", "Ethernet1/2")}, now);
    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 3;
    xid.timeUnixMs = now;
    xid.message = "card 3: Xid 79, GPU has fallen off the bus";
    state.recordEvent(0, xid);
    Event down;
    down.kind = EventKind::LinkDown;
    down.netdev = "ens2np0";
    down.timeUnixMs = now;
    down.message = "ens2np0 carrier lost";
    state.recordEvent(0, down);
    TelemetrySample sample;
    NicSample ens2;
    ens2.counters.netdev = "ens2np0";
    ens2.counters.linkState = LinkState::Down;
    sample.nics.push_back(ens2);
    state.recordTelemetry(0, sample, now);
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    source.refresh();
    MainWindow window(source);

    NodePage *page = window.showNode(0);
    ASSERT_NE(page, nullptr);
    QAbstractItemModelTester cardsTester(const_cast<NodeCardsModel *>(page->cards()),
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester linksTester(const_cast<NodeLinksModel *>(page->links()),
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_TRUE(page->heading().contains(QStringLiteral("wh-1"))) << page->heading().toStdString();
    EXPECT_TRUE(page->heading().contains(QStringLiteral("live")));
    EXPECT_TRUE(page->heading().contains(QStringLiteral("a link is down")));
    ASSERT_EQ(page->cards()->rowCount(), 8);
    EXPECT_EQ(page->cards()->index(3, NodeCardsModel::Health).data().toString(),
              QStringLiteral("Xid"));
    EXPECT_EQ(page->cards()->index(2, NodeCardsModel::Health).data().toString(),
              QStringLiteral("healthy"));
    ASSERT_EQ(page->links()->rowCount(), 2);
    EXPECT_EQ(page->links()->index(1, NodeLinksModel::State).data().toString(),
              QStringLiteral("down"));
    EXPECT_EQ(page->links()->index(0, NodeLinksModel::Neighbour).data().toString(),
              QStringLiteral("leaf-7 Ethernet1/1"));
    EXPECT_EQ(page->eventCount(), 2);

    // Another node reuses the page; a double-clicked card opens in the fleet's panel.
    EXPECT_EQ(window.showNode(1), page);
    EXPECT_TRUE(page->heading().contains(QStringLiteral("wh-2")));
    EXPECT_EQ(page->links()->rowCount(), 0);
    auto *view = page->findChild<QTableView *>();
    ASSERT_NE(view, nullptr);
    page->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(page));
    const QRect row = view->visualRect(page->cards()->index(5, NodeCardsModel::Model));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, row.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, row.center());
    ASSERT_TRUE(window.detail()->card().has_value());
    EXPECT_EQ(*window.detail()->card(), 8u + 5u);
}
