// The fleet time machine over a real history file: each card's utilisation at a past
// minute (an hour beyond a day), the alerts open then marked on their cards, the scaling
// steps of the hour before, a moment before the file begins said as such, and the main
// window's slider showing the past and going back to live with one click.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <QDateTimeEdit>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTest>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "alerts/alertincident.h"
#include "autoscaler/scalingjournal.h"
#include "core/clock.h"
#include "fakefleet.h"
#include "history/historyschema.h"
#include "history/historystore.h"
#include "models/fleet/datacentersummarymodel.h"
#include "models/fleet/fleettimemachine.h"
#include "models/fleetsnapshotsource.h"
#include "sqlite/sqlitefile.h"
#include "testsupport.h"
#include "usagefixture.h"
#include "widgets/fleet/fleetheatmap.h"
#include "widgets/fleet/timemachinebar.h"
#include "widgets/shell/mainwindow.h"

using namespace meridian;

namespace {

constexpr int64_t kNowMs = 1'796'000'040'000;  // a minute's start
constexpr int64_t kNowS = kNowMs / 1000;

// `minutes` minutes of a node's eight cards, named as the fake fleet names them.
UsageBatch minutesOf(const std::string &node, int64_t firstMinute, int minutes, double busy)
{
    UsageBatch batch = test::a100Minutes(node, "wuhu", 8, firstMinute, minutes, busy, 12'000);
    for (CardInfo &card : batch.node.cards)
        card.uuid = node + "-card-" + std::to_string(card.index);
    for (UsageMinute &m : batch.minutes)
        m.cardUuid = node + "-card-" + std::to_string(m.cardIndex);
    return batch;
}

// Three hours ago wh-n1 was busy and wh-n2 quiet; two days ago an hour of both at half.
// An Xid on wh-n1's card 2 was open then, and a scaling step was taken just before.
struct PastFleet {
    test::TempDir dir;
    std::string file = dir.file("history.db");
    FleetState state;

    PastFleet()
    {
        const int64_t then = kNowS - 3 * 3600;
        EXPECT_TRUE(test::writeUsageHistory(file, {minutesOf("wh-n1", then - 600, 20, 45),
                                                   minutesOf("wh-n2", then - 600, 20, 15),
                                                   minutesOf("wh-n1", kNowS - 2 * 86400, 60, 30),
                                                   minutesOf("wh-n2", kNowS - 2 * 86400, 60, 30)})
                        .ok());
        auto db = openSqliteFile(file, historySchema());
        EXPECT_TRUE(db.ok());
        AlertIncident xid;
        xid.alertKey = "xid wh-n1 2";
        xid.kind = "Xid";
        xid.severity = "critical";
        xid.dataCenter = "wuhu";
        xid.subject = "wh-n1 card 2";
        xid.startedMs = (then - 300) * 1000;
        xid.sentMs = xid.startedMs + 1000;
        xid.resolvedMs = (then + 300) * 1000;
        insertIncidentLocked(*db.value(), xid);
        // And wh-n2's link was down (its subject names the NIC, as the engine's does).
        AlertIncident link = xid;
        link.alertKey = "link/wh-n2/ens1np0";
        link.kind = "link down";
        link.subject = "wh-n2 ens1np0";
        insertIncidentLocked(*db.value(), link);
        // A day and a half ago Xiamen was dark for three hours.
        AlertIncident dark = xid;
        dark.alertKey = "dark/xiamen";
        dark.kind = "data center dark";
        dark.dataCenter = "xiamen";
        dark.subject = "xiamen";
        dark.startedMs = (kNowS - 36 * 3600) * 1000;
        dark.sentMs = dark.startedMs + 1000;
        insertIncidentLocked(*db.value(), dark);
        resolveIncidentLocked(*db.value(), dark.alertKey, dark.startedMs + 3 * 3600'000);
        auto journal = ScalingJournal::open(file);
        EXPECT_TRUE(journal.ok());
        JournalStep step;
        step.service = "chat-support";
        step.idempotencyKey = "k1";
        step.offerId = "offer-1";
        EXPECT_TRUE(
            journal.value()->addStep(step, "autoscaler", "p95 over 5 s", (then - 900) * 1000).ok());
        test::fillFleet(state,
                        {{"wuhu", "wh-n1", "wh-r01", Vendor::Nvidia, 8, 10},
                         {"wuhu", "wh-n2", "wh-r01", Vendor::Nvidia, 8, 10},
                         {"xiamen", "xm-n1", "xm-r01", Vendor::Nvidia, 8, 10}},
                        kNowMs);
    }
};

// The bar alone in a window as wide as a laptop's screen, live at kNowMs.
struct BarOnALaptop {
    BarOnALaptop()
    {
        auto *layout = new QVBoxLayout(&window);
        bar = new TimeMachineBar(&window);
        layout->addWidget(bar);
        window.resize(1366, 60);
        window.show();
        bar->setNow(kNowMs);
    }
    QWidget window;
    TimeMachineBar *bar = nullptr;
};

}  // namespace

// Five hours ago, one of each kind the fleet draws was open: each is on its subject, as live
// marks it (a card's fault on its card, a link's on its node, a dark data center's nodes
// unreachable), and the moment lists every one.
TEST(FleetTimeMachine, EveryKindOpenThenIsMarkedOnItsSubject)
{
    PastFleet past;
    const int64_t thenMs = (kNowS - 5 * 3600) * 1000;
    {
        auto db = openSqliteFile(past.file, historySchema());
        ASSERT_TRUE(db.ok());
        const auto open = [&](const char *key, const char *kind, const char *dc,
                              const char *subject) {
            AlertIncident a;
            a.alertKey = key;
            a.kind = kind;
            a.severity = "critical";
            a.dataCenter = dc;
            a.subject = subject;
            a.startedMs = thenMs - 120'000;
            a.sentMs = a.startedMs + 1000;
            insertIncidentLocked(*db.value(), a);
            resolveIncidentLocked(*db.value(), a.alertKey, thenMs + 120'000);
        };
        open("xid/wh-n1/card1", "Xid", "wuhu", "wh-n1 card 1");
        open("thermal/wh-n1/card4", "thermal throttling", "wuhu", "wh-n1 card 4");
        open("link/wh-n1/ens1np0", "link down", "wuhu", "wh-n1 ens1np0");
        open("flap/wh-n2/ens3np2", "link flapping", "wuhu", "wh-n2 ens3np2");
        open("dark/xiamen", "data center dark", "xiamen", "xiamen");
    }
    const FleetSnapshot live = past.state.snapshot(kNowMs);
    const FleetMoment moment = readFleetMoment(past.file, live, thenMs, kNowMs);
    ASSERT_TRUE(moment.problem.empty()) << moment.problem;
    ASSERT_NE(moment.snapshot, nullptr);
    EXPECT_EQ(moment.openAlerts.size(), 5u) << "every alert open then, none lost";
    const FleetSnapshot &then = *moment.snapshot;
    EXPECT_TRUE(then.cardFaults[1] & kFaultXid) << "the Xid on wh-n1's card 1";
    EXPECT_TRUE(then.cardFaults[4] & kFaultThermal) << "the throttling on wh-n1's card 4";
    EXPECT_EQ(then.cardFaults[4] & kFaultXid, 0) << "throttled is not drawn as an Xid";
    EXPECT_EQ(then.cardFaults[0], 0);
    EXPECT_TRUE(then.nodeLinkFault[0]) << "wh-n1's link down";
    EXPECT_TRUE(then.nodeLinkFault[1]) << "wh-n2's link flapping";
    EXPECT_FALSE(then.nodeLinkFault[2]);
    EXPECT_EQ(then.nodeConnection[2], ConnectionState::Unreachable) << "Xiamen dark";
    EXPECT_EQ(then.nodeConnection[0], ConnectionState::Connected);
    // An hour later all of it had cleared.
    const FleetMoment after = readFleetMoment(past.file, live, thenMs + 3600'000, kNowMs);
    ASSERT_NE(after.snapshot, nullptr);
    EXPECT_TRUE(after.openAlerts.empty());
    EXPECT_EQ(after.snapshot->cardFaults[1], 0);
    EXPECT_FALSE(after.snapshot->nodeLinkFault[1]);
    EXPECT_EQ(after.snapshot->nodeConnection[2], ConnectionState::Connected);
}

TEST(FleetTimeMachine, AMinuteOfThePastWithItsAlertsAndStepsOnTodaysLayout)
{
    PastFleet past;
    const FleetSnapshot live = past.state.snapshot(kNowMs);
    const FleetMoment minute = readFleetMoment(past.file, live, kNowMs - 3 * 3600 * 1000, kNowMs);
    ASSERT_TRUE(minute.problem.empty()) << minute.problem;
    EXPECT_EQ(minute.grainS, 60);
    EXPECT_EQ(minute.cardsRecorded, 16);
    ASSERT_NE(minute.snapshot, nullptr);
    const FleetSnapshot &then = *minute.snapshot;
    EXPECT_EQ(then.takenUnixMs, kNowMs - 3 * 3600 * 1000);
    EXPECT_NEAR(then.utilization[0], 75, 1e-3) << "wh-n1, busy 45 s a minute";
    EXPECT_NEAR(then.utilization[8], 25, 1e-3) << "wh-n2";
    EXPECT_TRUE(std::isnan(then.temperature[0])) << "the file does not keep it";
    EXPECT_TRUE(then.cardFaults[2] & kFaultXid) << "the Xid open then, on its card";
    EXPECT_EQ(then.cardFaults[3], 0);
    ASSERT_EQ(minute.openAlerts.size(), 2u);
    EXPECT_EQ(minute.openAlerts[0].subject, "wh-n1 card 2");
    EXPECT_TRUE(then.nodeLinkFault[1]) << "wh-n2's link down then, named by its NIC";
    EXPECT_FALSE(then.nodeLinkFault[0]);
    EXPECT_EQ(then.nodeConnection[2], ConnectionState::Connected) << "Xiamen was not dark then";
    ASSERT_EQ(minute.steps.size(), 1u);
    EXPECT_EQ(minute.steps[0].reason, "p95 over 5 s");
    EXPECT_NEAR(live.utilization[0], 10, 1e-3) << "the live fleet is left as it is";

    // Beyond a day, the hour.
    const FleetMoment hour =
        readFleetMoment(past.file, live, (kNowS - 2 * 86400 + 1800) * 1000, kNowMs);
    EXPECT_EQ(hour.grainS, 3600);
    EXPECT_EQ(hour.cardsRecorded, 16);
    EXPECT_NEAR(hour.snapshot->utilization[9], 50, 1e-3);
    EXPECT_TRUE(hour.openAlerts.empty());
    // Xiamen dark, a day and a half ago: its nodes unreachable, as live draws them.
    const FleetMoment dark =
        readFleetMoment(past.file, live, (kNowS - 36 * 3600 + 3600) * 1000, kNowMs);
    ASSERT_NE(dark.snapshot, nullptr);
    ASSERT_EQ(dark.openAlerts.size(), 1u);
    EXPECT_EQ(dark.snapshot->nodeConnection[2], ConnectionState::Unreachable);
    EXPECT_EQ(dark.snapshot->nodeConnection[0], ConnectionState::Connected) << "Wuhu was up";

    // Before the file begins: nothing recorded, and where it begins is known.
    const FleetMoment before = readFleetMoment(past.file, live, kNowMs - 6 * 86400 * 1000, kNowMs);
    EXPECT_EQ(before.cardsRecorded, 0);
    EXPECT_GT(before.historyBeginsUnixMs, before.atUnixMs);
    EXPECT_TRUE(std::isnan(before.snapshot->utilization[0]));

    // A file that is not there, or not a database at all, is said by name, not a crash,
    // and draws nothing in place of the fleet.
    const FleetMoment gone = readFleetMoment(past.dir.file("gone.db"), live, kNowMs, kNowMs);
    EXPECT_NE(gone.problem.find("gone.db"), std::string::npos) << gone.problem;
    EXPECT_EQ(gone.snapshot, nullptr);
    const std::string garbage = past.dir.file("garbage.db");
    std::ofstream(garbage) << std::string(8192, '\x5a');
    const FleetMoment broken = readFleetMoment(garbage, live, kNowMs, kNowMs);
    EXPECT_NE(broken.problem.find("garbage.db"), std::string::npos) << broken.problem;
    EXPECT_EQ(broken.snapshot, nullptr);
}

TEST(FleetTimeMachine, TheWindowsSliderShowsThePastAndOneClickGoesBackToLive)
{
    PastFleet past;
    ManualClock clock(kNowMs);
    FleetSnapshotSource source(past.state, clock, 100'000);
    source.refresh();
    MainWindow window(source);
    FleetTimeMachine machine(past.file);
    window.setTimeMachine(&machine);
    window.resize(1366, 768);
    window.show();
    TimeMachineBar *bar = window.timeMachineBar();
    ASSERT_TRUE(bar->isVisible());
    source.refresh();
    EXPECT_TRUE(bar->isLive());

    QSignalSpy ready(&machine, &FleetTimeMachine::momentReady);
    bar->slider()->setValue(-180);  // three hours back
    ASSERT_TRUE(ready.wait(5000));
    EXPECT_FALSE(bar->isLive());
    const auto shown = window.heatmap()->snapshot();
    ASSERT_NE(shown, nullptr);
    EXPECT_EQ(shown->takenUnixMs, kNowMs - 3 * 3600 * 1000);
    EXPECT_NEAR(shown->utilization[0], 75, 1e-3);
    // The data centers' table says what the fleet shows: then's figures, then's alerts.
    const auto wuhu = std::find_if(
        window.summary()->rows().begin(), window.summary()->rows().end(), [](const auto &row) {
            return row.name.compare(QStringLiteral("wuhu"), Qt::CaseInsensitive) == 0;
        });
    ASSERT_NE(wuhu, window.summary()->rows().end());
    EXPECT_NEAR(wuhu->utilizationSum / wuhu->reporting, 50, 1e-3) << "75% and 25% then, 10% now";
    EXPECT_EQ(wuhu->openAlerts, 2) << "the Xid and the link down open then";
    EXPECT_TRUE(bar->momentText().contains(QStringLiteral("2 alert(s) open")))
        << bar->momentText().toStdString();
    EXPECT_TRUE(bar->momentText().contains(QStringLiteral("wh-n1 card 2")));
    EXPECT_TRUE(bar->momentText().contains(QStringLiteral("1 scaling step(s)")));
    // The live fleet goes on arriving; the past stays on show.
    clock.advanceMs(1000);
    source.refresh();
    EXPECT_EQ(window.heatmap()->snapshot()->takenUnixMs, kNowMs - 3 * 3600 * 1000);

    QPushButton *live = nullptr;
    for (QPushButton *b : bar->findChildren<QPushButton *>())
        live = b->text() == QStringLiteral("Live") ? b : live;
    ASSERT_NE(live, nullptr);
    live->click();
    EXPECT_TRUE(bar->isLive());
    EXPECT_NEAR(window.heatmap()->snapshot()->utilization[0], 10, 1e-3);
    EXPECT_EQ(bar->slider()->value(), 0);

    // The file goes bad under the console: a move back returns to live and says why.
    std::filesystem::remove(past.file + "-wal");
    std::filesystem::remove(past.file + "-shm");
    std::ofstream(past.file, std::ios::trunc) << std::string(8192, 'Z');
    bar->slider()->setValue(-60);
    ASSERT_TRUE(ready.wait(5000));
    EXPECT_TRUE(bar->isLive());
    EXPECT_NEAR(window.heatmap()->snapshot()->utilization[0], 10, 1e-3);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("history.db")))
        << window.statusBar()->currentMessage().toStdString();
}

// A past moment with many alerts open never widens the window: what was open is cut to
// the bar's room with "…", whole in the tooltip and the moment's text.
TEST(FleetTimeMachine, AMomentWithManyAlertsNeverWidensTheWindow)
{
    BarOnALaptop shown;
    QWidget &window = shown.window;
    TimeMachineBar *bar = shown.bar;
    bar->slider()->setValue(-30);
    FleetMoment moment;
    moment.atUnixMs = kNowMs - 30 * 60'000;
    moment.historyBeginsUnixMs = kNowMs - 86'400'000;
    moment.cardsRecorded = 6000;
    for (int i = 0; i < 60; ++i) {
        AlertIncident a;
        a.alertKey = "link/wh-r40-n" + std::to_string(i) + "/ens1np0";
        a.kind = "link down";
        // As long as a link's subject runs: the node, its NIC, and the switch port.
        a.subject = "wh-r40-n" + std::to_string(i) +
                    " ens1np0 to wuhu-pod4-leaf0 Ethernet232 (rail 3, pod 4, 400 Gb/s)";
        moment.openAlerts.push_back(a);
    }
    bar->showMoment(moment);
    QCoreApplication::processEvents();
    EXPECT_LE(window.width(), 1366);
    EXPECT_LE(window.minimumSizeHint().width(), 1366);
    EXPECT_TRUE(bar->momentText().contains(QStringLiteral("60 alert(s) open")))
        << bar->momentText().toStdString();
    const auto *then = bar->findChild<QLabel *>(QStringLiteral("timeMachineThen"));
    ASSERT_NE(then, nullptr);
    EXPECT_TRUE(then->text().endsWith(QStringLiteral("…"))) << then->text().toStdString();
    EXPECT_TRUE(then->toolTip().contains(QStringLiteral("wh-r40-n59 ens1np0")));
    EXPECT_GT(then->fontMetrics().horizontalAdvance(bar->momentText()), 1366)
        << "the case's text is longer than the screen is wide";
}

// A moment picked to the minute: ← → a minute, PgUp an hour into the past and PgDn an hour
// toward now (stopping short of live), a typed moment, the zone beside it; the slider's
// length never changes while the label beside it does.
TEST(FleetTimeMachine, AMomentIsPickedToTheMinuteByKeysOrByTyping)
{
    BarOnALaptop shown;
    TimeMachineBar *bar = shown.bar;
    QSignalSpy chosen(bar, &TimeMachineBar::momentChosen);
    QSlider *slider = bar->slider();
    QCoreApplication::processEvents();
    const int liveLength = slider->width();
    slider->setFocus();

    QTest::keyClick(slider, Qt::Key_Left);
    EXPECT_EQ(slider->value(), -1);
    ASSERT_FALSE(chosen.isEmpty());
    EXPECT_EQ(chosen.last().at(0).toLongLong(), kNowMs - 60'000);
    QCoreApplication::processEvents();
    EXPECT_EQ(slider->width(), liveLength) << "the handle stays under the mouse";
    QTest::keyClick(slider, Qt::Key_PageUp);
    EXPECT_EQ(slider->value(), -61) << "PgUp: an hour into the past";
    QTest::keyClick(slider, Qt::Key_Right);
    EXPECT_EQ(slider->value(), -60);
    QTest::keyClick(slider, Qt::Key_PageDown);
    EXPECT_EQ(slider->value(), -1) << "PgDn: toward now, but not past the last minute";
    EXPECT_FALSE(bar->isLive());
    QTest::keyClick(slider, Qt::Key_PageDown);
    EXPECT_FALSE(bar->isLive()) << "live is chosen, never overshot into";
    QTest::keyClick(slider, Qt::Key_Right);
    EXPECT_TRUE(bar->isLive());

    // Typed: 2 h 17 min back, to the minute.
    QDateTimeEdit *box = bar->momentBox();
    const QDateTime typed = QDateTime::fromMSecsSinceEpoch(kNowMs - (2 * 60 + 17) * 60'000);
    box->setDateTime(typed);
    Q_EMIT box->editingFinished();
    EXPECT_EQ(slider->value(), -137);
    EXPECT_EQ(chosen.last().at(0).toLongLong(), kNowMs - 137 * 60'000);
    EXPECT_TRUE(bar->momentText().contains(typed.toString(QStringLiteral("HH:mm"))))
        << bar->momentText().toStdString();
    EXPECT_TRUE(bar->momentText().contains(typed.timeZoneAbbreviation()))
        << "the zone is said, as the alert list says it: " << bar->momentText().toStdString();
    // Past the week's start, the box holds the oldest moment the file is asked for.
    box->setDateTime(QDateTime::fromMSecsSinceEpoch(kNowMs - 30LL * 86'400'000));
    Q_EMIT box->editingFinished();
    EXPECT_EQ(slider->value(), -7 * 24 * 60);
}

TEST(FleetTimeMachine, InChineseTheMomentsWeekdayIsChinese)
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    {
        TimeMachineBar bar;
        bar.setNow(kNowMs);
        bar.slider()->setValue(-30);
        const QString weekday = QLocale().dayName(
            QDateTime::fromMSecsSinceEpoch(kNowMs - 30 * 60'000).date().dayOfWeek(),
            QLocale::ShortFormat);
        EXPECT_TRUE(weekday.startsWith(QStringLiteral("周"))) << weekday.toStdString();
        EXPECT_TRUE(bar.momentText().startsWith(weekday)) << bar.momentText().toStdString();
    }
    QLocale::setDefault(before);
}
