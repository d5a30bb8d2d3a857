// A judge that is itself behind holds agents' staleness: its loop running late, or no
// batch received from connected agents, for a while after; and never longer than a truly
// silent fleet deserves.
#include <gtest/gtest.h>

#include "alerts/alertengine.h"
#include "alerts/alertrouting.h"
#include "alerts/selflag.h"
#include "fakefleet.h"

using namespace meridian;

TEST(SelfLag, ALateTickHoldsForAWhileThenLetsGo)
{
    SelfLag lag;
    int64_t t = 1'000'000;
    for (int i = 0; i < 5; ++i, t += 1000) {
        lag.tick(t);
        lag.received(i, 1000, t);
        EXPECT_FALSE(lag.behind(t));
    }
    // The loop stalled for 3 s (a busy machine): the tick comes 3 s late.
    t += 3000;
    const int64_t lateTick = t;
    lag.tick(t);
    lag.received(10, 1000, t);
    EXPECT_TRUE(lag.behind(t));
    EXPECT_EQ(lag.loopLateMs(t), 3000);
    EXPECT_EQ(lag.holds(), 1u);
    // Back on time: still held for heldAfterMs, then judged again.
    int64_t released = 0;
    for (int i = 0; i < 20 && !released; ++i) {
        t += 1000;
        lag.tick(t);
        lag.received(11 + i, 1000, t);
        if (!lag.behind(t))
            released = t;
    }
    ASSERT_GT(released, 0);
    EXPECT_EQ(released - lateTick, lag.limits().heldAfterMs);
    EXPECT_EQ(lag.loopLateMs(released + 20'000), 0);
    EXPECT_EQ(lag.holds(), 1u);
}

TEST(SelfLag, NothingReceivedFromConnectedAgentsHoldsButNotForever)
{
    SelfLag lag;
    int64_t t = 1'000'000;
    lag.tick(t);
    lag.received(1, 1000, t);
    // Ticks on time, connected agents, and no batch at all: our streams are not read.
    int64_t heldFrom = 0, heldUntil = 0;
    for (int i = 0; i < 60; ++i) {
        t += 1000;
        lag.tick(t);
        lag.received(1, 1000, t);
        if (lag.behind(t) && !heldFrom)
            heldFrom = t;
        if (heldFrom && !heldUntil && !lag.behind(t))
            heldUntil = t;
    }
    EXPECT_EQ(heldFrom - 1'000'000, 6000) << "held once the gap passed 5 s";
    EXPECT_GT(heldUntil, heldFrom) << "a fleet silent for a minute is judged, not held";
    EXPECT_LE(heldUntil - heldFrom, lag.limits().longestReceiveHoldMs + 1000);
    // A store scraped every 15 s is not late at 20 s.
    SelfLag store;
    t = 1'000'000;
    store.tick(t);
    store.received(1, 15'000, t);
    for (int i = 0; i < 20; ++i) {
        t += 1000;
        store.tick(t);
        store.received(1, 15'000, t);
    }
    EXPECT_FALSE(store.behind(t));
    // Nothing connected is nothing awaited.
    SelfLag none;
    none.tick(t);
    none.received(0, 0, t);
    none.tick(t + 60'000 - 59'000);
    none.received(0, 0, t + 60'000);
    EXPECT_EQ(none.receiveGapMs(t + 60'000), 0);
}

// The engine under hold: a data center that went silent while the judge was behind is
// not an alert, its pending judgment is dropped, and once caught up it must hold for its
// whole pending duration again; an alert already firing is neither resolved nor re-raised.
TEST(SelfLag, AnEngineHoldingStalenessNeitherRaisesNorClearsAgentAlerts)
{
    FleetState state;
    std::vector<test::FakeNode> xiamen, wuhu;
    for (int i = 0; i < 4; ++i)
        xiamen.push_back({"xiamen", "xm-n" + std::to_string(i), "r1", Vendor::Nvidia, 8, 50});
    for (int i = 0; i < 4; ++i)
        wuhu.push_back({"wuhu", "wh-n" + std::to_string(i), "r1", Vendor::Nvidia, 8, 50});
    test::fillFleet(state, xiamen, 1000);
    test::fillFleet(state, wuhu, 1000);
    AlertEngine engine;
    engine.setPendingDurations(defaultPendingMs());
    TelemetrySample sample;
    const auto hear = [&](const std::string &prefix, int64_t atMs) {
        const FleetLayout &l = *state.snapshot(atMs).layout;
        for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
            if (l.nodeId[n].rfind(prefix, 0) == 0)
                state.recordTelemetry(n, sample, atMs);
        }
    };
    int64_t t = 2000;
    for (; t < 20'000; t += 1000) {
        hear("xm", t);
        hear("wh", t);
        engine.evaluate(state.snapshot(t), {});
    }
    // Xiamen goes silent; the judge is behind from the moment it is first seen.
    engine.setHoldingStaleness(true);
    for (const int64_t end = t + 40'000; t < end; t += 1000) {
        hear("wh", t);
        engine.evaluate(state.snapshot(t), {});
        EXPECT_EQ(engine.find("dark/xiamen"), nullptr) << "judged while behind, at " << t;
        EXPECT_EQ(engine.pendingCount(), 0);
    }
    engine.setHoldingStaleness(false);
    const int64_t caughtUp = t;
    int64_t alerted = 0;
    for (const int64_t end = t + 60'000; t < end && !alerted; t += 1000) {
        hear("wh", t);
        engine.evaluate(state.snapshot(t), {});
        if (const Alert *dark = engine.find("dark/xiamen"); dark && dark->firing)
            alerted = t;
    }
    ASSERT_GT(alerted, 0);
    EXPECT_EQ(alerted - caughtUp, defaultPendingMs().at(AlertKind::DataCenterDark))
        << "the whole pending duration, counted from catching up";
    // Behind again while it fires: it stays firing, and is not resolved by the hold.
    engine.setHoldingStaleness(true);
    for (const int64_t end = t + 5000; t < end; t += 1000) {
        hear("xm", t);
        hear("wh", t);
        engine.evaluate(state.snapshot(t), {});
        const Alert *dark = engine.find("dark/xiamen");
        ASSERT_NE(dark, nullptr);
        EXPECT_TRUE(dark->active && dark->firing);
    }
    engine.setHoldingStaleness(false);
    hear("xm", t);
    hear("wh", t);
    engine.evaluate(state.snapshot(t), {});
    EXPECT_FALSE(engine.find("dark/xiamen")->active) << "judged again: Xiamen is back";
}
