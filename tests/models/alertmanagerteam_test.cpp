// Alerts and silences for a team, against a real Alertmanager (Debian's
// prometheus-alertmanager on a free port): console restarts re-key and re-send nothing,
// and silences live in Alertmanager, shared by consoles on different history files and
// the on-call's phone.
#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QSignalSpy>
#include <fstream>
#include <memory>
#include <set>
#include <thread>

#include "agentprocess.h"
#include "alertreceiver.h"
#include "alerts/alertmanagersilences.h"
#include "alerts/alertpayloads.h"
#include "alerts/alerttriagelog.h"
#include "childprocess.h"
#include "fakefleet.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertnotifier.h"
#include "testsupport.h"

using namespace meridian;
using nlohmann::json;
using test::everyRouteDone;
using test::linkEvent;
using test::Receiver;

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
        start();
    }
    // Again on the same port and storage, after `process.reset()` (it keeps its silences).
    void start()
    {
        process = std::make_unique<test::ChildProcess>(
            std::vector<std::string>{"prometheus-alertmanager",
                                     "--config.file=" + dir.file("alertmanager.yml"),
                                     "--storage.path=" + dir.file("am"),
                                     "--web.listen-address=127.0.0.1:" + std::to_string(port),
                                     "--cluster.listen-address="},
            dir.file("alertmanager.log"));
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
    AlertRoute route() const { return {"alertmanager", RouteKind::Alertmanager, url()}; }
    // Whether it answers before the wait runs out (its log says why not).
    bool ready() const
    {
        return test::waitUntil([&] { return !test::httpGet(port, "/-/ready").empty(); });
    }
    // Every alert it holds, active, silenced or not.
    json alerts() const
    {
        const std::string body = test::httpGet(port, "/api/v2/alerts");
        return body.empty() ? json::array() : json::parse(body);
    }
};

