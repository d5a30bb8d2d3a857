// `meridian-watch` as systemd runs it: the real binary, no window, over a real simulated
// fleet (meridian-sim, its agents on loopback), a real Alertmanager and a webhook that
// counts what it is sent. Faults injected into the fleet reach both with no console
// running, each once and within its budget; a watcher killed with SIGKILL mid-incident
// and started again re-sends nothing and misses nothing; two watchers behind one
// Alertmanager page its receiver once.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "agentprocess.h"
#include "alerts/alerttriagelog.h"
#include "childprocess.h"
#include "core/toolrunner.h"
#include "hostilehttp.h"
#include "systemdusermanager.h"
#include "testsupport.h"
#include "watchfixture.h"

namespace meridian {
namespace {

using nlohmann::json;
using test::ChildProcess;
using test::CountingWebhook;
using test::Fleet;
using test::freePort;
using test::residentMiB;
using test::TempDir;
using test::waitUntil;
using test::Watcher;
using Clock = std::chrono::steady_clock;

// Debian's prometheus-alertmanager on a free port; with a webhook, its receiver posts there.
class Alertmanager {
public:
    explicit Alertmanager(const std::string &webhook = {})
        : m_process(
              {"prometheus-alertmanager", "--config.file=" + config(webhook),
               "--storage.path=" + m_dir.file("am"),
               fmt::format("--web.listen-address=127.0.0.1:{}", port), "--cluster.listen-address="},
              m_dir.file("alertmanager.log"))
    {
        EXPECT_TRUE(waitUntil([&] { return !test::httpGet(port, "/-/ready").empty(); }))
            << m_process.log();
    }
    std::string url() const { return fmt::format("http://127.0.0.1:{}", port); }
    // The alert names Alertmanager holds as active.
    std::multiset<std::string> active()
    {
        std::multiset<std::string> names;
        const json alerts = json::parse(test::httpGet(port, "/api/v2/alerts"), nullptr, false);
        if (alerts.is_array()) {
            for (const json &a : alerts)
                names.insert(a["labels"].value("alertname", ""));
        }
        return names;
    }
    const int port = freePort();

private:
    std::string config(const std::string &webhook)
    {
        std::ofstream file(m_dir.file("alertmanager.yml"));
        if (webhook.empty()) {
            file << "route: {receiver: none}\nreceivers: [{name: none}]\n";
        } else {
            // Every alert its own group, told at once, and not repeated within the test.
            file << "route:\n  receiver: hook\n  group_by: ['...']\n  group_wait: 1s\n"
                 << "  group_interval: 1s\n  repeat_interval: 1h\n"
                 << "receivers:\n  - name: hook\n    webhook_configs:\n      - url: '" << webhook
                 << "'\n        send_resolved: true\n";
        }
        return m_dir.file("alertmanager.yml");
    }
    TempDir m_dir;
    ChildProcess m_process;
};

double secondsSince(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

// Whether the history file `db` says the receivers were told that an alert whose key
// begins with `prefix` is firing. A watcher writes that record once they have answered:
// killed before then, it tells them again when it starts (docs/RELIABILITY.md). The kill
// cases kill it once the record is there.
bool recordedAsSent(const std::string &db, const std::string &prefix)
{
    auto log = AlertTriageLog::open(db);
    if (!log)
        return false;
    const auto firing = log.value()->firingDelivered();
    if (!firing)
        return false;
    for (const std::string &key : firing.value()) {
        if (key.rfind(prefix, 0) == 0)
            return true;
    }
    return false;
}

}  // namespace

// Xid, ECC, thermal, link down, an agent killed, a data center dark: with no console
// anywhere, each reaches the webhook once (firing) and Alertmanager, and nothing else
// does; an Xid within 15 s and the dark data center within its pending duration and 15 s;
// and each that ends is resolved once. The routing file asks 2 s of every pending
// duration, as a team may: the defaults' own budget (a dark data center paged within a
// minute of its last word, after 30 s pending) is alertengine_test's, where time is
// simulated.
TEST(Watcher, FaultsReachAlertmanagerAndAWebhookOnceWithNoConsoleRunning)
{
    TempDir dir;
    CountingWebhook webhook;
    Alertmanager alertmanager;
    Fleet fleet(dir, 12);
    std::ofstream(dir.file("routes.yaml"))
        << "routes:\n  - {name: am, kind: alertmanager, url: '" << alertmanager.url() << "'}\n"
        << "  - {name: hook, kind: json, url: '" << webhook.url() << "'}\n"
        << "pending: {MeridianDataCenterDark: 2, MeridianAgentUnreachable: 2, "
           "MeridianAgentStale: 2, MeridianThermalThrottling: 2, MeridianLinkDown: 2}\n";
    Watcher watcher(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "w1");
    ASSERT_TRUE(waitUntil([&] { return watcher.watching(12); }, std::chrono::seconds(60)))
        << watcher.log();

    const auto injected = Clock::now();
    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "1"});
    fleet.fault({"--node", "xm-r01-n2", "--kind", "ecc-dbe", "--card", "0"});
    fleet.fault({"--node", "wh-r01-n1", "--kind", "thermal", "--card", "3"});
    fleet.fault({"--node", "wh-r01-n2", "--kind", "link-down"});
    fleet.fault({"--node", "wh-r01-n3", "--kind", "crash"});
    fleet.fault({"--data-center", "zhongwei", "--kind", "crash"});
    const std::vector<std::string> kinds = {"Xid",       "ECC double-bit",    "thermal throttling",
                                            "link down", "agent unreachable", "data center dark"};
    const auto allFiring = [&] {
        for (const std::string &kind : kinds) {
            if (webhook.count(kind, "firing") == 0 &&
                !(kind == "agent unreachable" && webhook.count("agent stale", "firing") > 0))
                return false;
        }
        return true;
    };
    EXPECT_TRUE(waitUntil(allFiring, std::chrono::seconds(90))) << watcher.log();
    Clock::time_point xid, ecc, dark;
    EXPECT_EQ(webhook.count("Xid", "firing", &xid), 1);
    EXPECT_EQ(webhook.count("ECC double-bit", "firing", &ecc), 1);
    EXPECT_EQ(webhook.count("thermal throttling", "firing"), 1);
    EXPECT_EQ(webhook.count("link down", "firing"), 1);
    EXPECT_EQ(webhook.count("agent unreachable", "firing") + webhook.count("agent stale", "firing"),
              1)
        << "the killed agent, once";
    EXPECT_EQ(webhook.count("data center dark", "firing", &dark), 1)
        << "one incident for Zhongwei, not one page per agent";
    EXPECT_LE(secondsSince(injected, xid), 15.0);
    EXPECT_LE(secondsSince(injected, ecc), 15.0);
    EXPECT_LE(secondsSince(injected, dark), 2.0 + 15.0);
    RecordProperty("xid_seconds", std::to_string(secondsSince(injected, xid)));
    RecordProperty("dark_seconds", std::to_string(secondsSince(injected, dark)));
    // Alertmanager holds them too.
    EXPECT_TRUE(waitUntil([&] {
        const auto held = alertmanager.active();
        return held.count("MeridianXid") == 1 && held.count("MeridianDataCenterDark") == 1;
    })) << "Alertmanager holds no Meridian alerts";

