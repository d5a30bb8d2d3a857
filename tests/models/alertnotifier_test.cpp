// Alerts reaching people: a real HTTP receiver gets an alert when it opens and again when
// it resolves, never one someone silenced; a real freedesktop
// notification service on a private session bus (dbus-daemon) shows the desktop bubble.
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
#include <fstream>
#include <mutex>
#include <set>

#include "agentprocess.h"
#include "alerts/alertmanagersilences.h"
#include "alerts/alertpayloads.h"
#include "alerts/alerttriagelog.h"
#include "childprocess.h"
#include "fakefleet.h"
#include "models/alertcenter.h"
#include "models/alertguidance.h"
#include "models/alertnotifier.h"
#include "models/alertroutesmodel.h"
#include "models/desktopnotifier.h"
#include "testsupport.h"
#include "widgets/alertroutingdialog.h"

using namespace meridian;
using nlohmann::json;

namespace {

class Receiver {
public:
    Receiver()
    {
        m_server.Post("/hook", [this](const httplib::Request &request, httplib::Response &) {
            const json body = json::parse(request.body);
            std::lock_guard lock(m_mutex);
            for (const json &a : body["alerts"])
                m_alerts.push_back(a);
        });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        test::waitUntil([this] { return m_server.is_running(); });
    }
    ~Receiver()
    {
        m_server.stop();
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/hook"; }
    std::vector<json> alerts() const
    {
        std::lock_guard lock(m_mutex);
        return m_alerts;
    }

private:
    httplib::Server m_server;
    mutable std::mutex m_mutex;
    std::vector<json> m_alerts;
    int m_port = 0;
    std::thread m_thread;
};

Event linkEvent(EventKind kind, int64_t atMs)
{
    Event e;
    e.kind = kind;
    e.netdev = "eth3";
    e.timeUnixMs = atMs;
    e.message = "eth3 carrier lost";
    return e;
}

// Waits, letting queued Qt signals through, until no route has anything left to send.
bool everyRouteDone(AlertNotifier &notifier)
{
    return test::waitUntil([&] {
        QCoreApplication::processEvents();
        for (const RouteStatus &r : notifier.dispatcher().status()) {
            if (r.waiting > 0)
                return false;
        }
        return true;
    });
}

// Waits for the receiver while letting queued Qt signals through.
bool receiverHolds(const Receiver &receiver, size_t count)
{
    return test::waitUntil([&] {
        QCoreApplication::processEvents();
        return receiver.alerts().size() >= count;
    });
}

}  // namespace

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
    QSignalSpy sounds(&notifier, &AlertNotifier::soundRequested);

