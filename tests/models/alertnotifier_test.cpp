// Alerts reaching people: a real HTTP receiver gets an alert when it opens and again when
// it resolves, never one someone silenced; a real freedesktop
// notification service on a private session bus (dbus-daemon) shows the desktop bubble.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTranslator>
#include <atomic>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "agentprocess.h"
#include "alertreceiver.h"
#include "alerts/alertmanagersilences.h"
#include "alerts/alertpayloads.h"
#include "alerts/alerttriagelog.h"
#include "childprocess.h"
#include "fakefleet.h"
#include "gate.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertguidance.h"
#include "models/alerts/alertnotifier.h"
#include "models/alerts/alertroutesmodel.h"
#include "models/alerts/desktopnotifier.h"
#include "testsupport.h"
#include "widgets/alerts/alertroutingdialog.h"

using namespace meridian;
using nlohmann::json;
using test::everyRouteDone;
using test::linkEvent;
using test::Receiver;
using test::receiverHolds;

TEST(AlertNotifier, AnAlertGoesOutWhenItOpensAndWhenItResolvesButNotWhenSilenced)
{
    Receiver receiver;
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}, {"wuhu", "wh-2", "r1"}, {"wuhu", "wh-3", "r1"}},
                    10'000);
    AlertCenter center(state);
    AlertRouting routing;
    routing.routes.push_back({"noc", RouteKind::Json, receiver.url()});
    routing.sound = SoundWhen::Critical;
    routing.soundCommand = "true";
    ManualClock clock(10'000);
    AlertNotifier notifier(center, routing, clock, nullptr);
    notifier.setSeenBy("watcher@ops1");
    QSignalSpy sounds(&notifier, &AlertNotifier::soundRequested);

    state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'100));
    center.update(state.snapshot(10'200));
    ASSERT_TRUE(receiverHolds(receiver, 1))
        << center.view().alerts.size()
        << " alerts; route: " << notifier.dispatcher().status()[0].lastError << " delivered "
        << notifier.dispatcher().status()[0].delivered;
    json firing = receiver.alerts()[0];
    EXPECT_EQ(firing["status"], "firing");
    EXPECT_EQ(firing["kind"], "link down");
    EXPECT_EQ(firing["node"], "wh-1");
    EXPECT_EQ(firing["netdev"], "eth3");
    EXPECT_FALSE(firing["next_step"].get<std::string>().empty());
    EXPECT_EQ(firing["console"], "watcher@ops1") << "who saw it, for a shift with no console";
    EXPECT_EQ(sounds.count(), 1) << "a critical alert makes a sound";
    EXPECT_EQ(sounds.at(0).at(0).toString(), QStringLiteral("true"));

    // The same alert again is no news.
    state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'300));
    center.update(state.snapshot(10'400));
    state.recordEvent(0, linkEvent(EventKind::LinkUp, 10'500));
    center.update(state.snapshot(10'600));
    ASSERT_TRUE(receiverHolds(receiver, 2));
    EXPECT_EQ(receiver.alerts()[1]["status"], "resolved");
    EXPECT_EQ(receiver.alerts()[1]["key"], firing["key"]);
    // Over: how long it lasted, not the problem's words again, and nothing left to do.
    EXPECT_EQ(receiver.alerts()[1]["message"], "Over after 0 s");
    EXPECT_EQ(receiver.alerts()[1]["next_step"], "");

    // An alert acknowledged before anyone was told, or silenced, is not sent.
    SilenceRule quiet;
    quiet.node = "wh-3";
    quiet.untilMs = 20'000'000;
    center.silence(quiet);
    state.recordEvent(2, linkEvent(EventKind::LinkDown, 10'700));
    center.update(state.snapshot(10'800));
    state.recordEvent(1, linkEvent(EventKind::LinkDown, 10'900));
    center.update(state.snapshot(11'000));
    ASSERT_TRUE(receiverHolds(receiver, 3));
    EXPECT_EQ(receiver.alerts()[2]["node"], "wh-2");
    // Deliveries go out in order, so wh-3's would have come before wh-2's; and nothing
    // is still on its way.
    EXPECT_TRUE(test::waitUntil([&] {
        const RouteStatus route = notifier.dispatcher().status()[0];
        return route.waiting == 0 && route.delivered == 3;
    })) << "the silenced alert on wh-3 was sent";
    EXPECT_EQ(receiver.alerts().size(), 3u) << "the silenced alert on wh-3 was sent";
}

// What the receivers were told goes in the history file once they have answered, not as
// the request leaves: a watcher killed while a receiver holds its answer has nothing on
// record, and so tells it again when it starts, rather than never. Meanwhile a read of the
// file, which does not hold the resolution yet, makes no second resolution.
TEST(AlertNotifier, WhatWasSentIsRecordedOnceTheReceiverHasAnswered)
{
    test::Gate answer;
    test::Gate answerTheResolution;
    httplib::Server slow;
    std::atomic<int> posts{0};
    slow.Post("/hook", [&](const httplib::Request &, httplib::Response &response) {
        (++posts == 1 ? answer : answerTheResolution).pass();
        response.set_content("{}", "application/json");
    });
    const int port = slow.bind_to_any_port("127.0.0.1");
    std::thread serving([&] { slow.listen_after_bind(); });
    test::TempDir dir;
    const std::string file = dir.file("history.sqlite");
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
    AlertCenter center(state);
    auto log = AlertTriageLog::open(file);
    ASSERT_TRUE(log.ok()) << log.error().message;
    center.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
    center.waitForTriage();
    AlertRouting routing;
    routing.routes.push_back(
        {"noc", RouteKind::Json, fmt::format("http://127.0.0.1:{}/hook", port)});
    ManualClock clock(10'000);
    {
        AlertNotifier notifier(center, routing, clock, nullptr);
        state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'100));
        center.update(state.snapshot(10'200));
        ASSERT_TRUE(answer.arrived(1)) << "nothing was sent";
        const auto recorded = [&] {
            auto reader = AlertTriageLog::open(file);
            const auto firing = reader ? reader.value()->firingDelivered()
                                       : Result<std::set<std::string>>(reader.error());
            return firing && firing->count("link/wh-1/eth3") > 0;
        };
        center.waitForTriage();
        EXPECT_FALSE(recorded()) << "recorded while the receiver had not answered";
        answer.open();
        EXPECT_TRUE(test::waitUntil(recorded)) << "not recorded once it answered";
        EXPECT_TRUE(everyRouteDone(notifier));

        state.recordEvent(0, linkEvent(EventKind::LinkUp, 10'300));
        center.update(state.snapshot(10'400));
        ASSERT_TRUE(answerTheResolution.arrived(1)) << "the resolution was not sent";
        center.waitForTriage();  // the file still says firing
        EXPECT_TRUE(recorded());
        center.update(state.snapshot(10'500));
        answerTheResolution.open();
        EXPECT_TRUE(test::waitUntil([&] { return !recorded(); })) << "the resolution not recorded";
        EXPECT_TRUE(everyRouteDone(notifier));
    }
    EXPECT_EQ(posts, 2) << "told twice of one resolution";
    slow.stop();
    serving.join();
}

// Ten restarts of a console on one history file, an alert open throughout: the receiver
// is told once that it fires and once that it resolved; the file remembers what it was
// told, so a console started again has no news for it.
TEST(AlertNotifier, RestartsTellAReceiverNothingItAlreadyHas)
{
    Receiver receiver;
    test::TempDir dir;
    const std::string file = dir.file("history.sqlite");
    AlertRouting routing;
    routing.routes.push_back({"noc", RouteKind::Json, receiver.url()});
    const auto runConsole = [&](int64_t startMs, EventKind linkState) {
        FleetState state;
        test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, startMs);
        AlertCenter center(state);
        auto log = AlertTriageLog::open(file);
        EXPECT_TRUE(log.ok()) << log.error().message;
        center.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
        ManualClock clock(startMs);
        AlertNotifier notifier(center, routing, clock, nullptr);
        // The agent replays what it holds to a new console: the link went down at 10 s.
        state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'000));
        if (linkState == EventKind::LinkUp)
            state.recordEvent(0, linkEvent(EventKind::LinkUp, startMs));
        center.update(state.snapshot(startMs + 100));
        center.waitForTriage();  // reads what the file holds, and reviews
        center.update(state.snapshot(startMs + 200));
        EXPECT_TRUE(test::waitUntil([&] {
            QCoreApplication::processEvents();
            return notifier.dispatcher().status()[0].waiting == 0;
        }));
        center.waitForTriage();  // what was sent is in the file before the console goes
    };
    for (int run = 0; run <= 10; ++run)
        runConsole(20'000 + run * 60'000, EventKind::LinkDown);
    ASSERT_EQ(receiver.alerts().size(), 1u) << "the open alert was sent again after a restart";
    EXPECT_EQ(receiver.alerts()[0]["status"], "firing");
    EXPECT_EQ(receiver.alerts()[0]["key"], "link/wh-1/eth3");
    // The link comes back while a restarted console watches: that is news, once.
    runConsole(800'000, EventKind::LinkUp);
    runConsole(900'000, EventKind::LinkUp);
    ASSERT_TRUE(receiverHolds(receiver, 2));
    EXPECT_EQ(receiver.alerts()[1]["status"], "resolved");
    EXPECT_EQ(receiver.alerts().size(), 2u);
}

// A critical alert nobody answers goes to the escalation route once its time is up, again
// at each repeat, and no more once someone acknowledges it; the ordinary route hears of it
// once, the escalation route never of anything else.
TEST(AlertNotifier, AnUnansweredCriticalAlertEscalatesUntilSomeoneAcknowledges)
{
    Receiver noc, phone;
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
    AlertCenter center(state);
    AlertRouting routing;
    routing.routes.push_back({"noc", RouteKind::Json, noc.url()});
    AlertRoute onCall{"on-call phone", RouteKind::Json, phone.url()};
    onCall.escalateAfterMs = 30 * 60'000;
    onCall.repeatMs = 15 * 60'000;
    routing.routes.push_back(onCall);
    ManualClock clock(10'000);
    AlertNotifier notifier(center, routing, clock, nullptr);
    const auto at = [&](int64_t minutes) {
        const int64_t now = 10'100 + minutes * 60'000;
        clock.setUnixMs(now);
        center.update(state.snapshot(now));
        EXPECT_TRUE(everyRouteDone(notifier));
        return phone.alerts().size();
    };
    state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'100));
    EXPECT_EQ(at(0), 0u);
    ASSERT_TRUE(receiverHolds(noc, 1));
    EXPECT_EQ(at(29), 0u) << "not before its time";
    EXPECT_EQ(at(31), 1u);
    EXPECT_EQ(phone.alerts()[0]["key"], "link/wh-1/eth3");
    EXPECT_EQ(at(40), 1u) << "not before the repeat";
    EXPECT_EQ(at(47), 2u);
    center.acknowledge(QStringLiteral("link/wh-1/eth3"));
    EXPECT_EQ(at(70), 2u) << "someone is on it";
    for (const json &a : phone.alerts())
        EXPECT_EQ(a["key"], "link/wh-1/eth3") << "the phone hears of nothing else";
    const std::vector<json> heard = noc.alerts();
    const auto linkNotices = std::count_if(
        heard.begin(), heard.end(), [](const json &a) { return a["key"] == "link/wh-1/eth3"; });
    EXPECT_EQ(linkNotices, 1) << "the ordinary route heard of it once";
}

// The team's receivers hear the routing file's language, whichever language the window
// that sent it speaks.
TEST(AlertNotifier, TheRoutesHearTheRoutingFilesLanguageNotTheWindows)
{
    Receiver receiver;
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
    ManualClock clock(10'000);
    const auto sentTitle = [&](const std::string &language, size_t count) {
        AlertCenter center(state);
        AlertRouting routing;
        routing.routes.push_back({"noc", RouteKind::Json, receiver.url()});
        routing.language = language;
        AlertNotifier notifier(center, routing, clock, nullptr, nullptr,
                               QStringLiteral(MERIDIAN_TRANSLATIONS_DIR));
        center.update(state.snapshot(10'200));
        EXPECT_TRUE(receiverHolds(receiver, count));
        return receiver.alerts().size() >= count
                   ? receiver.alerts()[count - 1]["title"].get<std::string>()
                   : std::string();
    };
    state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'100));
    // An English window, a Chinese routing file.
    EXPECT_EQ(sentTitle("zh_CN", 1), "链路中断");
    // A Chinese window, an English routing file.
    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    QCoreApplication::installTranslator(&chinese);
    EXPECT_EQ(sentTitle("en", 2), "Link down");
    Alert inTheWindow;
    inTheWindow.kind = AlertKind::LinkDown;
    EXPECT_EQ(alertTitle(inTheWindow), QStringLiteral("链路中断")) << "the window speaks its own";
    QCoreApplication::removeTranslator(&chinese);
}

// The routing dialog shows each route's deliveries as they change, hides a key in a
// webhook's address, and tests the route picked, not the first one.
TEST(AlertRoutingDialog, FollowsEachRoutesDeliveriesAndTestsThePickedOne)
{
    Receiver receiver;
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
    AlertCenter center(state);
    AlertRouting routing;
    routing.routes.push_back({"noc", RouteKind::Json, receiver.url()});
    routing.routes.push_back(
        {"gone", RouteKind::Json,
         "http://127.0.0.1:" + std::to_string(test::freePort()) + "/hook?key=s3cret"});
    routing.timeoutMs = 500;
    ManualClock clock(10'000);
    AlertNotifier notifier(center, routing, clock, nullptr);
    AlertRoutingDialog dialog(notifier, nullptr, QStringLiteral("alert-routes.yaml"));
    QAbstractItemModel *model = dialog.table()->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    ASSERT_EQ(model->rowCount(), 2);
    EXPECT_EQ(model->index(0, AlertRoutesModel::Delivered).data().toString(), QStringLiteral("0"));
    EXPECT_FALSE(model->index(1, AlertRoutesModel::Address)
                     .data()
                     .toString()
                     .contains(QStringLiteral("s3cret")));

    state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'100));
    center.update(state.snapshot(10'200));
    ASSERT_TRUE(receiverHolds(receiver, 1));
    EXPECT_TRUE(test::waitUntil([&] {
        QCoreApplication::processEvents();  // the dialog refreshes every second
        return model->index(0, AlertRoutesModel::Delivered).data().toString() ==
                   QStringLiteral("1") &&
               !model->index(1, AlertRoutesModel::LastProblem).data().toString().isEmpty();
    })) << model->index(0, AlertRoutesModel::Delivered).data().toString().toStdString();
    EXPECT_EQ(resets.count(), 0);

    dialog.table()->selectRow(1);
    QSignalSpy finished(&dialog, &AlertRoutingDialog::testFinished);
    dialog.testSelected();
    ASSERT_TRUE(finished.wait(5000));
    EXPECT_TRUE(finished.at(0).at(0).toString().startsWith(QStringLiteral("Test failed")))
        << finished.at(0).at(0).toString().toStdString();
    EXPECT_EQ(receiver.alerts().size(), 1u) << "the test went to the route picked";
}

namespace {

// The desktop's notification service, as GNOME's or dunst's, on a test's own bus.
class NotificationService final : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Shown {
        QString summary;
        QString body;
        int urgency = -1;
    };
    std::vector<Shown> shown;

public Q_SLOTS:
    uint Notify(const QString &, uint, const QString &, const QString &summary, const QString &body,
                const QStringList &, const QVariantMap &hints, int)
    {
        shown.push_back({summary, body, hints.value(QStringLiteral("urgency")).toInt()});
        return static_cast<uint>(shown.size());
    }
};

}  // namespace

TEST(AlertNotifier, DesktopNotificationsReachTheSessionBus)
{
    // A private session bus: dbus-daemon, as a desktop session runs it.
    QProcess daemon;
    daemon.start(QStringLiteral("dbus-daemon"),
                 {QStringLiteral("--session"), QStringLiteral("--nofork"),
                  QStringLiteral("--print-address=1")});
    ASSERT_TRUE(daemon.waitForStarted(5000)) << "dbus-daemon is needed (package dbus-daemon)";
    ASSERT_TRUE(daemon.waitForReadyRead(5000));
    const QString address = QString::fromUtf8(daemon.readLine()).trimmed();
    QDBusConnection serviceBus = QDBusConnection::connectToBus(address, QStringLiteral("service"));
    ASSERT_TRUE(serviceBus.isConnected()) << address.toStdString();
    NotificationService service;
    ASSERT_TRUE(serviceBus.registerService(QStringLiteral("org.freedesktop.Notifications")));
    ASSERT_TRUE(serviceBus.registerObject(QStringLiteral("/org/freedesktop/Notifications"),
                                          &service, QDBusConnection::ExportAllSlots));

    {
        DesktopNotifier desktop(QDBusConnection::connectToBus(address, QStringLiteral("console")));
        ASSERT_TRUE(desktop.available());
        FleetState state;
        test::fillFleet(state, {{"xiamen", "xm-1", "r1"}, {"xiamen", "xm-2", "r1"}}, 10'000);
        AlertCenter center(state);
        ManualClock clock(10'000);
        AlertNotifier notifier(center, AlertRouting{}, clock, &desktop);
        Event xid;
        xid.kind = EventKind::Xid;
        xid.cardIndex = 2;
        xid.xid = 79;
        xid.timeUnixMs = 10'100;
        // Five alerts at once: three bubbles and one that counts the rest.
        for (uint32_t card = 0; card < 5; ++card) {
            xid.cardIndex = card;
            state.recordEvent(0, xid);
        }
        center.update(state.snapshot(10'200));
        ASSERT_TRUE(test::waitUntil([&] {
            QCoreApplication::processEvents();
            return service.shown.size() == 4;
        }));
        EXPECT_TRUE(
            service.shown[0].summary.startsWith(QStringLiteral("GPU fell off the bus (Xid 79)")))
            << service.shown[0].summary.toStdString();
        EXPECT_TRUE(service.shown[0].body.contains(QStringLiteral("Next: Drain the node")));
        EXPECT_EQ(service.shown[0].urgency, 2);
        EXPECT_EQ(service.shown[3].summary, QStringLiteral("2 more alert(s)"));
    }
    QDBusConnection::disconnectFromBus(QStringLiteral("console"));
    QDBusConnection::disconnectFromBus(QStringLiteral("service"));
    daemon.terminate();
    daemon.waitForFinished(3000);
}

#include "alertnotifier_test.moc"
