// A console that follows the team's watcher: the real `meridian-watch` over a real
// simulated fleet, and the console's alert center reading it over HTTP. The console shows
// the watcher's alerts, acknowledges, notes and silences through it in the name its token
// gives (not the name it claims), a read-only token may look but not act, and a watcher
// that answers garbage, endlessly or not at all leaves the console alive with what it
// last showed and the problem said.
#include <gtest/gtest.h>
#include <httplib.h>

#include <QCoreApplication>
#include <fstream>

#include "alerts/alertrouting.h"
#include "core/clock.h"
#include "hostilehttp.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertnotifier.h"
#include "models/alerts/alertsmodel.h"
#include "watchfixture.h"

namespace meridian {
namespace {

using test::CountingWebhook;
using test::Fleet;
using test::TempDir;
using test::Watcher;

// Waits with the console's loop running, as a window's would be.
bool waitShowing(const std::function<bool()> &condition,
                 std::chrono::milliseconds timeout = std::chrono::seconds(30))
{
    return test::waitUntil(
        [&] {
            QCoreApplication::processEvents();
            return condition();
        },
        timeout);
}

AlertRoute watcherRoute(int port, const std::string &token = {}, const std::string &caFile = {})
{
    AlertRoute route;
    route.name = "watcher";
    route.url =
        (caFile.empty() ? "http://127.0.0.1:" : "https://localhost:") + std::to_string(port);
    route.bearerToken = token;
    route.caFile = caFile;
    return route;
}

const Alert *firstOfKind(const AlertCenter &center, AlertKind kind)
{
    for (const Alert &a : center.view().alerts) {
        if (a.kind == kind)
            return &a;
    }
    return nullptr;
}

// A watcher's GET /alerts that answers whatever the test sets.
class FakeWatcher {
public:
    FakeWatcher()
    {
        m_server.Get("/alerts", [this](const httplib::Request &, httplib::Response &answer) {
            std::lock_guard lock(m_mutex);
            answer.set_content(m_reply, "application/json");
        });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        test::waitUntil([this] { return m_server.is_running(); });
    }
    ~FakeWatcher()
    {
        m_server.stop();
        m_thread.join();
    }
    int port() const { return m_port; }
    void answer(std::string reply)
    {
        std::lock_guard lock(m_mutex);
        m_reply = std::move(reply);
    }

private:
    httplib::Server m_server;
    int m_port = 0;
    std::thread m_thread;
    std::mutex m_mutex;
    std::string m_reply;
};

constexpr const char *kOperatorToken = "operator-token-0123456789";
constexpr const char *kViewerToken = "viewer-token-0123456789";

}  // namespace

TEST(WatcherConsole, AConsoleShowsTheWatchersAlertsAndActsThroughItInItsTokensName)
{
    TempDir dir;
    CountingWebhook webhook;
    Fleet fleet(dir, 6);
    webhook.routesFile(dir, "pending: {MeridianLinkDown: 0}\n");
    // Tokens travel over TLS only, even on loopback.
    ASSERT_TRUE(test::makeLocalhostCertificate(dir.file("w.key"), dir.file("w.crt")));
    std::ofstream(dir.file("security.yaml"))
        << "tls: {cert_file: w.crt, key_file: w.key}\n"
        << "tokens:\n"
        << "  - {name: li.na, role: operator, token: " << kOperatorToken << "}\n"
        << "  - {name: wall-screen, role: read-only, token: " << kViewerToken << "}\n";
    Watcher watcher(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "w",
                    {"--security", dir.file("security.yaml")});
    // Its /status needs a token now; the console's list is the test.
    FleetState consoleFleet;  // this console's own view of the fleet: not needed to follow
    AlertCenter console(consoleFleet);
    console.setUser(QStringLiteral("someone.else"));
    console.followWatcher(watcherRoute(watcher.port, kOperatorToken, dir.file("w.crt")), 200);
    QStringList problems;
    QObject::connect(&console, &AlertCenter::triageProblem,
                     [&problems](const QString &p) { problems << p; });

    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    ASSERT_TRUE(waitShowing([&] { return firstOfKind(console, AlertKind::Xid) != nullptr; },
                            std::chrono::seconds(60)))
        << watcher.log() << problems.join(QStringLiteral("\n")).toStdString();
    EXPECT_EQ(AlertsModel(console).rowCount(), static_cast<int>(console.view().alerts.size()));
    EXPECT_EQ(console.sourceText(), QStringLiteral("from w"));
    const std::string key = firstOfKind(console, AlertKind::Xid)->key;

    console.acknowledge(QString::fromStdString(key));
    console.setNote(QString::fromStdString(key), QStringLiteral("RMA 4471 filed"));
    ASSERT_TRUE(waitShowing([&] {
        const Alert *xid = console.view().find(key);
        return xid && xid->acknowledgedMs && xid->note == "RMA 4471 filed";
    })) << watcher.log();
    EXPECT_EQ(console.view().find(key)->acknowledgedBy, "li.na")
        << "acknowledged in the token's name, not the name the console claims";

    // A silence made here holds at the watcher: the link that goes down is not paged.
    SilenceRule quiet;
    quiet.kind = AlertKind::LinkDown;
    quiet.dataCenter = "wuhu";
    quiet.untilMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count() +
                    3600'000;
    quiet.reason = "cabling work in Wuhu";
    console.silence(quiet);
    ASSERT_TRUE(waitShowing([&] { return console.silences().size() == 1; })) << watcher.log();
    EXPECT_EQ(console.silences()[0].by, "li.na");
    fleet.fault({"--node", "wh-r01-n1", "--kind", "link-down"});
    ASSERT_TRUE(waitShowing([&] { return firstOfKind(console, AlertKind::LinkDown) != nullptr; }))
        << watcher.log();
    EXPECT_GT(firstOfKind(console, AlertKind::LinkDown)->silencedUntilMs, 0);
    EXPECT_EQ(webhook.count("Xid", "firing"), 1);
    EXPECT_EQ(webhook.count("link down", "firing"), 0) << "silenced through the console";

    // A read-only token may follow, not act.
    AlertCenter wallScreen(consoleFleet);
    wallScreen.followWatcher(watcherRoute(watcher.port, kViewerToken, dir.file("w.crt")), 200);
    QString refused;
    QObject::connect(&wallScreen, &AlertCenter::triageProblem, [&refused](const QString &p) {
        if (p.contains(QStringLiteral("403")))
            refused = p;
    });
    ASSERT_TRUE(waitShowing([&] { return wallScreen.view().find(key) != nullptr; }));
    wallScreen.liftSilence(console.silences()[0].id);
    ASSERT_TRUE(waitShowing([&] { return !refused.isEmpty(); }));
    EXPECT_TRUE(refused.contains(QStringLiteral("read-only"))) << refused.toStdString();
    EXPECT_EQ(console.silences().size(), 1u);
    // Without a token, nothing: not even the list.
    httplib::SSLClient raw("127.0.0.1", watcher.port);
    raw.enable_server_certificate_verification(false);
    const auto anonymous = raw.Get("/alerts");
    ASSERT_TRUE(anonymous);
    EXPECT_EQ(anonymous->status, 401);
}

// Garbage, a reply that never ends, one that drips: the console stays up, keeps the list it
// showed, says what is wrong, and is not held past the call's deadline (1.5 s here, 5 s in
// the console).
TEST(WatcherConsole, AWatcherThatAnswersGarbageOrNeverFinishesLeavesTheConsoleAliveAndSaysSo)
{
    FakeWatcher garbage;
    const int port = garbage.port();
    const auto answering = [&](std::string text) { garbage.answer(std::move(text)); };
    FleetState fleet;
    AlertCenter console(fleet);
    QString problem;
    QObject::connect(&console, &AlertCenter::triageProblem,
                     [&problem](const QString &p) { problem = p; });
    console.followWatcher(watcherRoute(port), 100);
    answering(
        R"({"watcher":"w","nowMs":1,"alerts":[{"key":"xid/a/b","kind":"Xid","subject":"a"}]})");
    ASSERT_TRUE(waitShowing([&] { return console.view().find("xid/a/b") != nullptr; }))
        << problem.toStdString();

    const std::vector<std::pair<std::string, std::string>> broken = {
        {std::string(200'000, '[') + std::string(200'000, ']'), "nested"},
        {"{\"watcher\":\"w\",\"nowMs\":1,\"alerts\":[{\"key\":\"\xff\xfe\"}]}", "not a JSON"},
        {R"({"watcher":"w","nowMs":"soon","alerts":[]})", "not one"},
        {R"({"watcher":"w","nowMs":1,"alerts":[{"key":"k","kind":"meteor"}]})", "meteor"},
        {std::string(17 * 1024 * 1024, ' '), "16384 KiB"},
    };
    for (const auto &[text, said] : broken) {
        problem.clear();
        answering(text);
        ASSERT_TRUE(waitShowing([&] { return problem.contains(QString::fromStdString(said)); }))
            << said << ": " << problem.toStdString();
        EXPECT_NE(console.view().find("xid/a/b"), nullptr) << "the list shown is kept";
    }

    for (const auto kind : {test::HostileReply::Endless, test::HostileReply::DripAByteASecond}) {
        test::HostileHttpServer hostile(kind);
        auto stuck = std::make_unique<AlertCenter>(fleet);
        QString said;
        QObject::connect(stuck.get(), &AlertCenter::triageProblem,
                         [&said](const QString &p) { said = p; });
        const auto started = std::chrono::steady_clock::now();
        stuck->followWatcher(watcherRoute(hostile.port()), 100, 1500);
        ASSERT_TRUE(waitShowing([&] { return !said.isEmpty(); }, std::chrono::seconds(20)));
        EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4))
            << said.toStdString();
        EXPECT_TRUE(stuck->view().alerts.empty());
        // Closed while its next read hangs on the watcher: it ends that read, not waits it out.
        ASSERT_TRUE(waitShowing([&] { return hostile.requests() >= 2; }));
        const auto closing = std::chrono::steady_clock::now();
        stuck.reset();
        EXPECT_LT(std::chrono::steady_clock::now() - closing, std::chrono::seconds(1));
    }
}

