// The periodic jobs run on the injected Clock: a round at once, then one each time the
// clock passes the interval, never by real time alone on a test's clock; wake() runs
// the next round now (an approval goes ahead without waiting for the controller's next
// pass); stop() waits for the round under way and none starts after it. The Scheduler's
// tasks likewise run when the clock passes them, in due order. "Nothing more ran" is
// asked of the clock itself (ManualClock::waitUntilIdle), not of a pause.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "core/periodicthread.h"
#include "core/scheduler.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

// Rounds counted, for a test to wait on a round that no clock move brings (a wake).
class RoundCount {
public:
    void add()
    {
        std::lock_guard lock(m_mutex);
        ++m_count;
        m_changed.notify_all();
    }
    bool reaches(int count)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, 10s, [&] { return m_count >= count; });
    }
    int operator()()
    {
        std::lock_guard lock(m_mutex);
        return m_count;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_count = 0;
};

}  // namespace

TEST(PeriodicThread, RoundsFollowTheClockAndAFarBehindOneIsNotCaughtUp)
{
    ManualClock clock;
    std::atomic<int> rounds{0};
    PeriodicThread loop(clock);
    loop.start(10ms, [&] { ++rounds; });
    // Its first round is done and it waits for the clock: on the real clock it would
    // have gone on by itself.
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(rounds, 1);
    clock.advanceMs(10);
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(rounds, 2);
    clock.advanceMs(10 * 60);  // a suspended machine wakes up: one round, not sixty
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(rounds, 3);
    clock.advanceMs(9);  // short of the next round
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(rounds, 3);
}

TEST(PeriodicThread, WakeRunsTheNextRoundNowAndStopEndsIt)
{
    ManualClock clock;
    RoundCount rounds;
    PeriodicThread loop(clock);
    loop.start(1h, [&] { rounds.add(); });
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(rounds(), 1);
    loop.wake();
    ASSERT_TRUE(rounds.reaches(2));
    ASSERT_TRUE(clock.waitUntilIdle(1));  // back to waiting, an hour ahead
    EXPECT_EQ(rounds(), 2);
    loop.stop();  // joins its thread: nothing of it can run after this
    loop.wake();
    clock.advanceMs(2 * 3'600'000);
    EXPECT_EQ(rounds(), 2);
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
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(ranSoFar(), (std::vector<int>{0}));
    clock.advanceMs(60);
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(ranSoFar(), (std::vector<int>{0, 1})) << "the task due at 100 ran at 60";
    clock.advanceMs(40);
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(ranSoFar(), (std::vector<int>{0, 1, 2}));
}
