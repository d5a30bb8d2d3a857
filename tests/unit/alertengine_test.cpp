// Alert rules, deduplication and lifecycle on hand-made fleets, in virtual time.
#include <gtest/gtest.h>

#include "alerts/alertengine.h"
#include "alerts/alertrouting.h"
#include "fakefleet.h"

using namespace meridian;

namespace {

std::vector<test::FakeNode> nodes(const std::string &dc, int count, bool reports = true)
{
    std::vector<test::FakeNode> out;
    for (int i = 0; i < count; ++i)
        out.push_back(
            {dc, dc + "-n" + std::to_string(i), dc + "-r1", Vendor::Nvidia, 8, 50, reports});
    return out;
}

int countKind(const AlertEngine &engine, AlertKind kind)
{
    int n = 0;
    for (const Alert &a : engine.alerts())
        n += a.kind == kind && a.active;
    return n;
}

}  // namespace

TEST(AlertEngine, ADarkDataCenterIsOneIncidentNotOneRowPerAgent)
{
    FleetState state;
    test::fillFleet(state, nodes("xiamen", 4), 1000);
    test::fillFleet(state, nodes("wuhu", 10, false), 1000);  // never answered
    test::fillFleet(state,
                    {{"zhongwei", "zw-1", "r1", Vendor::Nvidia, 8, 50, false},
                     {"zhongwei", "zw-2", "r1"},
                     {"zhongwei", "zw-3", "r1"}},
                    1000);
    AlertEngine engine;
    engine.evaluate(state.snapshot(1500), {});
    const Alert *dark = engine.find("dark/wuhu");
    ASSERT_NE(dark, nullptr);
    EXPECT_EQ(dark->severity, AlertSeverity::Critical);
    EXPECT_EQ(dark->count, 10u);
    EXPECT_EQ(countKind(engine, AlertKind::DataCenterDark), 1);
    // One lone dead agent elsewhere is an agent alert; none for the dark DC's agents.
    EXPECT_EQ(countKind(engine, AlertKind::AgentUnreachable), 1);
    EXPECT_EQ(engine.openCount("wuhu", 1500), 1);
    EXPECT_EQ(engine.openCount("zhongwei", 1500), 1);
    EXPECT_EQ(engine.openCount("xiamen", 1500), 0);
}

TEST(AlertEngine, AMassOutageIsOneIncidentEvenWhenMostOfTheDataCenterStillReports)
{
    FleetState state;
    const auto some = [](const std::string &dc, int from, int to, bool reports) {
        std::vector<test::FakeNode> out;
        for (int i = from; i < to; ++i)
            out.push_back(
                {dc, dc + "-n" + std::to_string(i), dc + "-r1", Vendor::Nvidia, 8, 50, reports});
        return out;
    };
    test::fillFleet(state, some("wuhu", 0, 140, true), 1000);
    test::fillFleet(state, some("xiamen", 0, 60, false), 1000);  // 60 of 200 silent: 30%
    test::fillFleet(state, some("xiamen", 60, 200, true), 1000);
    test::fillFleet(state, some("zhongwei", 0, 5, false), 1000);  // a few: one row each
    test::fillFleet(state, some("zhongwei", 5, 100, true), 1000);
    AlertEngine engine;
    engine.evaluate(state.snapshot(1500), {});
    const Alert *incident = engine.find("dark/xiamen");
    ASSERT_NE(incident, nullptr);
    EXPECT_EQ(incident->count, 60u);
    EXPECT_EQ(countKind(engine, AlertKind::DataCenterDark), 1);
    // Zhongwei's few keep a row each; xiamen's sixty are inside the incident.
    EXPECT_EQ(countKind(engine, AlertKind::AgentUnreachable), 5);
}