    // The faults end: the dark data center and the link are resolved, once each.
    fleet.fault({"--kind", "clear"});
    EXPECT_TRUE(waitUntil(
        [&] {
            return webhook.count("data center dark", "resolved") > 0 &&
                   webhook.count("link down", "resolved") > 0;
        },
        std::chrono::seconds(90)))
        << watcher.log();
    // Three passes of the rules take under a second at `--evaluate-every 0.25` (three at
    // the default).
    const auto passesFrom = Clock::now();
    EXPECT_TRUE(watcher.settles(3)) << watcher.log();
    EXPECT_LT(secondsSince(passesFrom, Clock::now()), 2.25) << "--evaluate-every was not kept";
    EXPECT_EQ(webhook.count("data center dark", "resolved"), 1);
    EXPECT_EQ(webhook.count("link down", "resolved"), 1);
    EXPECT_EQ(webhook.count("data center dark", "firing"), 1) << "nothing fired twice";
    EXPECT_EQ(webhook.count("Xid", "firing"), 1);
    // Six faults, six pages: the rest of the fleet, healthy from the watcher's start to
    // here (seconds past every 2 s pending duration), paged nobody.
    int firing = 0;
    for (const CountingWebhook::Seen &seen : webhook.seen())
        firing += seen.status == "firing";
    EXPECT_EQ(firing, 6) << "paged for something no fault caused";
    // `meridian-watch status` says what a running one is doing.
    ChildProcess status(
        {MERIDIAN_WATCH_BIN, "status", "--url", fmt::format("http://127.0.0.1:{}", watcher.port)},
        dir.file("status.log"));
    ASSERT_TRUE(waitUntil([&] { return status.ended(); }));
    EXPECT_EQ(status.waitStatus(), 0) << status.log();
    EXPECT_NE(status.log().find("w1: up"), std::string::npos) << status.log();
    EXPECT_NE(status.log().find("GPU fell off the bus"), std::string::npos) << status.log();
    const std::string metrics = test::httpGet(watcher.port, "/metrics");
    EXPECT_NE(metrics.find("meridian_watch_agents{state=\"connected\"}"), std::string::npos);
    EXPECT_NE(metrics.find("meridian_watch_behind 0"), std::string::npos) << metrics;
}