// Ana's console on a one-node fleet, its silences kept in `alertmanager`.
struct AnasConsole {
    FleetState state;
    AlertCenter center{state};
    explicit AnasConsole(const Alertmanager &alertmanager)
    {
        test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
        center.setAlertmanagerSilences(std::make_shared<AlertmanagerSilences>(alertmanager.route()),
                                       60'000);
        center.setUser(QStringLiteral("ana"));
        center.update(state.snapshot(10'000));
    }
    // wh-1 silenced for the next hour.
    void silenceForReboot()
    {
        SilenceRule reboot;
        reboot.node = "wh-1";
        reboot.untilMs = SystemClock::instance().nowUnixMs() + 3600'000;
        reboot.reason = "rebooting";
        center.silence(reboot);
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
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    Receiver webhook;
    test::TempDir dir;
    const std::string file = dir.file("history.sqlite");
    AlertRouting routing;
    routing.routes.push_back(alertmanager.route());
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
            for (const Alert &a : center.view().alerts) {
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
        for (const Alert &a : center.view().alerts)
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
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    const AlertRoute route = alertmanager.route();
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
    ASSERT_EQ(bo->view().alerts.size(), 1u);
    EXPECT_TRUE(bo->view().alerts[0].silenced(11'000));

    // The phone silences Xid on wh-1 through the API, and every wh- node by a regex: both
    // applied here as Alertmanager applies them.
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
    ASSERT_EQ(bo->silences().size(), 3u);
    // The two read together come in Alertmanager's order, which is none in particular.
    int xid = 0, regex = 0;
    for (const SilenceRule &r : bo->silences()) {
        if (r.by != "on-call phone")
            continue;
        xid += r.kind == AlertKind::Xid && r.node == "wh-1";
        regex += r.matchersText() == "node=~\"wh-.*\"";
    }
    EXPECT_EQ(xid, 1) << "a plain silence keeps Meridian's words";
    EXPECT_EQ(regex, 1);

    // Bo lifts Ana's: gone in Alertmanager, and for Ana.
    bo->liftSilence(bo->silences()[0].id);
    bo->waitForTriage();
    ana->waitForTriage();
    EXPECT_EQ(ana->silences().size(), 2u);
    const json after = json::parse(test::httpGet(alertmanager.port, "/api/v2/silences"));
    for (const json &s : after) {
        if (s["createdBy"] == "ana") {
            EXPECT_EQ(s["status"]["state"], "expired");
        }
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
    int found = 0;
    for (const SilenceRule &rule : ana->silences())
        found += rule.node == "wh-1" && !rule.kind && rule.alertmanagerId.empty();
    EXPECT_EQ(found, 1) << "the silence made while Alertmanager was away: lost, or listed twice";
}

// A silence the on-call set on the phone while no console ran holds back the first
// delivery of the next start: nothing is sent before the Alertmanager's silences are read,
// even where a first read of the history file (asked before the Alertmanager was known)
// came back sooner.
TEST(AlertmanagerSilences, ASilenceSetWhileNoConsoleRanHoldsBackTheFirstDelivery)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    const int64_t now = SystemClock::instance().nowUnixMs();
    const json body = {{"matchers", {{{"name", "node"}, {"value", "wh-.*"}, {"isRegex", true}}}},
                       {"startsAt", rfc3339(now - 60'000)},
                       {"endsAt", rfc3339(now + 3600'000)},
                       {"createdBy", "on-call phone"},
                       {"comment", "rack power work"}};
    httplib::Client client("127.0.0.1", alertmanager.port);
    const auto made = client.Post("/api/v2/silences", body.dump(), "application/json");
    ASSERT_TRUE(made && made->status == 200) << (made ? made->body : "no answer");
    Receiver webhook;
    AlertRouting routing;
    routing.routes.push_back({"noc", RouteKind::Json, webhook.url()});
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
    state.recordEvent(0, linkEvent(EventKind::LinkDown, 9'000));
    test::TempDir dir;
    AlertCenter center(state);
    // As the console starts it: the file first, then the team's Alertmanager.
    auto log = AlertTriageLog::open(dir.file("history.sqlite"));
    ASSERT_TRUE(log.ok()) << log.error().message;
    center.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
    center.setAlertmanagerSilences(std::make_shared<AlertmanagerSilences>(alertmanager.route()),
                                   500);
    ManualClock clock(now);
    AlertNotifier notifier(center, routing, clock, nullptr);
    // The alert is there from the first update on, while the reads are under way.
    for (int i = 0; i < 100 && center.silences().empty(); ++i) {
        center.update(state.snapshot(10'000 + i));
        QCoreApplication::processEvents();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_EQ(center.silences().size(), 1u) << "the phone's silence was never read";
    center.update(state.snapshot(10'200));
    EXPECT_TRUE(everyRouteDone(notifier));
    ASSERT_EQ(center.view().alerts.size(), 1u);
    EXPECT_TRUE(center.view().alerts[0].silenced(10'200));
    EXPECT_TRUE(webhook.alerts().empty()) << webhook.alerts().front().dump();
}

// Lifted in the seconds before Alertmanager has answered for it, a silence has no
// Alertmanager id to expire yet: the lift must wait for it, not be undone by the next
// read that lists the silence.
TEST(AlertmanagerSilences, ASilenceLiftedBeforeAlertmanagerConfirmsItStaysLifted)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    AnasConsole ana(alertmanager);
    AlertCenter &center = ana.center;
    ana.silenceForReboot();
    ASSERT_EQ(center.silences().size(), 1u);
    center.liftSilence(center.silences()[0].id);
    EXPECT_TRUE(center.silences().empty());

    center.waitForTriage();
    EXPECT_TRUE(center.silences().empty()) << "the lift undone by the next read";
    const json held = json::parse(test::httpGet(alertmanager.port, "/api/v2/silences"));
    ASSERT_EQ(held.size(), 1u) << held.dump(1);
    EXPECT_EQ(held[0]["status"]["state"], "expired") << held.dump(1);
}

// A lift that does not reach Alertmanager leaves the silence there, for every other
// console and the on-call's phone: this console says the lift failed and, once
// Alertmanager answers again, lists the silence again instead of hiding it for good.
TEST(AlertmanagerSilences, ASilenceWhoseLiftFailedIsListedAgain)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    AnasConsole ana(alertmanager);
    AlertCenter &center = ana.center;
    ana.silenceForReboot();
    center.waitForTriage();
    ASSERT_EQ(center.silences().size(), 1u);
    ASSERT_FALSE(center.silences()[0].alertmanagerId.empty());

    alertmanager.process.reset();  // stopped: it writes its silences to its storage
    QSignalSpy problems(&center, &AlertCenter::triageProblem);
    center.liftSilence(center.silences()[0].id);
    EXPECT_TRUE(center.silences().empty()) << "the lift is shown at once";
    center.waitForTriage();
    EXPECT_TRUE(test::waitUntil([&] {
        QCoreApplication::processEvents();
        return problems.count() > 0;
    })) << "the failed lift is not said";

    alertmanager.start();
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    const json held = json::parse(test::httpGet(alertmanager.port, "/api/v2/silences"));
    ASSERT_EQ(held.size(), 1u) << held.dump(1);
    ASSERT_EQ(held[0]["status"]["state"], "active") << held.dump(1);
    center.waitForTriage();
    ASSERT_EQ(center.silences().size(), 1u)
        << "still active in Alertmanager, but hidden here as if lifted";
    EXPECT_EQ(center.silences()[0].reason, "rebooting");
    center.liftSilence(center.silences()[0].id);  // this time it gets there
    center.waitForTriage();
    EXPECT_TRUE(center.silences().empty());
    const json after = json::parse(test::httpGet(alertmanager.port, "/api/v2/silences"));
    EXPECT_EQ(after[0]["status"]["state"], "expired") << after.dump(1);
}

// Acknowledging is not resolving: an alert someone has taken stays firing in a real
// Alertmanager for as long as it holds. Each re-send tells Alertmanager it holds for five
// more minutes (with who took it as an annotation), so its receivers, amtool and any
// inhibition keyed on it keep seeing it; once the fault ends, Alertmanager hears so at
// once. The console's clock starts 4.5 minutes in the past and runs to now, so what
// Alertmanager holds is judged on its own clock: had the re-sends stopped at the
// acknowledgement, it would end a minute from now, not five.
TEST(AlertNotifier, AnAcknowledgedAlertStaysFiringInAlertmanagerUntilItsFaultEnds)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    AlertRouting routing;
    routing.routes.push_back(alertmanager.route());
    const int64_t realNow = SystemClock::instance().nowUnixMs();
    const int64_t start = realNow - 270'000;
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, start);
    AlertCenter center(state);
    center.setUser(QStringLiteral("night-shift"));
    ManualClock clock(start);
    AlertNotifier notifier(center, routing, clock, nullptr);
    const auto at = [&](int64_t nowMs) {
        clock.setUnixMs(nowMs);
        state.recordTelemetry(0, TelemetrySample{nowMs, {}, {}, {}}, nowMs);
        center.update(state.snapshot(nowMs));
        center.waitForTriage();
        QCoreApplication::processEvents();
        EXPECT_TRUE(everyRouteDone(notifier));
    };
    const auto heldActive = [&] {
        const std::string body = test::httpGet(alertmanager.port, "/api/v2/alerts?active=true");
        return body.empty() ? json::array() : json::parse(body);
    };
    state.recordEvent(0, linkEvent(EventKind::LinkDown, start + 100));
    at(start + 200);
    ASSERT_EQ(center.view().alerts.size(), 1u);
    const std::string key = center.view().alerts[0].key;
    ASSERT_TRUE(test::waitUntil([&] { return heldActive().size() == 1; }))
        << alertmanager.alerts().dump();

    center.acknowledge(QString::fromStdString(key));
    for (int64_t t = start + 61'000; t <= realNow; t += 61'000)
        at(t);
    json active;
    ASSERT_TRUE(test::waitUntil([&] {
        active = heldActive();
        return active.size() == 1 && active[0]["annotations"].contains("acknowledged_by");
    })) << alertmanager.alerts().dump();
    EXPECT_EQ(active[0]["status"]["state"], "active");
    EXPECT_EQ(active[0]["labels"]["meridian_key"], key);
    EXPECT_EQ(active[0]["annotations"]["acknowledged_by"], "night-shift");
    const std::string endsAt = active[0]["endsAt"].get<std::string>();
    EXPECT_GE(endsAt, rfc3339(realNow + 4 * 60'000)) << "not held past the acknowledgement";

    // The link comes back: resolved there within the minute.
    state.recordEvent(0, linkEvent(EventKind::LinkUp, realNow));
    at(std::max(realNow + 1, SystemClock::instance().nowUnixMs()));
    EXPECT_TRUE(test::waitUntil([&] { return heldActive().empty(); }, std::chrono::seconds(60)))
        << alertmanager.alerts().dump();
}

// An Alertmanager shared with other teams, its silence list past the 8 MiB a read may
// hold: Meridian's silences are still read (through Alertmanager's own filter), so a
// silence made here is confirmed and a lift made on the phone is applied within seconds.
TEST(AlertmanagerSilences, AListFullOfOtherTeamsSilencesHidesNoLiftOfOurs)
{
    Alertmanager alertmanager;
    ASSERT_TRUE(alertmanager.ready()) << alertmanager.process->log();
    const int64_t now = SystemClock::instance().nowUnixMs();
    httplib::Client phone("127.0.0.1", alertmanager.port);
    const std::string essay(3500, 'w');
    size_t listed = 0;
    for (int i = 0; listed <= kMaxSilencesAnswerBytes; ++i) {
        for (int j = 0; j < 250; ++j, ++i) {
            const json body = {
                {"matchers",
                 {{{"name", "team"}, {"value", "storage"}, {"isRegex", false}},
                  {{"name", "instance"}, {"value", "s-" + std::to_string(i)}, {"isRegex", false}}}},
                {"startsAt", rfc3339(now)},
                {"endsAt", rfc3339(now + 3600'000)},
                {"createdBy", "storage on-call"},
                {"comment", essay}};
            const auto made = phone.Post("/api/v2/silences", body.dump(), "application/json");
            ASSERT_TRUE(made && made->status == 200) << (made ? made->body : "no answer");
        }
        listed = test::httpGet(alertmanager.port, "/api/v2/silences").size();
    }
    FleetState state;
    test::fillFleet(state, {{"wuhu", "wh-1", "r1"}}, 10'000);
    AlertCenter center(state);
    center.setAlertmanagerSilences(std::make_shared<AlertmanagerSilences>(alertmanager.route()),
                                   300);
    center.setUser(QStringLiteral("ana"));
    center.update(state.snapshot(10'000));
    SilenceRule reboot;
    reboot.node = "wh-1";
    reboot.untilMs = now + 3600'000;
    reboot.reason = "rebooting";
    center.silence(reboot);
    const auto ours = [&] {
        QCoreApplication::processEvents();
        const std::vector<SilenceRule> rules = center.silences();
        return rules.size() == 1 ? rules[0].alertmanagerId : std::string("none");
    };
    ASSERT_TRUE(test::waitUntil([&] { return !ours().empty() && ours() != "none"; }))
        << listed << " bytes of silences listed; Meridian holds " << center.silences().size();

    const auto lifted = phone.Delete("/api/v2/silence/" + ours());
    ASSERT_TRUE(lifted && lifted->status == 200);
    const auto liftedAt = std::chrono::steady_clock::now();
    ASSERT_TRUE(test::waitUntil([&] { return ours() == "none"; }, std::chrono::seconds(10)));
    EXPECT_LT(std::chrono::steady_clock::now() - liftedAt, std::chrono::seconds(10));
}