TEST(AlertEngine, EventsDeduplicateAndAcknowledgeSilenceAndNote)
{
    FleetState state;
    test::fillFleet(state, nodes("xiamen", 3), 1000);
    AlertEngine engine;
    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 2;
    xid.xid = 79;
    xid.timeUnixMs = 1100;
    xid.message = "card 2: Xid 79";
    engine.evaluate(state.snapshot(1200), {{0, xid}});
    xid.timeUnixMs = 1300;
    engine.evaluate(state.snapshot(1400), {{0, xid}});
    const Alert *a = engine.find("xid/xiamen-n0/xiamen-n0-card-2");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->count, 2u);
    EXPECT_EQ(a->firstSeenMs, 1100);
    EXPECT_EQ(a->lastSeenMs, 1300);
    EXPECT_EQ(a->subject, "xiamen-n0 card 2");
    EXPECT_EQ(a->xid, 79u);
    EXPECT_EQ(a->nodeName, "xiamen-n0");
    ASSERT_TRUE(a->card.has_value());
    EXPECT_TRUE(a->open(1400));
    EXPECT_TRUE(engine.acknowledge(a->key, "on-call", 1500));
    EXPECT_FALSE(engine.find(a->key)->open(1500));
    EXPECT_EQ(engine.find(a->key)->acknowledgedBy, "on-call");

    Event hot;
    hot.kind = EventKind::ThermalThrottle;
    hot.cardIndex = 1;
    hot.timeUnixMs = 1600;
    engine.evaluate(state.snapshot(1600), {{1, hot}});
    const std::string thermal = "thermal/xiamen-n1/xiamen-n1-card-1";
    ASSERT_TRUE(engine.silence(thermal, 5000));
    EXPECT_FALSE(engine.find(thermal)->open(4000));
    EXPECT_TRUE(engine.find(thermal)->open(5001));
    ASSERT_TRUE(engine.setNote(thermal, "fan replaced, watching"));
    EXPECT_EQ(engine.find(thermal)->note, "fan replaced, watching");
    hot.kind = EventKind::ThermalThrottleCleared;
    hot.timeUnixMs = 1700;
    engine.evaluate(state.snapshot(1700), {{1, hot}});
    EXPECT_FALSE(engine.find(thermal)->active);  // resolved, still listed
    EXPECT_FALSE(engine.acknowledge("no/such/alert", "x", 0));
}

TEST(AlertEngine, StaleAgentAndRecovery)
{
    FleetState state;
    test::fillFleet(state, nodes("xiamen", 4), 1000);
    AlertEngine engine;
    engine.evaluate(state.snapshot(2000), {});
    EXPECT_EQ(countKind(engine, AlertKind::AgentStale), 0);
    engine.evaluate(state.snapshot(4500), {});  // all four missed three 1 s intervals
    // Everyone silent in a DC of four is a dark data center, not four stale agents.
    EXPECT_EQ(countKind(engine, AlertKind::DataCenterDark), 1);
    EXPECT_EQ(countKind(engine, AlertKind::AgentStale), 0);
    TelemetrySample sample;
    for (NodeHandle n = 0; n < 3; ++n)
        state.recordTelemetry(n, sample, 4400);
    engine.evaluate(state.snapshot(4500), {});
    EXPECT_EQ(countKind(engine, AlertKind::DataCenterDark), 0);
    EXPECT_NE(engine.find("dark/xiamen"), nullptr);  // resolved incident kept for the record
    // The straggler waits out the recovery before it is an alert of its own.
    EXPECT_EQ(countKind(engine, AlertKind::AgentStale), 0);
    const int64_t later = 4500 + AlertRules{}.recoveryQuietMs;
    for (NodeHandle n = 0; n < 3; ++n)
        state.recordTelemetry(n, sample, later);
    engine.evaluate(state.snapshot(later), {});
    EXPECT_EQ(countKind(engine, AlertKind::AgentStale), 1);
}

