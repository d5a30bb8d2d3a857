// meridian-watch reading a real meridian-scaled, no console open: a plan waiting for
// approval is paged, and so is the controller itself once it is killed (SIGKILL), within a
// minute; when it is back, that resolves.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include "scaledrig.h"
#include "watchfixture.h"

namespace meridian {

using Clock = std::chrono::steady_clock;

TEST(WatchScaled, APlanWaitingAndAKilledControllerArePagedWithNoConsoleOpen)
{
    test::Rig rig("assisted");
    rig.startScaled();
    test::CountingWebhook webhook;
    webhook.routesFile(rig.dir, "pending: {MeridianControllerSilent: 5}\n");
    test::Watcher watcher(rig.dir, rig.dir.file("inventory.yaml"), rig.dir.file("routes.yaml"),
                          rig.dir.file("watch.db"), "w",
                          {"--scaled", fmt::format("http://127.0.0.1:{}", rig.metricsPort)});
    rig.setLoad(8);
    EXPECT_TRUE(
        test::waitUntil([&] { return webhook.count("plan awaiting approval", "firing") == 1; },
                        std::chrono::seconds(60)))
        << watcher.log() << rig.logs();
    EXPECT_EQ(webhook.count("controller silent", "firing"), 0) << "it answers";

    rig.scaled->kill(SIGKILL);
    const auto killed = Clock::now();
    Clock::time_point paged;
    ASSERT_TRUE(
        test::waitUntil([&] { return webhook.count("controller silent", "firing", &paged) == 1; },
                        std::chrono::seconds(60)))
        << watcher.log();
    const double seconds = std::chrono::duration<double>(paged - killed).count();
    EXPECT_LE(seconds, 60.0);
    RecordProperty("controller_silent_seconds", std::to_string(seconds));

    rig.startScaled();
    EXPECT_TRUE(test::waitUntil([&] { return webhook.count("controller silent", "resolved") == 1; },
                                std::chrono::seconds(30)))
        << watcher.log();
}

}  // namespace meridian
