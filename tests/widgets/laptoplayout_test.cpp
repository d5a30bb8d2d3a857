// The main window on a 1366×768 laptop: opening a card keeps the alerts and the status bar
// on screen and the heatmap where it was; the summary counts agents by what they do.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTableView>

#include "alerts/alertincident.h"
#include "core/clock.h"
#include "fakefleet.h"
#include "history/historyschema.h"
#include "models/cardhealth.h"
#include "models/fleet/fleettimemachine.h"
#include "models/fleetsnapshotsource.h"
#include "models/metricscale.h"
#include "sqlite/sqlitefile.h"
#include "testsupport.h"
#include "usagefixture.h"
#include "widgets/alerts/alertspanel.h"
#include "widgets/cost/reportswindow.h"
#include "widgets/fabric/fabricwindow.h"
#include "widgets/fleet/carddetailpanel.h"
#include "widgets/fleet/fleetheatmap.h"
#include "widgets/fleet/heatmaplayout.h"
#include "widgets/fleet/heatmaplegend.h"
#include "widgets/fleet/timemachinebar.h"
#include "widgets/scaling/scalingwindow.h"
#include "widgets/shell/mainwindow.h"

using namespace meridian;

namespace {

constexpr QSize kLaptopWindow(1366, 768 - 48);  // the screen less a panel and a title bar
// What a first run opens on a 1366×768 screen with no panel: 92% of it.
constexpr QSize kFirstRunWindow(1256, 706);

QDockWidget *dockNamed(MainWindow &window, const char *name)
{
    return window.findChild<QDockWidget *>(QString::fromLatin1(name));
}

}  // namespace

TEST(LaptopLayout, SixThousandCardsFitWithTheCardPanelOpeningOnlyForACard)
{
    QSettings().clear();  // a first run
    FleetState state;
    // 750 nodes, four to a rack in each data center, as the simulator builds them.
    test::fillFleet(state, test::threeDataCenters(750, 12), SystemClock::instance().nowUnixMs());
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    MainWindow window(source);
    // As the console runs it: with its history file, so the time machine's bar shows too.
    test::TempDir dir;
    FleetTimeMachine machine(dir.file("history.db"));
    window.setTimeMachine(&machine);
    window.resize(kFirstRunWindow);
    window.show();
    QCoreApplication::processEvents();
    ASSERT_TRUE(window.timeMachineBar()->isVisible());
    // Everything the window needs fits the laptop's screen.
    EXPECT_LE(window.minimumSizeHint().height(), kFirstRunWindow.height());
    EXPECT_LE(window.minimumSizeHint().width(), kFirstRunWindow.width());

    QDockWidget *alerts = dockNamed(window, "alertsDock");
    QDockWidget *card = dockNamed(window, "cardDock");
    ASSERT_NE(alerts, nullptr);
    ASSERT_NE(card, nullptr);
    EXPECT_FALSE(card->isVisible()) << "an empty card panel takes the fleet's room";
    const auto *panel = static_cast<AlertsPanel *>(alerts->widget());
    const int alertsMinimum = panel->minimumRowsHeight(4);
    EXPECT_GE(alerts->height(), alertsMinimum);

    // All three data centers without scrolling.
    FleetHeatmap *heatmap = window.heatmap();
    auto *scroll = qobject_cast<QScrollArea *>(heatmap->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    ASSERT_EQ(heatmap->geometry().cardRects.size(), 6000u);
    EXPECT_EQ(heatmap->geometry().sections.size(), 3u);
    EXPECT_LE(heatmap->geometry().size.height(), scroll->viewport()->height());
    EXPECT_GE(heatmap->geometry().cell, kHeatmapMinCell);

    // Opening a card from the alert list: the panel opens beside the fleet, the window
    // keeps its size, and the card stays in sight when the fleet re-flows.
    const CardHandle last = 5999;
    window.selectCard(last);
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    ASSERT_EQ(window.detail()->card(), std::optional<CardHandle>(last));
    EXPECT_TRUE(card->isVisible());
    EXPECT_EQ(window.size(), kFirstRunWindow) << "the card's charts scroll, not grow the window";
    EXPECT_GE(alerts->height(), alertsMinimum);
    EXPECT_TRUE(window.statusBar()->isVisible());
    EXPECT_LE(window.statusBar()->geometry().bottom(), kFirstRunWindow.height());
    const QRect seen(-heatmap->pos(), scroll->viewport()->size());
    EXPECT_TRUE(seen.contains(heatmap->geometry().cardRects[last]))
        << "the chosen card is out of sight";
    // The narrower fleet is re-fitted, not scrolled: every row (and any fault there) stays
    // on the screen.
    EXPECT_LE(heatmap->geometry().size.height(), scroll->viewport()->height())
        << "the fleet scrolls with the card panel open";
    EXPECT_FALSE(scroll->verticalScrollBar()->isVisible());
    EXPECT_GE(heatmap->geometry().cell, kHeatmapFloorCell);

    // Closing the card panel and opening another card changes the window's size no more.
    card->hide();
    QCoreApplication::processEvents();
    window.selectCard(9);
    QCoreApplication::processEvents();
    EXPECT_EQ(window.size(), kFirstRunWindow);
    EXPECT_GE(alerts->height(), alertsMinimum);
}

// A console closed with a card open starts again with the fleet at full width: the panel
// opens with the first card chosen, not empty at start.
TEST(LaptopLayout, AfterARestartTheCardPanelWaitsForACard)
{
    QSettings().clear();
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(48, 12), SystemClock::instance().nowUnixMs());
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    {
        MainWindow first(source);
        first.resize(kFirstRunWindow);
        first.show();
        first.selectCard(3);
        QCoreApplication::processEvents();
        ASSERT_TRUE(dockNamed(first, "cardDock")->isVisible());
        first.close();  // as its close button: the layout is remembered
    }
    MainWindow again(source);
    again.resize(kFirstRunWindow);
    again.show();
    QCoreApplication::processEvents();
    QDockWidget *card = dockNamed(again, "cardDock");
    ASSERT_NE(card, nullptr);
    EXPECT_FALSE(card->isVisible()) << "an empty card panel after a restart";
    again.selectCard(3);
    QCoreApplication::processEvents();
    EXPECT_TRUE(card->isVisible());
}

