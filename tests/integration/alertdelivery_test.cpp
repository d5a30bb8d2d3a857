// Alerts leaving the console for real receivers: a real Alertmanager (Debian's package,
// started on a free port) takes firing and resolved alerts through its v2 API; a real
// HTTP receiver that fails twice sees the retries arrive on the virtual clock's schedule;
// a receiver that is not there is given up on after the configured retries, by name.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>
#include <thread>

#include "agentprocess.h"
#include "alerts/alertdispatcher.h"
#include "alerts/alertmanagersilences.h"
#include "childprocess.h"
#include "hostilehttp.h"
#include "testsupport.h"

namespace meridian {
namespace {

using nlohmann::json;
using test::ChildProcess;
using test::waitUntil;

AlertNotice linkFlap(int64_t startsAtMs)
{
    AlertNotice n;
    n.key = "flap/wh-r03-n1/eth2";
    n.kind = AlertKind::LinkFlap;
    n.severity = AlertSeverity::Critical;
    n.title = "Link flapping";
    n.subject = "wh-r03-n1 eth2";
    n.dataCenter = "wuhu";
    n.node = "wh-r03-n1";
    n.netdev = "eth2";
    n.meaning = "A RoCE link keeps going down and up";
    n.nextStep = "Replace the cable or transceiver";
    n.message = "eth2: 6 state changes in 60 s";
    n.startsAtMs = startsAtMs;
    return n;
}

// A receiver on loopback that answers 503 to its first `failures` requests.
class FlakyReceiver {
public:
    explicit FlakyReceiver(int failures) : m_failures(failures)
    {
        m_server.Post("/hook",
                      [this](const httplib::Request &request, httplib::Response &response) {
                          const int seen = m_requests++;
                          if (seen < m_failures) {
                              response.status = 503;
                              response.set_content("busy", "text/plain");
                              return;
                          }
                          std::lock_guard lock(m_mutex);
                          m_bodies.push_back(request.body);
                          response.set_content("{\"errcode\":0}", "application/json");
                      });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        waitUntil([this] { return m_server.is_running(); });
    }
    ~FlakyReceiver()
    {
        m_server.stop();
        m_thread.join();
    }
    std::string url() const { return fmt::format("http://127.0.0.1:{}/hook", m_port); }
    int requests() const { return m_requests; }
    std::vector<std::string> bodies() const
    {
        std::lock_guard lock(m_mutex);
        return m_bodies;
    }

private:
    httplib::Server m_server;
    int m_failures;
    std::atomic<int> m_requests{0};
    mutable std::mutex m_mutex;
    std::vector<std::string> m_bodies;
    int m_port = 0;
    std::thread m_thread;
};

TEST(AlertDelivery, AlertmanagerTakesFiringAndResolvedAlerts)
{
    test::TempDir dir;
    std::ofstream(dir.file("alertmanager.yml"))
        << "route: {receiver: none, group_wait: 1s}\nreceivers: [{name: none}]\n";
    const int port = test::freePort();
    ChildProcess alertmanager(
        {"prometheus-alertmanager", "--config.file=" + dir.file("alertmanager.yml"),
         "--storage.path=" + dir.file("am"), fmt::format("--web.listen-address=127.0.0.1:{}", port),
         "--cluster.listen-address="},
        dir.file("alertmanager.log"));
    ASSERT_TRUE(waitUntil([&] { return !test::httpGet(port, "/-/ready").empty(); }))
        << alertmanager.log();

    AlertRouting routing;
    routing.routes.push_back(
        {"alertmanager", RouteKind::Alertmanager, fmt::format("http://127.0.0.1:{}", port)});
    const int64_t start = SystemClock::instance().nowUnixMs();
    AlertDispatcher dispatcher(routing, SystemClock::instance());
    dispatcher.submit({linkFlap(start)});
    EXPECT_EQ(dispatcher.deliverDue(), 1);
    ASSERT_EQ(dispatcher.status()[0].delivered, 1u) << dispatcher.status()[0].lastError;

    // Alertmanager holds it, with our labels, as active.
    json active;
    ASSERT_TRUE(waitUntil([&] {
        const std::string body = test::httpGet(port, "/api/v2/alerts?active=true");
        if (body.empty())
            return false;
        active = json::parse(body);
        return active.size() == 1;
    })) << active.dump();
    EXPECT_EQ(active[0]["labels"]["alertname"], "MeridianLinkFlapping");
    EXPECT_EQ(active[0]["labels"]["netdev"], "eth2");
    EXPECT_EQ(active[0]["labels"]["dc"], "wuhu");
    EXPECT_EQ(active[0]["annotations"]["next_step"], "Replace the cable or transceiver");
    EXPECT_EQ(active[0]["status"]["state"], "active");

    // Resolved: it leaves the active list.
    AlertNotice resolved = linkFlap(start);
    resolved.resolved = true;
    resolved.endsAtMs = SystemClock::instance().nowUnixMs();
    dispatcher.submit({resolved});
    dispatcher.deliverDue();
    EXPECT_TRUE(waitUntil([&] {
        const std::string body = test::httpGet(port, "/api/v2/alerts?active=true");
        return !body.empty() && json::parse(body).empty();
    }));
}

TEST(AlertDelivery, AFailingReceiverIsRetriedOnTheClockUntilItTakesTheAlert)
{
    FlakyReceiver receiver(2);
    AlertRouting routing;
    routing.routes.push_back({"wecom-oncall", RouteKind::WeCom, receiver.url()});
    routing.retries = 5;
    ManualClock clock;
    AlertDispatcher dispatcher(routing, clock);
    dispatcher.submit({linkFlap(clock.nowUnixMs())});
    EXPECT_EQ(dispatcher.deliverDue(), 1);  // 503
    EXPECT_NE(dispatcher.status()[0].lastError.find("HTTP 503"), std::string::npos)
        << dispatcher.status()[0].lastError;
    EXPECT_EQ(dispatcher.deliverDue(), 0) << "a retry before its time";
    clock.advanceMs(2000);
    EXPECT_EQ(dispatcher.deliverDue(), 1);  // 503 again
    clock.advanceMs(2000);
    EXPECT_EQ(dispatcher.deliverDue(), 0) << "the second retry waits twice as long";
    clock.advanceMs(2000);
    EXPECT_EQ(dispatcher.deliverDue(), 1);
    const RouteStatus status = dispatcher.status()[0];
    EXPECT_EQ(status.delivered, 1u);
    EXPECT_EQ(status.waiting, 0u);
    EXPECT_TRUE(status.lastError.empty());
    EXPECT_EQ(receiver.requests(), 3);
    ASSERT_EQ(receiver.bodies().size(), 1u);
    EXPECT_EQ(json::parse(receiver.bodies()[0])["msgtype"], "markdown");
}

TEST(AlertDelivery, AReceiverThatIsNotThereIsGivenUpOnByName)
{
    AlertRouting routing;
    const int port = test::freePort();  // nothing listens there
    routing.routes.push_back(
        {"feishu-noc", RouteKind::Feishu, fmt::format("http://127.0.0.1:{}/hook", port)});
    routing.retries = 2;
    routing.timeoutMs = 500;
    ManualClock clock;
    AlertDispatcher dispatcher(routing, clock);
    dispatcher.start();  // the background thread delivers as the clock moves
    dispatcher.submit({linkFlap(clock.nowUnixMs())});
    for (uint64_t attempt = 1; attempt <= 3; ++attempt) {
        ASSERT_TRUE(waitUntil([&] { return dispatcher.status()[0].failedAttempts == attempt; }));
        clock.advanceMs(60'000);
    }
    ASSERT_TRUE(waitUntil([&] { return dispatcher.status()[0].droppedAfterRetries == 1; }));
    const RouteStatus status = dispatcher.status()[0];
    EXPECT_EQ(status.delivered, 0u);
    EXPECT_EQ(status.waiting, 0u);
    EXPECT_NE(status.lastError.find("feishu-noc"), std::string::npos) << status.lastError;
    EXPECT_NE(status.lastError.find(std::to_string(port)), std::string::npos) << status.lastError;
    // The test button tells the same story at once.
    EXPECT_NE(dispatcher.sendTest("feishu-noc", linkFlap(0)).find("feishu-noc"), std::string::npos);
    EXPECT_EQ(dispatcher.sendTest("nobody", linkFlap(0)), "no route named nobody");
}

// The routing dialog's test button sends on a worker thread; the console may close
// meanwhile. The send it was handed carries what it needs and reaches the receiver after
// its dispatcher is gone.
TEST(AlertDelivery, ATestSendStillReachesTheReceiverAfterItsDispatcherIsGone)
{
    FlakyReceiver receiver(0);  // takes everything
    AlertRouting routing;
    routing.routes.push_back({"wecom-oncall", RouteKind::WeCom, receiver.url()});
    std::function<std::string()> send;
    {
        ManualClock clock;
        AlertDispatcher dispatcher(routing, clock);
        send = dispatcher.testSend("wecom-oncall", linkFlap(clock.nowUnixMs()));
    }
    EXPECT_EQ(send(), "");
    EXPECT_EQ(receiver.requests(), 1);
}

// Something at the Alertmanager's address that answers silences wrongly: each answer is
// an error naming the route, never "no silences" (which would lift them all) and never a
// crash; an endless answer is cut at its cap, a slow one at the deadline.
TEST(AlertmanagerSilencesHostile, WrongShapesEndlessAndDrippingAnswersAreErrorsNamingTheRoute)
{
    std::string body;
    int status = 200;
    httplib::Server server;
    server.Get("/api/v2/silences", [&](const httplib::Request &, httplib::Response &r) {
        r.status = status;
        r.set_content(body, "application/json");
    });
    server.Post("/api/v2/silences", [&](const httplib::Request &, httplib::Response &r) {
        r.status = status;
        r.set_content(body, "application/json");
    });
    const int port = server.bind_to_any_port("127.0.0.1");
    std::thread serving([&] { server.listen_after_bind(); });
    ASSERT_TRUE(waitUntil([&] { return server.is_running(); }));
    AlertmanagerSilences silences(
        {"team-am", RouteKind::Alertmanager, fmt::format("http://127.0.0.1:{}", port)}, 1000);
    for (const std::string &wrong :
         {std::string(R"({"not": "a list"})"), std::string("[{\"status\": 5}]"),
          std::string(R"([{"status": {"state": "active"}, "matchers": [7]}])"),
          std::string(R"([{"status": {"state": "active"}, "matchers": [{"name": 1}]}])"),
          std::string("garbage{")}) {
        body = wrong;
        const auto read = silences.active();
        ASSERT_FALSE(read.ok()) << wrong;
        EXPECT_NE(read.error().message.find("team-am"), std::string::npos) << read.error().message;
    }
    // A matcher on a label Meridian's own silences do not use: applied all the same, as
    // Alertmanager applies it, and named by its matchers.
    body = R"([{"id": "a", "status": {"state": "active"}, "endsAt": "2030-01-01T00:00:00Z",
               "matchers": [{"name": "severity", "value": "warning", "isRegex": false}]}])";
    const auto applied = silences.active();
    ASSERT_TRUE(applied.ok()) << applied.error().message;
    ASSERT_EQ(applied->size(), 1u);
    EXPECT_EQ(applied->front().matchersText(), "severity=\"warning\"");
    // A creation refused, or answered without an id.
    status = 400;
    body = "bad matcher";
    SilenceRule rule;
    rule.node = "wh-1";
    rule.untilMs = 4'000'000'000'000;
    EXPECT_NE(silences.create(rule, 0).error().message.find("HTTP 400"), std::string::npos);
    status = 200;
    body = "{}";
    EXPECT_FALSE(silences.create(rule, 0).ok());
    server.stop();
    serving.join();

    for (const auto reply : {test::HostileReply::Endless, test::HostileReply::DripAByteASecond}) {
        test::HostileHttpServer hostile(reply);
        AlertmanagerSilences bad({"team-am", RouteKind::Alertmanager, hostile.url("")}, 1000);
        const auto start = std::chrono::steady_clock::now();
        const auto read = bad.active();
        ASSERT_FALSE(read.ok());
        EXPECT_NE(read.error().message.find("team-am"), std::string::npos);
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
    }
}

}  // namespace
}  // namespace meridian
