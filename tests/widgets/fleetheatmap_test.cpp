// The heatmap: geometry that fits the fleet, tooltips, filters, and the main window's
// status line, on the offscreen platform.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>

#include "core/clock.h"
#include "fakefleet.h"
#include "models/alerts/alertcenter.h"
#include "models/cardhealth.h"
#include "models/fleetsnapshotsource.h"
#include "widgets/fleet/carddetailpanel.h"
#include "widgets/fleet/fleetheatmap.h"
#include "widgets/fleet/heatmaplayout.h"
#include "widgets/historychart.h"
#include "widgets/shell/mainwindow.h"

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
    auto *search = window.findChild<QLineEdit *>(QStringLiteral("fleetSearch"));
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

namespace {

// How many pixels inside `rect` have exactly `color`.
int pixelsOf(const QImage &image, const QRect &rect, const QColor &color)
{
    int count = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        for (int x = rect.left(); x <= rect.right(); ++x)
            count += image.pixelColor(x, y).rgb() == color.rgb();
    }
    return count;
}

QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    return dark;
}

}  // namespace

TEST(FleetHeatmap, HealthIsTheDefaultAndEveryFaultIsASpotAtSixThousandCardsInBothThemes)
{
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(750, 12), 1000);
    const auto cardEvent = [&](NodeHandle node, uint32_t card, EventKind kind) {
        Event e;
        e.kind = kind;
        e.cardIndex = card;
        state.recordEvent(node, e);
        return node * 8 + card;  // every node has eight cards, in order
    };
    const CardHandle xid = cardEvent(10, 2, EventKind::Xid);
    const CardHandle ecc = cardEvent(301, 5, EventKind::EccUncorrected);
    const CardHandle hot = cardEvent(602, 1, EventKind::ThermalThrottle);
    Event flap;
    flap.kind = EventKind::LinkFlap;
    flap.netdev = "ens1np0";
    flap.timeUnixMs = 1000;
    state.recordEvent(50, flap);
    const auto snapshot = std::make_shared<const FleetSnapshot>(state.snapshot(1000));

    FleetHeatmap heatmap;
    EXPECT_EQ(heatmap.metric(), FleetMetric::Health);
    for (const QPalette &palette : {QPalette(QColor(0xef, 0xef, 0xef)), darkPalette()}) {
        heatmap.setPalette(palette);
        heatmap.resize(1226, 290);  // the fleet's part of a 1366×768 screen
        heatmap.setSnapshot(snapshot);
        ASSERT_LE(heatmap.geometry().cell, 5) << "not the smallest cells this test is about";
        const QImage image = heatmap.grab().toImage();
        for (const auto &[card, condition] :
             {std::pair{xid, CardCondition::Xid}, std::pair{ecc, CardCondition::Ecc},
              std::pair{hot, CardCondition::Thermal}}) {
            const QRect marker = heatmap.faultMarkerRect(card);
            EXPECT_GE(marker.width(), 2 * heatmap.geometry().cell) << "a spot, not a cell";
            // Filled with the condition's colour inside a rim in the theme's text colour.
            EXPECT_GE(pixelsOf(image, marker.adjusted(1, 1, -1, -1), conditionColor(condition)),
                      (marker.width() - 2) * (marker.height() - 2))
                << conditionName(condition).toStdString();
            EXPECT_EQ(image.pixelColor(marker.topLeft()).rgb(),
                      palette.color(QPalette::Text).rgb());
        }
        // The node whose link flaps is ringed; one of another rack is not.
        const QRect row = heatmap.geometry().nodeRects[50].adjusted(-1, -1, 0, 0);
        EXPECT_EQ(image.pixelColor(row.topLeft()).rgb(), linkFaultColor().rgb());
        const QRect other = heatmap.geometry().nodeRects[86].adjusted(-1, -1, 0, 0);
        EXPECT_NE(image.pixelColor(other.topLeft()).rgb(), linkFaultColor().rgb());
        // Nothing healthy wears a fault's colour.
        const int xidPixels = pixelsOf(image, image.rect(), conditionColor(CardCondition::Xid));
        const QRect xidMarker = heatmap.faultMarkerRect(xid);
        EXPECT_EQ(xidPixels, (xidMarker.width() - 2) * (xidMarker.height() - 2));
    }
}

TEST(FleetHeatmap, TheChosenColouringIsRememberedAtOnce)
{
    QSettings().clear();
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(6, 3), SystemClock::instance().nowUnixMs());
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    {
        MainWindow window(source);
        EXPECT_EQ(window.heatmap()->metric(), FleetMetric::Health) << "health first";
        auto *colouring = window.findChild<QComboBox *>(QStringLiteral("colouring"));
        ASSERT_NE(colouring, nullptr);
        colouring->setCurrentIndex(colouring->findData(static_cast<int>(FleetMetric::Power)));
        EXPECT_EQ(window.heatmap()->metric(), FleetMetric::Power);
    }  // no closeEvent: as if the console were killed
    MainWindow again(source);
    EXPECT_EQ(again.heatmap()->metric(), FleetMetric::Power);
    QSettings().setValue(QStringLiteral("fleet/colouring"), QStringLiteral("no such colouring"));
    MainWindow third(source);
    EXPECT_EQ(third.heatmap()->metric(), FleetMetric::Health);
}

TEST(FleetHeatmap, ADeadDataCentersCardsReadUnreachableButAnXidOnOneStaysAnXid)
{
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(30, 12), 1000);
    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 4;
    state.recordEvent(2, xid);  // a Zhongwei node (every third node)
    for (NodeHandle n = 2; n < 30; n += 3)
        state.setConnection(n, ConnectionState::Unreachable, "connection refused");
    const FleetSnapshot s = state.snapshot(1000);
    EXPECT_EQ(cardCondition(s, 2 * 8 + 4), CardCondition::Xid) << "the fault outlasts the agent";
    EXPECT_EQ(cardCondition(s, 2 * 8 + 5), CardCondition::Unreachable);
    EXPECT_EQ(cardCondition(s, 5 * 8 + 0), CardCondition::Unreachable);
    EXPECT_EQ(cardCondition(s, 0), CardCondition::Healthy);  // Xiamen, live
    // And the map paints them so, the Xid card still as a spot of its own.
    FleetHeatmap heatmap;
    heatmap.resize(900, 400);
    heatmap.setSnapshot(std::make_shared<const FleetSnapshot>(s));
    const QImage image = heatmap.grab().toImage();
    const QRect dead = heatmap.geometry().cardRects[5 * 8 + 1];
    EXPECT_EQ(image.pixelColor(dead.center()).rgb(),
              conditionColor(CardCondition::Unreachable).rgb());
    const QRect spot = heatmap.faultMarkerRect(2 * 8 + 4);
    EXPECT_EQ(image.pixelColor(spot.center()).rgb(), conditionColor(CardCondition::Xid).rgb());
}
