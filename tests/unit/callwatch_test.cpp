// A watched call is aborted once its time is up, and again every 100 ms until it returns
// (an abort may land before a request has begun); abortAll() ends calls under way and
// any that start after it; an unwatched call is never aborted. On a ManualClock.
#include <gtest/gtest.h>

#include <atomic>

#include "core/callwatch.h"

using namespace meridian;

TEST(CallWatch, ACallIsAbortedAtItsDeadlineAndAgainUntilItReturns)
{
    ManualClock clock;
    CallWatch watch(clock);
    std::atomic<int> aborts{0};
    {
        const CallWatch::Watched call = watch.watch(1000, [&] { ++aborts; });
        clock.advanceMs(999);
        ASSERT_TRUE(clock.waitUntilIdle(1));
        EXPECT_EQ(aborts, 0);
        EXPECT_FALSE(call.aborted());
        clock.advanceMs(1);
        ASSERT_TRUE(clock.waitUntilIdle(1));
        EXPECT_EQ(aborts, 1);
        EXPECT_TRUE(call.aborted());
        clock.advanceMs(100);
        ASSERT_TRUE(clock.waitUntilIdle(1));
        EXPECT_EQ(aborts, 2) << "a call still running is aborted again";
    }
    clock.advanceMs(10'000);
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(aborts, 2) << "a call that returned is left alone";
}

TEST(CallWatch, AbortAllEndsCallsUnderWayAndThoseThatStartAfter)
{
    ManualClock clock;
    CallWatch watch(clock);
    std::atomic<int> first{0};
    std::atomic<int> later{0};
    const CallWatch::Watched running = watch.watch(60'000, [&] { ++first; });
    watch.abortAll();
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(first, 1);
    const CallWatch::Watched starting = watch.watch(60'000, [&] { ++later; });
    ASSERT_TRUE(clock.waitUntilIdle(1));
    EXPECT_EQ(later, 1) << "a call started while exiting must not wait out its time";
    EXPECT_TRUE(starting.aborted());
}