// SIGKILL mid-incident: the watcher started again on its file re-sends nothing it had
// sent, and an alert that began while it was down is delivered, once.
TEST(Watcher, KilledMidIncidentAndStartedAgainSendsNothingTwiceAndMissesNothing)
{
    TempDir dir;
    CountingWebhook webhook;
    Fleet fleet(dir, 6);
    webhook.routesFile(dir);
    auto first = std::make_unique<Watcher>(dir, fleet.inventory(), dir.file("routes.yaml"),
                                           dir.file("watch.db"), "first");
    ASSERT_TRUE(waitUntil([&] { return first->watching(6); }, std::chrono::seconds(60)))
        << first->log();
    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    ASSERT_TRUE(waitUntil([&] { return webhook.count("Xid", "firing") == 1; })) << first->log();
    ASSERT_TRUE(waitUntil([&] { return recordedAsSent(dir.file("watch.db"), "xid/"); }));
    first->kill(SIGKILL);
    first.reset();
    // While nobody watches: an ECC error on another node.
    fleet.fault({"--node", "wh-r01-n1", "--kind", "ecc-dbe", "--card", "1"});
    const auto restarted = Clock::now();
    Watcher second(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "second");
    Clock::time_point ecc;
    EXPECT_TRUE(waitUntil([&] { return webhook.count("ECC double-bit", "firing", &ecc) > 0; }))
        << second.log();
    EXPECT_LE(secondsSince(restarted, ecc), 15.0) << "missed while it was down";
    // Long enough for a re-send to have happened, had one been going to.
    EXPECT_TRUE(second.settles(2)) << second.log();
    EXPECT_EQ(webhook.count("Xid", "firing"), 1) << "re-sent after the restart";
    EXPECT_EQ(webhook.count("ECC double-bit", "firing"), 1);
}

// A data center dark when the watcher was killed comes back while none runs: the watcher
// started again tells the receivers it resolved, once, within seconds, not never.
TEST(Watcher, AResolveOwedSinceBeforeAKillIsPaidOnceSoonAfterTheRestart)
{
    TempDir dir;
    CountingWebhook webhook;
    Fleet fleet(dir, 12);
    webhook.routesFile(dir, "pending: {MeridianDataCenterDark: 1, MeridianAgentUnreachable: 1}\n");
    auto first = std::make_unique<Watcher>(dir, fleet.inventory(), dir.file("routes.yaml"),
                                           dir.file("watch.db"), "first");
    ASSERT_TRUE(waitUntil([&] { return first->watching(12); }, std::chrono::seconds(60)))
        << first->log();
    fleet.fault({"--data-center", "zhongwei", "--kind", "crash"});
    ASSERT_TRUE(waitUntil([&] { return webhook.count("data center dark", "firing") == 1; },
                          std::chrono::seconds(60)))
        << first->log();
    ASSERT_TRUE(waitUntil([&] { return recordedAsSent(dir.file("watch.db"), "dark/"); }));
    first->kill(SIGKILL);
    first.reset();
    fleet.fault({"--kind", "clear"});
    const auto restarted = Clock::now();
    Watcher second(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "second");
    Clock::time_point resolved;
    ASSERT_TRUE(
        waitUntil([&] { return webhook.count("data center dark", "resolved", &resolved) > 0; },
                  std::chrono::seconds(30)))
        << second.log() << second.status().dump();
    EXPECT_LE(secondsSince(restarted, resolved), 10.0);
    RecordProperty("owed_resolve_seconds", std::to_string(secondsSince(restarted, resolved)));
    EXPECT_TRUE(second.settles(8)) << second.log();
    EXPECT_EQ(webhook.count("data center dark", "resolved"), 1);
    EXPECT_EQ(webhook.count("data center dark", "firing"), 1) << "nothing re-sent";
    EXPECT_FALSE(recordedAsSent(dir.file("watch.db"), "dark/")) << "the file still owes it";
}