TEST(AlertEngine, ADataCenterComingBackRaisesNoStormOfAgentAlerts)
{
    // 30 agents dark; they come back a few at a time, some refusing at first.
    FleetState state;
    test::fillFleet(state, nodes("wuhu", 30), 1000);
    test::fillFleet(state, nodes("xiamen", 5), 1000);
    AlertEngine engine;
    TelemetrySample sample;
    // Every agent reports, but those of `dc` from number `back` on.
    const auto heartbeat = [&](const std::string &dc, int back, int64_t t) {
        for (NodeHandle n = 0; n < state.snapshot(t).nodeCount(); ++n) {
            const auto &l = *state.snapshot(t).layout;
            const int index = std::stoi(l.nodeId[n].substr(l.nodeId[n].rfind('n') + 1));
            if (l.nodeDataCenter[n] != dc || index < back)
                state.recordTelemetry(n, sample, t);
        }
    };
    int64_t t = 20'000;
    heartbeat("wuhu", 0, t);  // every wuhu agent silent, xiamen fine
    engine.evaluate(state.snapshot(t), {});
    ASSERT_TRUE(engine.find("dark/wuhu") && engine.find("dark/wuhu")->active);
    int agentAlerts = 0;
    for (int step = 1; step <= 10; ++step) {
        t += 10'000;
        // Three more agents back every 10 s; one of the last keeps refusing for a while.
        heartbeat("wuhu", 3 * step, t);
        if (step == 10)
            state.setConnection(29, ConnectionState::Unreachable, "connection refused");
        engine.evaluate(state.snapshot(t), {});
        for (const Alert &a : engine.alerts())
            agentAlerts += a.active && (a.kind == AlertKind::AgentUnreachable ||
                                        a.kind == AlertKind::AgentStale);
    }
    EXPECT_FALSE(engine.find("dark/wuhu")->active);
    EXPECT_EQ(agentAlerts, 0) << "per-agent alerts while the data center was recovering";
    // Once the recovery is over, an agent still down is an alert of its own again.
    t += AlertRules{}.recoveryQuietMs;
    heartbeat("wuhu", 30, t);
    state.setConnection(29, ConnectionState::Unreachable, "connection refused");
    engine.evaluate(state.snapshot(t), {});
    EXPECT_EQ(countKind(engine, AlertKind::AgentUnreachable), 1);
}

