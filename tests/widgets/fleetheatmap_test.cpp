// The heatmap: geometry that fits the fleet, tooltips, filters, and the main window's
// status line, on the offscreen platform.
#include <gtest/gtest.h>

#include <QAction>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>

#include "core/clock.h"
#include "fakefleet.h"
#include "models/alertcenter.h"
#include "models/fleetsnapshotsource.h"
#include "widgets/carddetailpanel.h"
#include "widgets/fleetheatmap.h"
#include "widgets/heatmaplayout.h"
#include "widgets/historychart.h"
#include "widgets/mainwindow.h"

using namespace meridian;

TEST(HeatmapLayout, SixThousandCardsFitA1080pScreenWithoutOverlap)
{
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(750, 12), 1000);
    const FleetSnapshot s = state.snapshot(1000);
    const QSize viewport(1880, 780);  // what is left of 1920×1080 under toolbar and summary
    const int cell = fittingCellSize(*s.layout, viewport);
    EXPECT_GE(cell, 6) << "cells too small to read";
    const HeatmapGeometry g = layoutHeatmap(*s.layout, viewport.width(), cell);
    EXPECT_LE(g.size.height(), viewport.height());
    ASSERT_EQ(g.cardRects.size(), 6000u);
    EXPECT_EQ(g.sections.size(), 3u);
    QRect bounds(QPoint(0, 0), g.size);
    for (size_t c = 0; c < g.cardRects.size(); ++c) {
        ASSERT_TRUE(bounds.contains(g.cardRects[c])) << c;
        if (c > 0) {
            EXPECT_FALSE(g.cardRects[c].intersects(g.cardRects[c - 1])) << c;
        }
    }
}

namespace {

// Filters by model and by state (the Xid card is the one with errors).
void expectFilters(FleetHeatmap &heatmap)
{
    HeatmapFilter byModel;
    byModel.model = QStringLiteral("Ascend 910B");
    heatmap.setFilter(byModel);
    EXPECT_EQ(heatmap.matchingCards(), 8);
    HeatmapFilter withErrors;
    withErrors.state = CardState::WithErrors;
    heatmap.setFilter(withErrors);
    EXPECT_EQ(heatmap.matchingCards(), 1);
    HeatmapFilter live;
    live.state = CardState::Live;
    heatmap.setFilter(live);
    EXPECT_EQ(heatmap.matchingCards(), 16);
}

// Help → Diagnostics shows the console's own figures.
void expectDiagnostics(MainWindow &window)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->text() == QStringLiteral("&Diagnostics"))
            action->trigger();
    }
    auto *dialog = window.findChild<QDialog *>();
    ASSERT_NE(dialog, nullptr);
    bool sawFigures = false;
    for (QLabel *label : dialog->findChildren<QLabel *>())
        sawFigures |=
            label->text().contains(QStringLiteral("Agents: 3 (2 live, 0 stale, 1 unreachable)"));
    EXPECT_TRUE(sawFigures);
    dialog->close();
}

}  // namespace

TEST(FleetHeatmap, TooltipFilterAndStatus)
{
    FleetState state;
    test::fillFleet(state,
                    {{"xiamen", "xm-r01-n1", "xm-r01", Vendor::Nvidia, 8, 87},
                     {"wuhu", "wh-r01-n1", "wh-r01", Vendor::Huawei, 8, 10},
                     {"wuhu", "wh-r01-n2", "wh-r01", Vendor::Huawei, 8, 0, false}},
                    SystemClock::instance().nowUnixMs());
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    MainWindow window(source);
    window.resize(1400, 900);
    window.show();
    FleetHeatmap *heatmap = window.heatmap();
    const HeatmapGeometry &g = heatmap->geometry();
    ASSERT_EQ(g.cardRects.size(), 16u);
    const QString tip = heatmap->describeAt(g.cardRects[3].center());
    EXPECT_TRUE(tip.contains(QStringLiteral("xm-r01-n1"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("87%"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("card 3")));
    const QString deadTip = heatmap->describeAt(g.nodeRects[2].center());
    EXPECT_TRUE(deadTip.contains(QStringLiteral("unreachable"))) << deadTip.toStdString();
    EXPECT_TRUE(heatmap->describeAt(QPoint(-5, -5)).isEmpty());

    EXPECT_TRUE(
        window.statusText().contains(QStringLiteral("3 agents: 2 live, 0 stale, 1 unreachable")))
        << window.statusText().toStdString();
    auto *search = window.findChild<QLineEdit *>();
    ASSERT_NE(search, nullptr);
    search->setText(QStringLiteral("wh-r01-n1"));
    EXPECT_EQ(heatmap->matchingCards(), 8);
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("8 match")));
    search->setText(QStringLiteral("XM-R01-N1-CARD-5"));  // UUIDs, case-insensitive
    EXPECT_EQ(heatmap->matchingCards(), 1);
    heatmap->grab();  // paints without crashing, filtered

    // Drill-down: a card's inventory, history and its node's events.
    Event xid;
    xid.sequence = 12;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 3;
    xid.message = "card 3: Xid 79, GPU has fallen off the bus";
    state.recordEvent(0, xid);
    source.refresh();
    QSignalSpy selected(heatmap, &FleetHeatmap::cardSelected);
    window.selectCard(3);
    CardDetailPanel *detail = window.detail();
    EXPECT_TRUE(detail->isVisible());
    EXPECT_TRUE(detail->title().contains(QStringLiteral("xm-r01-n1 · card 3")))
        << detail->title().toStdString();
    EXPECT_EQ(detail->chart(0)->pointCount(), 1);  // one sample recorded so far
    EXPECT_EQ(detail->eventCount(), 1);
    EXPECT_EQ(state.snapshot(0).errors[3], 1u);  // the Xid marks the card

    expectFilters(*heatmap);
    expectDiagnostics(window);
    // Triage: the Xid and the unreachable agent are alerts, counted per data center.
    AlertCenter *alerts = window.alerts();
    alerts->update(*source.current());
    EXPECT_EQ(alerts->openCount(QStringLiteral("xiamen")), 1);
    EXPECT_EQ(alerts->openCount(QStringLiteral("wuhu")), 1);
}