// The post-mortem at 1366×768: a past moment with sixty links down, a card open and the
// alert list shown. No window is wider than the screen and no view scrolls sideways.
TEST(LaptopLayout, APastMomentWithACardOpenStaysOnTheLaptopsScreen)
{
    QSettings().clear();
    const int64_t nowMs = SystemClock::instance().nowUnixMs();
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(750, 12), nowMs);
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    const int64_t firstMinute = (nowMs / 60'000 - 60) * 60;
    ASSERT_TRUE(test::writeUsageHistory(
                    file, {test::a100Minutes("n0", "xiamen", 8, firstMinute, 60, 40, 12'000)})
                    .ok());
    {
        auto db = openSqliteFile(file, historySchema());
        ASSERT_TRUE(db.ok());
        for (int i = 0; i < 60; ++i) {
            AlertIncident link;
            link.alertKey = "link/n" + std::to_string(i) + "/ens1np0";
            link.kind = "link down";
            link.severity = "critical";
            link.dataCenter = "wuhu";
            link.subject = "n" + std::to_string(i) +
                           " ens1np0 to wuhu-pod4-leaf0 Ethernet232 (rail 3, pod 4, 400 Gb/s)";
            link.startedMs = nowMs - 50 * 60'000;
            link.sentMs = link.startedMs + 1000;
            insertIncidentLocked(*db.value(), link);
        }
    }
    MainWindow window(source);
    FleetTimeMachine machine(file);
    window.setTimeMachine(&machine);
    window.resize(kFirstRunWindow);
    window.show();
    QCoreApplication::processEvents();
    window.selectCard(5999);
    QSignalSpy ready(&machine, &FleetTimeMachine::momentReady);
    window.timeMachineBar()->slider()->setValue(-30);
    ASSERT_TRUE(ready.wait(5000));
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    ASSERT_FALSE(window.timeMachineBar()->isLive()) << "the file was read";
    ASSERT_TRUE(window.timeMachineBar()->momentText().contains(QStringLiteral("60 alert(s)")))
        << window.timeMachineBar()->momentText().toStdString();
    ASSERT_TRUE(dockNamed(window, "cardDock")->isVisible());
    ASSERT_TRUE(dockNamed(window, "alertsDock")->isVisible());

    EXPECT_EQ(window.size(), kFirstRunWindow) << "the past never widens the window";
    EXPECT_LE(window.minimumSizeHint().width(), kLaptopWindow.width());
    EXPECT_GT(window.timeMachineBar()->slider()->width(), 200) << "the slider keeps its room";
    // The legend says every condition whole beside the open card panel.
    const QWidget *legend = window.findChild<HeatmapLegend *>();
    ASSERT_NE(legend, nullptr);
    EXPECT_LE(legend->sizeHint().width(), legend->width()) << "the legend is cut";
    int views = 0;
    for (QAbstractScrollArea *view : window.findChildren<QAbstractScrollArea *>()) {
        views += view->isVisible() ? 1 : 0;
        if (view->isVisible())
            EXPECT_FALSE(view->horizontalScrollBar()->isVisible())
                << view->metaObject()->className() << " " << view->objectName().toStdString()
                << " scrolls sideways";
    }
    EXPECT_GE(views, 3) << "the fleet, the alert list and the card's panel";
    // And back to live it is the width it was.
    window.timeMachineBar()->goLive();
    QCoreApplication::processEvents();
    EXPECT_EQ(window.size(), kFirstRunWindow);
}

TEST(LaptopLayout, RacksAreLabelledWhenCellsAreReadable)
{
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(48, 24), 1000);
    const FleetSnapshot s = state.snapshot(1000);
    const HeatmapGeometry readable = layoutHeatmap(*s.layout, 900, 12);
    ASSERT_EQ(readable.rackNames.size(), readable.rackRects.size());
    ASSERT_EQ(readable.rackLabelRects.size(), readable.rackRects.size());
    EXPECT_EQ(readable.rackNames.front(), QStringLiteral("xi-r0"));
    for (size_t r = 0; r < readable.rackRects.size(); ++r) {
        const QRect &label = readable.rackLabelRects[r];
        EXPECT_EQ(label.height(), kHeatmapRackLabelHeight);
        EXPECT_EQ(label.bottom() + 1, readable.rackRects[r].top()) << "label sits on its rack";
        for (const QRect &other : readable.rackRects)
            EXPECT_FALSE(label.intersects(other)) << "a label covers a rack";
    }
    // At the smallest cells the labels give way to the cards.
    const HeatmapGeometry tiny = layoutHeatmap(*s.layout, 900, kHeatmapMinCell);
    EXPECT_EQ(tiny.rackLabelRects.front().height(), 0);
}

TEST(LaptopLayout, TemperatureAndErrorsReadAsAlarmNotAsUtilisation)
{
    // Hot is red, cool is blue; utilisation keeps its neutral ramp.
    const QColor hot = metricColor(FleetMetric::Temperature, 1.0f);
    const QColor cool = metricColor(FleetMetric::Temperature, 0.0f);
    EXPECT_GT(hot.red(), 200);
    EXPECT_LT(hot.blue(), 80);
    EXPECT_GT(cool.blue(), cool.red());
    EXPECT_EQ(metricColor(FleetMetric::Errors, 1.0f), hot);
    EXPECT_EQ(metricColor(FleetMetric::Utilization, 1.0f), rampColor(1.0f));
    EXPECT_NE(metricColor(FleetMetric::Utilization, 1.0f), hot);
}

TEST(LaptopLayout, SecondaryWindowsOpenNoLargerThanTheScreen)
{
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(12, 24), SystemClock::instance().nowUnixMs());
    const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
    ReportsWindow reports(ReportSources{});
    ScalingWindow scaling(nullptr, QStringLiteral("no capacity pool"), {});
    FabricWindow fabric(state, std::nullopt, QString());
    for (QWidget *window : {static_cast<QWidget *>(&reports), static_cast<QWidget *>(&scaling),
                            static_cast<QWidget *>(&fabric)}) {
        EXPECT_LE(window->width(), screen.width()) << window->windowTitle().toStdString();
        EXPECT_LE(window->height(), screen.height()) << window->windowTitle().toStdString();
        // And what they need at least fits a laptop.
        EXPECT_LE(window->minimumSizeHint().height(), kLaptopWindow.height())
            << window->windowTitle().toStdString();
        EXPECT_LE(window->minimumSizeHint().width(), kLaptopWindow.width())
            << window->windowTitle().toStdString();
    }
}

TEST(LaptopLayout, ZeroPercentCardsStayVisibleOnADarkTheme)
{
    FleetState state;
    std::vector<test::FakeNode> fleet = test::threeDataCenters(3, 24);
    for (test::FakeNode &n : fleet)
        n.utilization = 0;  // the darkest colour of the ramp
    test::fillFleet(state, fleet, 1000);
    FleetHeatmap heatmap;
    heatmap.setMetric(FleetMetric::Utilization);  // Health's idle end is the next test's
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    heatmap.setPalette(dark);
    heatmap.resize(600, 300);
    heatmap.setSnapshot(std::make_shared<FleetSnapshot>(state.snapshot(1000)));
    const QImage image = heatmap.grab().toImage();
    const QRect card = heatmap.geometry().cardRects.front();
    ASSERT_GE(card.width(), 6);
    // The cell's edge stands out from the background, not only its (dark purple) fill.
    const QColor edge = image.pixelColor(card.topLeft());
    const QColor background = dark.color(QPalette::Base);
    EXPECT_GT(std::abs(edge.lightnessF() - background.lightnessF()), 0.2)
        << edge.name().toStdString();
}

TEST(LaptopLayout, AnIdleHealthyCardNeverLooksLikeNoReading)
{
    // The heatmap outlines a cell whose fill is within 0.15 of the background's lightness,
    // as "no reading" is an outlined box: an idle healthy card must stay clear of that.
    for (const bool dark : {false, true}) {
        const QColor background = dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
        EXPECT_GT(std::abs(healthyColor(0, dark).lightnessF() - background.lightnessF()), 0.15)
            << (dark ? "dark" : "light");
    }
}