    state.recordEvent(0, linkEvent(EventKind::LinkDown, 10'100));
    center.update(state.snapshot(10'200));
    ASSERT_TRUE(receiverHolds(receiver, 1))
        << center.engine().alerts().size()
        << " alerts; route: " << notifier.dispatcher().status()[0].lastError << " delivered "
        << notifier.dispatcher().status()[0].delivered;
    json firing = receiver.alerts()[0];
    EXPECT_EQ(firing["status"], "firing");
    EXPECT_EQ(firing["kind"], "link down");
    EXPECT_EQ(firing["node"], "wh-1");
    EXPECT_EQ(firing["netdev"], "eth3");
    EXPECT_FALSE(firing["next_step"].get<std::string>().empty());
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

namespace {

// A real Alertmanager on a free port, holding what it is sent (no receivers of its own).
struct Alertmanager {
    test::TempDir dir;
    int port = test::freePort();
    std::unique_ptr<test::ChildProcess> process;
    Alertmanager()
    {
        std::ofstream(dir.file("alertmanager.yml"))
            << "route: {receiver: none, group_wait: 1s}\nreceivers: [{name: none}]\n";
        process = std::make_unique<test::ChildProcess>(
            std::vector<std::string>{"prometheus-alertmanager",
                                     "--config.file=" + dir.file("alertmanager.yml"),
                                     "--storage.path=" + dir.file("am"),
                                     "--web.listen-address=127.0.0.1:" + std::to_string(port),
                                     "--cluster.listen-address="},
            dir.file("alertmanager.log"));
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
    // Every alert it holds, active, silenced or not.
    json alerts() const
    {
        const std::string body = test::httpGet(port, "/api/v2/alerts");
        return body.empty() ? json::array() : json::parse(body);
    }
};

}  // namespace

// The goal of "on-call you can trust at 3 a.m.": ten console restarts on one history
// file, with an alert open, one acknowledged and one silenced, re-key nothing and re-send
// nothing to a webhook; Alertmanager (which gets its periodic re-send) holds the same
// three alerts, named by host and card, never by the agent's address. Each console meets
// its agents as a real one can: their events before their inventories.
TEST(AlertNotifier, TenRestartsReKeyAndResendNothingToAlertmanagerOrAWebhook)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(test::waitUntil([&] {
        return !test::httpGet(alertmanager.port, "/-/ready").empty();
    })) << alertmanager.process->log();
    Receiver webhook;
    test::TempDir dir;
    const std::string file = dir.file("history.sqlite");
    AlertRouting routing;
    routing.routes.push_back({"alertmanager", RouteKind::Alertmanager, alertmanager.url()});
    routing.routes.push_back({"noc", RouteKind::Json, webhook.url()});
    const int64_t base = SystemClock::instance().nowUnixMs();
    const char *hosts[] = {"wh-1", "wh-2", "wh-3"};
    const auto runConsole = [&](int run) {
        const int64_t now = base + run * 60'000;
        FleetState state;
        std::vector<NodeHandle> nodes;
        for (int i = 0; i < 3; ++i)
            nodes.push_back(
                state.addNode("127.0.0.1:" + std::to_string(41000 + run * 10 + i), "wuhu"));
        // The agents replay what they hold before the console has their inventories.
        Event link = linkEvent(EventKind::LinkDown, base + 1'000);
        state.recordEvent(nodes[0], link);
        Event ecc;
        ecc.kind = EventKind::EccUncorrected;
        ecc.cardIndex = 2;
        ecc.timeUnixMs = base + 2'000;
        state.recordEvent(nodes[1], ecc);
        Event hot;
        hot.kind = EventKind::ThermalThrottle;
        hot.cardIndex = 1;
        hot.timeUnixMs = base + 3'000;
        state.recordEvent(nodes[2], hot);
        AlertCenter center(state);
        auto log = AlertTriageLog::open(file);
        EXPECT_TRUE(log.ok()) << log.error().message;
        center.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
        center.setUser(QStringLiteral("night-shift"));
        ManualClock clock(now);
        AlertNotifier notifier(center, routing, clock, nullptr);
        center.update(state.snapshot(now));  // no identities yet: nothing may be keyed
        for (int i = 0; i < 3; ++i) {
            NodeInventory inventory;
            inventory.nodeId = hosts[i];
            inventory.dataCenter = "wuhu";
            for (uint32_t c = 0; c < 8; ++c) {
                CardInfo card;
                card.index = c;
                card.vendor = Vendor::Nvidia;
                card.model = "A100-SXM4-80GB";
                card.uuid = std::string(hosts[i]) + "-gpu-" + std::to_string(c);
                inventory.cards.push_back(card);
            }
            state.setInventory(nodes[static_cast<size_t>(i)], inventory, 1000, now);
            state.recordTelemetry(nodes[static_cast<size_t>(i)], TelemetrySample{now, {}, {}, {}},
                                  now);
        }
        center.update(state.snapshot(now + 100));
        center.waitForTriage();
        center.update(state.snapshot(now + 200));
        EXPECT_TRUE(everyRouteDone(notifier));
        if (run == 0) {
            // The night shift takes the ECC card and silences the hot node's thermal alert.
            for (const Alert &a : center.engine().alerts()) {
                if (a.kind == AlertKind::EccDoubleBit)
                    center.acknowledge(QString::fromStdString(a.key));
            }
            SilenceRule quiet;
            quiet.kind = AlertKind::ThermalThrottle;
            quiet.node = "wh-3";
            quiet.untilMs = base + 24 * 3600'000;
            quiet.reason = "fan replaced, watching it";
            center.silence(quiet);
        }
        center.waitForTriage();
        std::set<std::string> keys;
        for (const Alert &a : center.engine().alerts())
            keys.insert(a.key);
        return keys;
    };
    const std::set<std::string> first = runConsole(0);
    ASSERT_EQ(first.size(), 3u);
    const size_t told = webhook.alerts().size();
    ASSERT_EQ(told, 3u) << "each of the three goes out once";
    ASSERT_TRUE(test::waitUntil([&] { return alertmanager.alerts().size() == 3; }))
        << alertmanager.alerts().dump();
    for (int run = 1; run <= 10; ++run)
        EXPECT_EQ(runConsole(run), first) << "re-keyed on restart " << run;
    EXPECT_EQ(webhook.alerts().size(), told) << "a restart re-sent to the webhook";
    for (const json &a : webhook.alerts())
        EXPECT_EQ(first.count(a["key"].get<std::string>()), 1u) << a.dump();
    const json held = alertmanager.alerts();
    EXPECT_EQ(held.size(), 3u) << held.dump(1);
    EXPECT_EQ(held.dump().find("127.0.0.1"), std::string::npos) << held.dump(1);
    std::set<std::string> nodes;
    for (const json &a : held)
        nodes.insert(a["labels"]["node"].get<std::string>());
    EXPECT_EQ(nodes, (std::set<std::string>{"wh-1", "wh-2", "wh-3"}));
}

// A team's one list of silences: with an Alertmanager, two consoles on different history
// files and the on-call's phone (anything speaking Alertmanager's API) see and lift the
// same silences, with who made them; one Meridian cannot apply exactly is left to
// Alertmanager; with the Alertmanager gone, a silence is kept in the file, and said.
TEST(AlertmanagerSilences, ConsolesOnDifferentFilesAndThePhoneShareOneList)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(test::waitUntil([&] {
        return !test::httpGet(alertmanager.port, "/-/ready").empty();
    })) << alertmanager.process->log();
    const AlertRoute route{"alertmanager", RouteKind::Alertmanager, alertmanager.url()};
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}, {"wuhu", "wh-3", "r1"}}, 10'000);
    test::TempDir dir;
    const auto console = [&](const char *file, const char *user) {
        auto center = std::make_unique<AlertCenter>(state);
        auto log = AlertTriageLog::open(dir.file(file));
        EXPECT_TRUE(log.ok());
        center->setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
        center->setAlertmanagerSilences(std::make_shared<AlertmanagerSilences>(route), 60'000);
        center->setUser(QString::fromLatin1(user));
        center->update(state.snapshot(10'000));
        return center;
    };
    auto ana = console("ana.sqlite", "ana");
    auto bo = console("bo.sqlite", "bo");
    const int64_t now = SystemClock::instance().nowUnixMs();
    SilenceRule fans;
    fans.kind = AlertKind::ThermalThrottle;
    fans.node = "wh-3";
    fans.untilMs = now + 3600'000;
    fans.reason = "fans swapped, watching";
    ana->silence(fans);
    ana->waitForTriage();

    // Alertmanager holds it, as anyone's amtool shows it.
    const json held = json::parse(test::httpGet(alertmanager.port, "/api/v2/silences"));
    ASSERT_EQ(held.size(), 1u) << held.dump(1);
    EXPECT_EQ(held[0]["createdBy"], "ana");
    EXPECT_EQ(held[0]["comment"], "fans swapped, watching");
    std::set<std::string> matchers;
    for (const json &m : held[0]["matchers"])
        matchers.insert(m["name"].get<std::string>() + "=" + m["value"].get<std::string>());
    EXPECT_EQ(matchers, (std::set<std::string>{"source=meridian", "node=wh-3",
                                               "alertname=MeridianThermalThrottling"}));

    // Bo, on another file, sees it and it silences his alert.
    bo->waitForTriage();
    ASSERT_EQ(bo->silences().size(), 1u);
    EXPECT_EQ(bo->silences()[0].by, "ana");
    Event hot;
    hot.kind = EventKind::ThermalThrottle;
    hot.cardIndex = 1;
    hot.timeUnixMs = 10'500;
    state.recordEvent(1, hot);
    bo->update(state.snapshot(11'000));
    ASSERT_EQ(bo->engine().alerts().size(), 1u);
    EXPECT_TRUE(bo->engine().alerts()[0].silenced(11'000));

    // The phone silences Xid on wh-1 through the API; a regex one is Alertmanager's alone.
    const auto phone = [&](const json &matchers) {
        const json body = {{"matchers", matchers},
                           {"startsAt", rfc3339(now)},
                           {"endsAt", rfc3339(now + 3600'000)},
                           {"createdBy", "on-call phone"},
                           {"comment", "looking"}};
        httplib::Client client("127.0.0.1", alertmanager.port);
        const auto answer = client.Post("/api/v2/silences", body.dump(), "application/json");
        ASSERT_TRUE(answer && answer->status == 200) << (answer ? answer->body : "no answer");
    };
    phone({{{"name", "alertname"}, {"value", "MeridianXid"}, {"isRegex", false}},
           {{"name", "node"}, {"value", "wh-1"}, {"isRegex", false}}});
    phone({{{"name", "node"}, {"value", "wh-.*"}, {"isRegex", true}}});
    bo->waitForTriage();
    ASSERT_EQ(bo->silences().size(), 2u);
    EXPECT_EQ(bo->silences()[1].by, "on-call phone");
    EXPECT_EQ(bo->silences()[1].kind, AlertKind::Xid);

    // Bo lifts Ana's: gone in Alertmanager, and for Ana.
    bo->liftSilence(bo->silences()[0].id);
    bo->waitForTriage();
    ana->waitForTriage();
    EXPECT_EQ(ana->silences().size(), 1u);
    const json after = json::parse(test::httpGet(alertmanager.port, "/api/v2/silences"));
    for (const json &s : after) {
        if (s["createdBy"] == "ana")
            EXPECT_EQ(s["status"]["state"], "expired");
    }

    // The Alertmanager goes: a new silence is kept in Ana's file, and the problem said.
    alertmanager.process.reset();
    QSignalSpy problems(ana.get(), &AlertCenter::triageProblem);
    SilenceRule night;
    night.node = "wh-1";
    night.untilMs = now + 3600'000;
    ana->silence(night);
    ana->waitForTriage();
    EXPECT_TRUE(test::waitUntil([&] {
        QCoreApplication::processEvents();
        for (const QList<QVariant> &p : problems) {
            if (p.at(0).toString().contains(QStringLiteral("kept in the history file")))
                return true;
        }
        return false;
    }));
    bool found = false;
    for (const SilenceRule &rule : ana->silences())
        found |= rule.node == "wh-1" && !rule.kind && rule.alertmanagerId.empty();
    EXPECT_TRUE(found) << "the silence made while Alertmanager was away was lost";
}
