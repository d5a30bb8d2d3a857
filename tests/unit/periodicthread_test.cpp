// The periodic jobs run on the injected Clock: a round at once, then one each time the
// clock passes the interval, never by real time alone on a test's clock; wake() runs
// the next round now (an approval goes ahead without waiting for the controller's next
// pass); stop() waits for the round under way and none starts after it. The Scheduler's
// tasks likewise run when the clock passes them, in due order.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "core/periodicthread.h"
#include "core/scheduler.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

// Polls a condition another thread makes true; false after two seconds.
bool eventually(const std::function<bool()> &done)
{
    for (int i = 0; i < 400 && !done(); ++i)
        std::this_thread::sleep_for(5ms);
    return done();
}

}  // namespace

TEST(PeriodicThread, RoundsFollowTheClockAndAFarBehindOneIsNotCaughtUp)
{
    ManualClock clock;
    std::atomic<int> rounds{0};
    PeriodicThread loop(clock);
    loop.start(10ms, [&] { ++rounds; });
    ASSERT_TRUE(eventually([&] { return rounds == 1; }));
    // Ten intervals of real time: a loop on the real clock would have run ten rounds.
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(rounds, 1);
    clock.advanceMs(10);
    ASSERT_TRUE(eventually([&] { return rounds == 2; }));
    clock.advanceMs(10 * 60);  // a suspended machine wakes up: one round, not sixty
    ASSERT_TRUE(eventually([&] { return rounds == 3; }));
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(rounds, 3);
}

TEST(PeriodicThread, WakeRunsTheNextRoundNowAndStopEndsIt)
{
    ManualClock clock;
    std::atomic<int> rounds{0};
    PeriodicThread loop(clock);
    loop.start(1h, [&] { ++rounds; });
    ASSERT_TRUE(eventually([&] { return rounds == 1; }));
    loop.wake();
    ASSERT_TRUE(eventually([&] { return rounds == 2; }));
    loop.stop();
    loop.wake();
    clock.advanceMs(2 * 3'600'000);
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(rounds, 2);
}

TEST(Scheduler, TasksRunWhenTheClockPassesThemInDueOrder)
{
    ManualClock clock;
    Scheduler scheduler(clock);
    std::mutex mutex;
    std::vector<int> ran;
    const auto record = [&](int n) {
        return [&, n] {
            std::lock_guard lock(mutex);
            ran.push_back(n);
        };
    };
    const auto ranSoFar = [&] {
        std::lock_guard lock(mutex);
        return ran;
    };
    scheduler.after(100, record(2));
    scheduler.after(50, record(1));
    scheduler.after(0, record(0));
    ASSERT_TRUE(eventually([&] { return ranSoFar().size() == 1; }));
    clock.advanceMs(60);
    ASSERT_TRUE(eventually([&] { return ranSoFar().size() == 2; }));
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(ranSoFar(), (std::vector<int>{0, 1})) << "the task due at 100 ran at 60";
    clock.advanceMs(40);
    ASSERT_TRUE(eventually([&] { return ranSoFar().size() == 3; }));
    EXPECT_EQ(ranSoFar(), (std::vector<int>{0, 1, 2}));
}
