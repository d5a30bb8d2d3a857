// The one periodic loop: a round at once, then one per interval; wake() runs the next
// round now (an approval goes ahead without waiting for the controller's next pass);
// stop() waits for the round under way and none starts after it.
#include <gtest/gtest.h>

#include <atomic>

#include "core/periodicthread.h"

using namespace meridian;
using namespace std::chrono_literals;

TEST(PeriodicThread, WakeRunsTheNextRoundNowAndStopEndsIt)
{
    std::atomic<int> rounds{0};
    PeriodicThread loop;
    loop.start(1h, [&] { ++rounds; });
    for (int i = 0; i < 200 && rounds < 1; ++i)
        std::this_thread::sleep_for(5ms);
    EXPECT_EQ(rounds, 1);  // at once, and not again within the hour
    loop.wake();
    for (int i = 0; i < 200 && rounds < 2; ++i)
        std::this_thread::sleep_for(5ms);
    EXPECT_EQ(rounds, 2);
    loop.stop();
    loop.wake();
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(rounds, 2);
}