// A console opened mid-incident sounds for what opens after it started, not for every
// alert the watcher already paged.
TEST(WatcherConsole, AConsoleOpenedMidIncidentSoundsOnlyForWhatOpensLater)
{
    FakeWatcher watcher;
    const int port = watcher.port();
    const auto listing = [&](const std::vector<std::string> &keys) {
        std::string alerts;
        for (const std::string &key : keys)
            alerts += std::string(alerts.empty() ? "" : ",") + R"({"key":")" + key +
                      R"(","kind":"Xid","critical":true,"subject":"card"})";
        watcher.answer(R"({"watcher":"w","nowMs":1,"alerts":[)" + alerts + "]}");
    };
    listing({"xid/a/1", "xid/a/2"});
    FleetState fleet;
    AlertCenter console(fleet);
    console.followWatcher(watcherRoute(port), 100);
    AlertNotifier notifier(console, AlertRouting{}, SystemClock::instance(), nullptr);
    int sounds = 0;
    QObject::connect(&notifier, &AlertNotifier::soundRequested, [&sounds] { ++sounds; });
    ASSERT_TRUE(waitShowing([&] { return console.view().alerts.size() == 2; }));
    // A few more reads of the same list: still nothing new.
    const auto readsBefore = console.view().sequence;
    ASSERT_TRUE(waitShowing([&] { return console.view().sequence >= readsBefore + 3; }));
    EXPECT_EQ(sounds, 0) << "the alerts open before this console started were paged already";
    listing({"xid/a/1", "xid/a/2", "xid/a/3"});
    ASSERT_TRUE(waitShowing([&] { return sounds == 1; })) << sounds;
    EXPECT_EQ(console.view().alerts.size(), 3u);
}

}  // namespace meridian
