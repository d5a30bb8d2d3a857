// The alert engine on its own thread: what is asked runs there in order, the view changes
// only on the owner's thread, and snapshots that pile up while it is busy become one pass
// without losing an event, yet never jump ahead of a change asked between them.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QSignalSpy>
#include <QThread>
#include <future>

#include "fakefleet.h"
#include "models/alerts/alertevaluator.h"

using namespace meridian;

namespace {

std::vector<FleetEvent> xidOnCard(int card, int64_t atMs)
{
    FleetEvent e;
    e.node = 0;
    e.event.kind = EventKind::Xid;
    e.event.cardIndex = card;
    e.event.timeUnixMs = atMs;
    e.event.xid = 79;
    e.event.message = "Xid 79";
    return {e};
}

// Holds the evaluator's thread until released, so what is asked meanwhile queues up.
struct Latch {
    std::promise<void> open;
    std::shared_future<void> opened = open.get_future().share();
    void holdIn(AlertEvaluator &evaluator)
    {
        evaluator.change([wait = opened](AlertEngine &) { wait.wait(); });
    }
};

}  // namespace

TEST(AlertEvaluator, RunsWhatIsAskedOnItsOwnThreadAndShowsItOnTheOwnersThread)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}}, 10'000);
    AlertEvaluator evaluator;
    evaluator.runOnItsOwnThread();
    QSignalSpy published(&evaluator, &AlertEvaluator::published);
    QThread *ranOn = nullptr;
    evaluator.change([&ranOn](AlertEngine &) { ranOn = QThread::currentThread(); });
    evaluator.evaluate(std::make_shared<const FleetSnapshot>(state.snapshot(10'100)),
                       xidOnCard(3, 10'050));
    evaluator.change(
        [](AlertEngine &engine) { engine.acknowledge("xid/xm-1/xm-1-card-3", "li", 10'200); });
    // Nothing is shown before the owner's loop takes it, however fast the engine was.
    EXPECT_EQ(evaluator.view().sequence, 0u);
    EXPECT_EQ(published.count(), 0);
    evaluator.waitForDone();
    EXPECT_NE(ranOn, nullptr);
    EXPECT_NE(ranOn, QThread::currentThread());
    EXPECT_EQ(evaluator.view().sequence, 3u);
    const Alert *xid = evaluator.view().find("xid/xm-1/xm-1-card-3");
    ASSERT_NE(xid, nullptr);
    EXPECT_EQ(xid->acknowledgedBy, "li") << "the acknowledgement ran after the pass that raised it";
    EXPECT_EQ(published.count(), 1) << "the views queued behind the newest say nothing new";
    QCoreApplication::processEvents();
    EXPECT_EQ(published.count(), 1);
}

TEST(AlertEvaluator, SnapshotsThatPileUpBecomeOnePassAndKeepEveryEvent)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1", Vendor::Nvidia, 24}}, 10'000);
    AlertEvaluator evaluator;
    evaluator.runOnItsOwnThread();
    Latch busy;
    busy.holdIn(evaluator);
    for (int card = 0; card < 20; ++card) {
        const int64_t at = 10'100 + card * 100;
        evaluator.evaluate(std::make_shared<const FleetSnapshot>(state.snapshot(at)),
                           xidOnCard(card, at - 10));
    }
    busy.open.set_value();
    evaluator.waitForDone();
    EXPECT_EQ(evaluator.view().sequence, 2u) << "the hold, then one pass for 20 snapshots";
    for (int card = 0; card < 20; ++card)
        EXPECT_NE(evaluator.view().find("xid/xm-1/xm-1-card-" + std::to_string(card)), nullptr)
            << "card " << card << "'s Xid was lost when its snapshot joined the pass";
}

// A snapshot taken after the judge fell behind must be judged as behind: it may not join
// a pass asked before the hold.
TEST(AlertEvaluator, AChangeAskedBetweenSnapshotsKeepsTheirPassesApart)
{
    std::vector<test::FakeNode> nodes;
    for (int i = 0; i < 4; ++i)
        nodes.push_back({"xiamen", "xm-" + std::to_string(i), "r1"});
    const auto run = [&](bool holdBetween) {
        FleetState state;
        test::fillFleet(state, nodes, 10'000);
        AlertEvaluator evaluator;
        evaluator.runOnItsOwnThread();
        Latch busy;
        busy.holdIn(evaluator);
        evaluator.evaluate(std::make_shared<const FleetSnapshot>(state.snapshot(10'100)), {});
        if (holdBetween)
            evaluator.change([](AlertEngine &engine) { engine.setHoldingStaleness(true); });
        // Nothing heard from Xiamen for three minutes.
        evaluator.evaluate(std::make_shared<const FleetSnapshot>(state.snapshot(190'000)), {});
        busy.open.set_value();
        evaluator.waitForDone();
        return evaluator.view();
    };
    const AlertsView judged = run(false);
    EXPECT_NE(judged.find("dark/xiamen"), nullptr) << "the silence this test holds back";
    const AlertsView held = run(true);
    EXPECT_EQ(held.sequence, 4u);
    EXPECT_EQ(held.find("dark/xiamen"), nullptr);
    EXPECT_TRUE(held.holdingStaleness);
}
