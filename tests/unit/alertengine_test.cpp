// Alert rules, deduplication and lifecycle on hand-made fleets, in virtual time.
#include <gtest/gtest.h>

#include "alerts/alertengine.h"
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
    const Alert *a = engine.find("xid/xiamen-n0/card2");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->count, 2u);
    EXPECT_EQ(a->firstSeenMs, 1100);
    EXPECT_EQ(a->lastSeenMs, 1300);
    EXPECT_EQ(a->subject, "xiamen-n0 card 2");
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
    const std::string thermal = "thermal/xiamen-n1/card1";
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
    EXPECT_EQ(countKind(engine, AlertKind::AgentStale), 1);
    EXPECT_NE(engine.find("dark/xiamen"), nullptr);  // resolved incident kept for the record
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