TEST(AlertEngine, SilencesMatchKindNodeOrDataCenter)
{
    FleetState state;
    test::fillFleet(state, nodes("xiamen", 2), 1000);
    test::fillFleet(state, nodes("wuhu", 2), 1000);
    AlertEngine engine;
    const auto xidOn = [](uint32_t card) {
        Event e;
        e.kind = EventKind::Xid;
        e.cardIndex = card;
        e.xid = 79;
        e.timeUnixMs = 1100;
        return e;
    };
    Event hot;
    hot.kind = EventKind::ThermalThrottle;
    hot.cardIndex = 0;
    hot.timeUnixMs = 1100;
    // Node handles: 0, 1 xiamen; 2, 3 wuhu.
    engine.evaluate(state.snapshot(1200), {{0, xidOn(1)}, {0, hot}, {2, xidOn(3)}, {3, hot}});
    ASSERT_EQ(engine.alerts().size(), 4u);
    const auto silenced = [&](const std::string &key) { return engine.find(key)->silenced(2000); };
    SilenceRule xidInXiamen;
    xidInXiamen.kind = AlertKind::Xid;
    xidInXiamen.dataCenter = "xiamen";
    xidInXiamen.untilMs = 10'000;
    xidInXiamen.by = "li.wei";
    xidInXiamen.reason = "card swap in progress";
    SilenceRule nodeWide;
    nodeWide.node = "wuhu-n1";
    nodeWide.untilMs = 5'000;
    engine.setSharedSilences({xidInXiamen, nodeWide});
    EXPECT_TRUE(silenced("xid/xiamen-n0/xiamen-n0-card-1"));
    EXPECT_EQ(engine.find("xid/xiamen-n0/xiamen-n0-card-1")->silencedBy, "li.wei");
    EXPECT_FALSE(silenced("thermal/xiamen-n0/xiamen-n0-card-0"));  // another kind
    EXPECT_FALSE(silenced("xid/wuhu-n0/wuhu-n0-card-3"));          // another data center
    EXPECT_TRUE(silenced("thermal/wuhu-n1/wuhu-n1-card-0"));       // everything on that node
    EXPECT_FALSE(engine.find("thermal/wuhu-n1/wuhu-n1-card-0")->silenced(6'000));  // until it ends
    EXPECT_EQ(engine.openCount("xiamen", 2000), 1);
    engine.setSharedSilences({});
    EXPECT_FALSE(silenced("xid/xiamen-n0/xiamen-n0-card-1"));
    EXPECT_EQ(alertKindFromName(alertKindName(AlertKind::PfcStorm)), AlertKind::PfcStorm);
    EXPECT_EQ(alertKindFromName("no such kind"), std::nullopt);
}

TEST(AlertEngine, AnAcknowledgementFromBeforeARecurrenceDoesNotHideIt)
{
    FleetState state;
    test::fillFleet(state, nodes("xiamen", 3), 1000);
    AlertEngine engine;
    Event down;
    down.kind = EventKind::LinkDown;
    down.netdev = "eth2";
    down.timeUnixMs = 1100;
    engine.evaluate(state.snapshot(1200), {{0, down}});
    const std::string key = "link/xiamen-n0/eth2";
    engine.applyAcknowledgement(key, "other-console", 1300);
    EXPECT_EQ(engine.find(key)->acknowledgedBy, "other-console");
    Event up = down;
    up.kind = EventKind::LinkUp;
    up.timeUnixMs = 1400;
    down.timeUnixMs = 1500;
    engine.evaluate(state.snapshot(1400), {{0, up}});
    engine.evaluate(state.snapshot(1500), {{0, down}});  // down again: a new occurrence
    EXPECT_TRUE(engine.find(key)->open(1600));
    engine.applyAcknowledgement(key, "other-console", 1300);  // read again from the file
    EXPECT_TRUE(engine.find(key)->open(1600));
    EXPECT_EQ(engine.find(key)->xid, std::nullopt);
}

TEST(AlertEngine, ServicesOverObjectiveAndPlansWaitingAreAlerts)
{
    AlertEngine engine;
    ServiceObservation chat{"chat-support", 7.5, 5.0, ""};
    engine.observeServices({chat}, 0);
    EXPECT_EQ(engine.find("slow/chat-support"), nullptr) << "one slow sample is not an alert";
    engine.observeServices({chat}, 30'000);
    EXPECT_EQ(engine.find("slow/chat-support"), nullptr);
    chat.planWaiting = "2 rented nodes, ¥96/h";
    engine.observeServices({chat}, 60'000);
    const Alert *slow = engine.find("slow/chat-support");
    ASSERT_NE(slow, nullptr);
    EXPECT_EQ(slow->severity, AlertSeverity::Critical);
    EXPECT_NE(slow->message.find("7.5 s"), std::string::npos) << slow->message;
    const Alert *plan = engine.find("plan/chat-support");
    ASSERT_NE(plan, nullptr);
    EXPECT_EQ(plan->kind, AlertKind::PlanAwaitingApproval);
    EXPECT_EQ(plan->message, "2 rented nodes, ¥96/h");
    chat.ttftP95Seconds = 2.0;
    chat.planWaiting.clear();
    engine.observeServices({chat}, 90'000);
    EXPECT_FALSE(engine.find("slow/chat-support")->active);
    EXPECT_FALSE(engine.find("plan/chat-support")->active);
}

// Where the replicas report their queueing delay, the objective is on it: a long prompt's
// late first token is the prompt, not a want of replicas, and pages no one.
TEST(AlertEngine, AServiceIsOverItsObjectiveByItsQueueingDelayWhereReported)
{
    AlertEngine engine;
    ServiceObservation chat{"chat-support", 9.0, 5.0, "", 0.8};
    engine.observeServices({chat}, 0);
    engine.observeServices({chat}, 90'000);
    EXPECT_EQ(engine.find("slow/chat-support"), nullptr)
        << "TTFT 9 s, but requests wait 0.8 s: inside the objective";
    chat.queueDelayP95Seconds = 6.5;
    engine.observeServices({chat}, 100'000);
    engine.observeServices({chat}, 160'000);
    const Alert *slow = engine.find("slow/chat-support");
    ASSERT_NE(slow, nullptr);
    EXPECT_TRUE(slow->active);
    EXPECT_EQ(slow->message,
              "queueing delay p95 6.5 s against an objective of 5.0 s (TTFT p95 9.0 s)");
}

TEST(AlertEngine, PaidButIdleAfterAnHourBelowFivePercent)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1", Vendor::Nvidia, 2, 2}}, 0);
    AlertEngine engine;
    TelemetrySample idle;
    for (uint32_t i = 0; i < 2; ++i) {
        CardSample s;
        s.index = i;
        s.utilizationPercent = i == 0 ? 2.0 : 60.0;
        idle.cards.push_back(s);
    }
    for (int minute = 0; minute <= 61; ++minute) {
        const int64_t t = minute * 60'000LL;
        state.recordTelemetry(0, idle, t);
        engine.evaluate(state.snapshot(t), {});
        if (minute == 59) {
            EXPECT_EQ(countKind(engine, AlertKind::PaidButIdle), 0);
        }
    }
    EXPECT_EQ(countKind(engine, AlertKind::PaidButIdle), 1);
    idle.cards[0].utilizationPercent = 40;
    state.recordTelemetry(0, idle, 62 * 60'000LL);
    engine.evaluate(state.snapshot(62 * 60'000LL), {});
    EXPECT_EQ(countKind(engine, AlertKind::PaidButIdle), 0);
}

TEST(AlertEngine, AgentsNotHeardFromYetAreNotAnIncidentWhileTheConsoleStarts)
{
    FleetState state;
    for (int i = 0; i < 5; ++i)
        state.addNode("127.0.0.1:" + std::to_string(50000 + i), "xiamen");  // connecting
    AlertEngine engine;
    engine.evaluate(state.snapshot(1'000), {});
    engine.evaluate(state.snapshot(10'000), {});
    EXPECT_TRUE(engine.alerts().empty());
    engine.evaluate(state.snapshot(17'000), {});  // past the grace: nobody ever answered
    EXPECT_EQ(countKind(engine, AlertKind::DataCenterDark), 1);
}

TEST(AlertEngine, AnAlertIsKeyedByTheAgentsOwnNameAndCardUuidNeverItsAddress)
{
    // The agent's events stream in before its inventory: the console knows only the
    // address it dialled (a port that changes with every restart of a test fleet).
    FleetState state;
    const NodeHandle n = state.addNode("127.0.0.1:42563", "xiamen");
    AlertEngine engine;
    Event ecc;
    ecc.kind = EventKind::EccUncorrected;
    ecc.cardIndex = 5;
    ecc.timeUnixMs = 1000;
    engine.evaluate(state.snapshot(1000), {{n, ecc}});
    for (const Alert &a : engine.alerts())
        EXPECT_EQ(a.key.find("127.0.0.1"), std::string::npos) << a.key;
    // Once the agent says who it is, the event waiting for it is an alert under its name
    // and the card's UUID.
    NodeInventory inventory;
    inventory.nodeId = "xm-r01-n2";
    for (uint32_t i = 0; i < 8; ++i) {
        CardInfo card;
        card.index = i;
        card.uuid = "GPU-" + std::to_string(1000 + i);
        card.vendor = Vendor::Nvidia;
        card.model = "A100-SXM4-80GB";
        inventory.cards.push_back(card);
    }
    state.setInventory(n, inventory, 1000);
    engine.evaluate(state.snapshot(1500), {});
    const Alert *a = engine.find("ecc/xm-r01-n2/GPU-1005");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->count, 1u);
    EXPECT_EQ(a->firstSeenMs, 1000);
    EXPECT_EQ(a->subject, "xm-r01-n2 card 5");
    // The same event again (an agent re-sending after a reconnect) is the same alert.
    engine.evaluate(state.snapshot(2000), {{n, ecc}});
    EXPECT_EQ(engine.alerts().size(), 1u);
    EXPECT_EQ(engine.find("ecc/xm-r01-n2/GPU-1005")->count, 2u);
}

TEST(AlertEngine, AnAgentNeverHeardFromIsNamedAsTheInventoryNamesIt)
{
    FleetState state;
    const NodeHandle named = state.addNode("10.1.0.11:50051", "xiamen", "xm-r01-n1");
    const NodeHandle unnamed = state.addNode("10.1.0.12:50051", "xiamen");
    state.setConnection(named, ConnectionState::Unreachable, "connection refused");
    state.setConnection(unnamed, ConnectionState::Unreachable, "connection refused");
    AlertRules rules;
    rules.darkDataCenterMinimumAgents = 3;  // two agents are not a data center going dark
    AlertEngine engine(rules);
    engine.evaluate(state.snapshot(1000), {});
    EXPECT_NE(engine.find("unreachable/xm-r01-n1"), nullptr);
    EXPECT_NE(engine.find("unreachable/10.1.0.12:50051"), nullptr) << "nothing else names it";
}

// Never cry wolf: with the routing file's defaults, a console or an agent that falls a
// few seconds behind pages nobody (a data center "dark" for 4 s, agents "silent" for 1 s
// are never alerts, never listed), a condition that holds alerts once it has held for its
// kind's pending duration (a dark data center within 60 s of going dark), and a fault a
// card reported (an Xid) alerts at once.
TEST(AlertEngine, ABlipShorterThanItsPendingDurationIsNeverAnAlert)
{
    FleetState state;
    test::fillFleet(state, nodes("xiamen", 4), 1000);
    test::fillFleet(state, nodes("wuhu", 20), 1000);
    AlertEngine engine;
    engine.setPendingDurations(defaultPendingMs());
    TelemetrySample sample;
    const auto hear = [&](const std::string &dc, int64_t atMs, int count = 1000) {
        const FleetLayout &l = *state.snapshot(atMs).layout;
        int heard = 0;
        for (NodeHandle n = 0; n < l.nodeCount() && heard < count; ++n) {
            if (l.nodeDataCenter[n] == dc) {
                state.recordTelemetry(n, sample, atMs);
                ++heard;
            }
        }
    };
    int64_t t = 2000;
    for (; t < 20'000; t += 1000) {
        hear("xiamen", t);
        hear("wuhu", t);
        engine.evaluate(state.snapshot(t), {});
    }
    // Xiamen's four are silent for 4 s (the console itself was behind), then heard again;
    // three of Wuhu's twenty for 1 s past their three intervals.
    for (const int64_t end = t + 5000; t < end; t += 1000) {
        hear("wuhu", t, 17);
        engine.evaluate(state.snapshot(t), {});
        EXPECT_TRUE(engine.alerts().empty()) << engine.alerts().front().key << " at " << t;
    }
    EXPECT_GT(engine.pendingCount(), 0) << "the blips were seen, as pending";
    int64_t lastWord = 0;
    for (const int64_t end = t + 60'000; t < end; t += 1000) {
        hear("xiamen", t);
        hear("wuhu", t);
        lastWord = t;
        engine.evaluate(state.snapshot(t), {});
        EXPECT_TRUE(engine.alerts().empty()) << engine.alerts().front().key << " at " << t;
    }
    EXPECT_EQ(engine.pendingCount(), 0);
    // Now Xiamen goes dark for real: listed 30 s after it was first seen dark.
    int64_t darkSeen = 0, alerted = 0;
    for (const int64_t end = t + 90'000; t < end && !alerted; t += 1000) {
        hear("wuhu", t);
        engine.evaluate(state.snapshot(t), {});
        if (!darkSeen && engine.pendingCount() > 0)
            darkSeen = t;
        if (engine.find("dark/xiamen"))
            alerted = t;
    }
    ASSERT_GT(alerted, 0) << "a dark data center never alerted";
    EXPECT_EQ(alerted - darkSeen, 30'000);
    EXPECT_LE(alerted - lastWord, 60'000) << "within a minute of its last word";
    // An Xid is a fact, not a blip: it alerts at once, pending durations or not.
    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 1;
    xid.xid = 79;
    xid.timeUnixMs = t;
    engine.evaluate(state.snapshot(t), {{4, xid}});
    EXPECT_EQ(countKind(engine, AlertKind::Xid), 1);
}