// Two watchers for availability, both sending to one Alertmanager: its receiver is paged
// once for each alert, as Alertmanager deduplicates identical alerts from its senders.
TEST(Watcher, TwoWatchersBehindOneAlertmanagerPageItsReceiverOnce)
{
    TempDir dir;
    CountingWebhook webhook;
    Alertmanager alertmanager(webhook.url());
    Fleet fleet(dir, 6);
    std::ofstream(dir.file("routes.yaml"))
        << "routes:\n  - {name: am, kind: alertmanager, url: '" << alertmanager.url() << "'}\n";
    Watcher a(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("a.db"), "a");
    Watcher b(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("b.db"), "b");
    ASSERT_TRUE(
        waitUntil([&] { return a.watching(6) && b.watching(6); }, std::chrono::seconds(60)));
    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    fleet.fault({"--node", "wh-r01-n1", "--kind", "ecc-dbe", "--card", "1"});
    ASSERT_TRUE(waitUntil(
        [&] {
            return webhook.count("MeridianXid", "firing") > 0 &&
                   webhook.count("MeridianEccDoubleBit", "firing") > 0;
        },
        std::chrono::seconds(30)))
        << a.log() << b.log();
    EXPECT_TRUE(waitUntil([&] {
        return a.status().value("firing", 0) == 2 && b.status().value("firing", 0) == 2;
    })) << "both watchers see both faults";
    EXPECT_TRUE(a.settles(2) && b.settles(1));
    EXPECT_EQ(webhook.count("MeridianXid", "firing"), 1);
    EXPECT_EQ(webhook.count("MeridianEccDoubleBit", "firing"), 1);
}

// The fault-response clock over what the watcher sent: an acknowledgement made in a
// console on the same history file stops the clock for its alert, a resolution ends it,
// and `meridian report --response` says how long each took.
TEST(Watcher, TheResponseClockCountsWhatWasSentAndWhenItWasAnswered)
{
    TempDir dir;
    CountingWebhook webhook;
    Fleet fleet(dir, 6);
    webhook.routesFile(dir, "pending: {MeridianLinkDown: 0}\n");
    Watcher watcher(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "w");
    ASSERT_TRUE(waitUntil([&] { return watcher.watching(6); }, std::chrono::seconds(60)))
        << watcher.log();
    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    fleet.fault({"--node", "wh-r01-n1", "--kind", "link-down"});
    ASSERT_TRUE(waitUntil([&] {
        return webhook.count("Xid", "firing") == 1 && webhook.count("link down", "firing") == 1;
    })) << watcher.log();
    // The occurrence is on record once the receivers' answers are (the clock starts there).
    ASSERT_TRUE(waitUntil([&] { return recordedAsSent(dir.file("watch.db"), "xid/"); }));
    // The on-call acknowledges the Xid in a console that opens the watcher's file.
    std::string xidKey;
    for (const CountingWebhook::Seen &seen : webhook.seen()) {
        if (seen.kind == "Xid")
            xidKey = seen.key;
    }
    {
        auto console = AlertTriageLog::open(dir.file("watch.db"));
        ASSERT_TRUE(console) << console.error().message;
        const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        ASSERT_TRUE(console.value()->record(
            {0, now, xidKey, TriageAction::Kind::Acknowledge, "zhang.min", ""}));
    }
    fleet.fault({"--kind", "clear"});
    ASSERT_TRUE(waitUntil([&] { return webhook.count("link down", "resolved") == 1; },
                          std::chrono::seconds(60)))
        << watcher.log();
    ChildProcess report(
        {MERIDIAN_CONSOLE_BIN, "report", "--response", "--group-by", "kind", "--from", "2026-01-01",
         "--to", "2100-01-01", "--db", dir.file("watch.db"), "-o", dir.file("response.csv")},
        dir.file("report.log"));
    ASSERT_TRUE(waitUntil([&] { return report.ended(); }));
    ASSERT_EQ(report.waitStatus(), 0) << report.log();
    const std::string csv = test::readFile(dir.file("response.csv"));
    // Xid: one, acknowledged in time, not resolved (an Xid is a fact until it ages out).
    EXPECT_NE(csv.find("\nXid,1,1,1,1.000,"), std::string::npos) << csv;
    // The link: one, not acknowledged, resolved within the hour.
    EXPECT_NE(csv.find("\nlink down,1,0,0,0.000,,,1,1,1.000,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\ntotal,2,1,1,0.500,"), std::string::npos) << csv;
}

// An Alertmanager whose answers never end (silences read, alerts posted) neither stops the
// watcher paging the other route nor grows it; its /status still answers and names it.
TEST(Watcher, AnAlertmanagerThatNeverFinishesAnsweringHoldsNothingBack)
{
    TempDir dir;
    CountingWebhook webhook;
    test::HostileHttpServer endless(test::HostileReply::Endless);
    Fleet fleet(dir, 6);
    std::ofstream(dir.file("routes.yaml"))
        << "routes:\n  - {name: am, kind: alertmanager, url: '" << endless.url("")
        << "'}\n  - {name: hook, kind: json, url: '" << webhook.url() << "'}\n";
    Watcher watcher(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "w");
    ASSERT_TRUE(waitUntil([&] { return watcher.watching(6); }, std::chrono::seconds(60)))
        << watcher.log();
    const double settled = residentMiB(watcher.pid());
    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    EXPECT_TRUE(
        waitUntil([&] { return webhook.count("Xid", "firing") == 1; }, std::chrono::seconds(20)))
        << "the good route waited behind the endless one\n"
        << watcher.log();
    EXPECT_GT(endless.requests(), 0);
    // Sampled for 1.5 s: the endless answer comes as fast as loopback carries it, so a
    // watcher that kept it would be past the bound within a fraction of that.
    double peak = settled;
    for (int i = 0; i < 15; ++i) {
        peak = std::max(peak, residentMiB(watcher.pid()));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_LT(peak, settled + 100) << "grew from " << settled << " to " << peak << " MiB";
    const json status = watcher.status();
    ASSERT_TRUE(status.is_object()) << watcher.log();
    EXPECT_EQ(status.value("firing", 0), 1);
}

// The restart systemd gives it: the shipped unit's Restart= settings, under a real
// systemd user manager. kill -9 mid-incident; systemd starts it again; nothing is sent
// twice and what began while it was down is sent once.
TEST(Watcher, WhereSystemdRunsItsUnitRestartsItAfterAKillAndNothingIsSentTwice)
{
    TempDir dir;
    test::SystemdUserManager systemd(dir.file("systemd"));
    ASSERT_EQ(systemd.problem(), "");
    // The restart policy as shipped.
    std::vector<std::string> properties;
    {
        std::istringstream unit(
            test::readFile(MERIDIAN_SOURCE_DIR "/packaging/watch/meridian-watch.service"));
        for (std::string line; std::getline(unit, line);) {
            if (line.rfind("Restart", 0) == 0)
                properties.insert(properties.end(), {"-p", line});
        }
    }
    ASSERT_EQ(properties.size(), 6u) << "Restart=, RestartSec=, RestartPreventExitStatus=";
    CountingWebhook webhook;
    Fleet fleet(dir, 6);
    webhook.routesFile(dir);
    const int port = freePort();
    const std::string unit = "meridian-watch-test";
    std::vector<std::string> run = {systemd.systemdRun(), "--unit", unit};
    run.insert(run.end(), properties.begin(), properties.end());
    run.insert(run.end(), {MERIDIAN_WATCH_BIN, "--inventory", fleet.inventory(), "--alert-routes",
                           dir.file("routes.yaml"), "--db", dir.file("watch.db"), "--listen",
                           fmt::format("127.0.0.1:{}", port), "--evaluate-every", "0.25"});
    auto started = runTool({run, 10'000});
    ASSERT_TRUE(started) << started.error().message;
    const auto mainPid = [&] {
        auto shown =
            runTool({{systemd.systemctl(), "show", "--property=MainPID", "--value", unit}, 5'000});
        return shown ? std::atoi(shown->c_str()) : 0;
    };
    const auto watching = [&] {
        const json s = json::parse(test::httpGet(port, "/status"), nullptr, false);
        return s.is_object() && s.value("connected", 0) == 6;
    };
    ASSERT_TRUE(waitUntil(watching, std::chrono::seconds(60)));
    fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    ASSERT_TRUE(waitUntil([&] { return webhook.count("Xid", "firing") == 1; }));
    ASSERT_TRUE(waitUntil([&] { return recordedAsSent(dir.file("watch.db"), "xid/"); }));
    const int killed = mainPid();
    ASSERT_GT(killed, 0);
    ASSERT_EQ(::kill(killed, SIGKILL), 0);
    fleet.fault({"--node", "wh-r01-n1", "--kind", "ecc-dbe", "--card", "1"});
    EXPECT_TRUE(waitUntil([&] { return mainPid() > 0 && mainPid() != killed; }))
        << "systemd did not start it again";
    Clock::time_point ecc;
    EXPECT_TRUE(waitUntil([&] { return webhook.count("ECC double-bit", "firing", &ecc) > 0; }));
    EXPECT_TRUE(test::watchSettles(port, 2));
    EXPECT_EQ(webhook.count("Xid", "firing"), 1) << "re-sent after the restart";
    EXPECT_EQ(webhook.count("ECC double-bit", "firing"), 1);
    (void)runTool({{systemd.systemctl(), "stop", unit}, 20'000});  // cleanup: not the test
}

// A watcher that stalls (its machine swapped it out, a debugger, SIGSTOP) comes back to
// agents whose last words are seconds old. It sees that its own pass came late, holds
// agents' staleness meanwhile and says so on stderr and /metrics; even a team that pages
// on silence at once (no pending duration) is not paged for the watcher's own stall, and
// once caught up it judges agents again.
TEST(Watcher, AWatcherThatStalledBlamesNoAgentForItsOwnLag)
{
    TempDir dir;
    CountingWebhook webhook;
    Fleet fleet(dir, 6);
    webhook.routesFile(dir,
                       "pending: {MeridianDataCenterDark: 0, MeridianAgentStale: 0, "
                       "MeridianAgentUnreachable: 0}\n");
    // A hold after a stall of 2 s rather than the default's 10 (--stall-hold): every agent
    // sends each second, so two are time for all of them to be heard again.
    Watcher watcher(dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("watch.db"), "w",
                    {"--stall-hold", "2"});
    ASSERT_TRUE(waitUntil([&] { return watcher.watching(6); }, std::chrono::seconds(60)))
        << watcher.log();
    // Passes of the rules over a healthy fleet for a second and a half, long enough for
    // every agent to have been heard (each sends every second): the start's grace spares
    // only agents never heard from, so from here on it would not hide a wrong judgment.
    ASSERT_TRUE(
        watcher.settles(2, std::chrono::system_clock::now() + std::chrono::milliseconds(1500)))
        << watcher.log();
    ASSERT_EQ(webhook.posts(), 0) << "paged on a healthy fleet";
    ASSERT_EQ(::kill(watcher.pid(), SIGSTOP), 0);
    // The stall itself: past an agent's staleness (three of its one-second intervals), so
    // every agent's last word is stale when the watcher comes back.
    std::this_thread::sleep_for(std::chrono::milliseconds(3500));
    ASSERT_EQ(::kill(watcher.pid(), SIGCONT), 0);
    // Passes of the rules until a second past the hold that follows a stall (2 s from the
    // late pass, the first after it comes back).
    EXPECT_TRUE(watcher.settles(2, std::chrono::system_clock::now() + std::chrono::seconds(3)))
        << watcher.log();
    EXPECT_EQ(webhook.posts(), 0) << "the watcher blamed the agents for its own stall";
    const std::string metrics = test::httpGet(watcher.port, "/metrics");
    EXPECT_NE(metrics.find("meridian_watch_behind_total 1\n"), std::string::npos) << metrics;
    EXPECT_NE(watcher.log().find("this process is behind (its loop "), std::string::npos)
        << watcher.log();
    // Caught up, it judges agents again: one killed now is paged, within the few seconds
    // its silence takes to show (had the default's 10 s hold been kept, not yet).
    const auto killed = std::chrono::steady_clock::now();
    fleet.fault({"--node", "wh-r01-n1", "--kind", "crash"});
    EXPECT_TRUE(waitUntil([&] {
        return webhook.count("agent unreachable", "firing") +
                   webhook.count("agent stale", "firing") ==
               1;
    })) << watcher.log();
    const auto pagedAfter = std::chrono::steady_clock::now() - killed;
    RecordProperty("paged_after_ms", static_cast<int>(pagedAfter / std::chrono::milliseconds(1)));
    EXPECT_LT(pagedAfter, std::chrono::seconds(4)) << "the hold outlasted --stall-hold";
}

// A watcher that cannot page stops at once, naming why, with the exit status its unit
// does not retry: a routing file that does not load, one that names no route, no fleet,
// a command line that does not parse.
TEST(Watcher, AWatcherThatCannotPageStopsNamingWhy)
{
    TempDir dir;
    std::ofstream(dir.file("broken.yaml")) << "routes:\n  - {name: hook, kind: pager}\n";
    std::ofstream(dir.file("empty.yaml")) << "routes: []\n";
    std::ofstream(dir.file("good.yaml"))
        << "routes:\n  - {name: hook, kind: json, url: 'http://127.0.0.1:1/hook'}\n";
    std::ofstream(dir.file("fleet.yaml"))
        << "data_centers:\n  - name: xiamen\n    agents: [127.0.0.1:1]\n";
    const auto run = [&](std::vector<std::string> args, const std::string &log) {
        args.insert(args.begin(), {MERIDIAN_WATCH_BIN, "--db", dir.file("w.db")});
        ChildProcess watch(args, dir.file(log));
        EXPECT_TRUE(waitUntil([&] { return watch.ended(); }, std::chrono::seconds(10)));
        EXPECT_TRUE(WIFEXITED(watch.waitStatus()) && WEXITSTATUS(watch.waitStatus()) == 2)
            << watch.log();
        return watch.log();
    };
    EXPECT_NE(
        run({"--inventory", dir.file("fleet.yaml"), "--alert-routes", dir.file("broken.yaml")},
            "broken.log")
            .find(dir.file("broken.yaml") + ":2"),
        std::string::npos);
    EXPECT_NE(run({"--inventory", dir.file("fleet.yaml"), "--alert-routes", dir.file("empty.yaml")},
                  "empty.log")
                  .find("names no route"),
              std::string::npos);
    EXPECT_NE(
        run({"--alert-routes", dir.file("good.yaml")}, "nofleet.log").find("nothing to watch"),
        std::string::npos);
    // A security file with a setting its HTTP listener would not apply.
    std::ofstream(dir.file("security.yaml")) << "authenticate_within_seconds: 3\n";
    const std::string unused = run({"--inventory", dir.file("fleet.yaml"), "--alert-routes",
                                    dir.file("good.yaml"), "--security", dir.file("security.yaml")},
                                   "security.log");
    EXPECT_NE(unused.find(dir.file("security.yaml") + ":1"), std::string::npos) << unused;
    // Rules that would never run page nobody: refused like any bad command line.
    EXPECT_NE(run({"--inventory", dir.file("fleet.yaml"), "--alert-routes", dir.file("good.yaml"),
                   "--evaluate-every", "0"},
                  "never.log")
                  .find("--evaluate-every"),
              std::string::npos);
}

}  // namespace meridian
