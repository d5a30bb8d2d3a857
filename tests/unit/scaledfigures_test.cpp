// meridian-scaled's /metrics as the watcher reads them, and the controller's silence as the
// engine judges it.
#include <gtest/gtest.h>

#include <cmath>

#include "alerts/alertengine.h"
#include "alerts/scaledfigures.h"

using namespace meridian;

TEST(ScaledFigures, EachServicesLatencyObjectiveAndWaitingPlanAreRead)
{
    const auto figures = parseScaledMetrics(
        "# HELP meridian_scaled_last_pass_timestamp_seconds When the last pass ran.\n"
        "meridian_scaled_last_pass_timestamp_seconds 1800000000.250\n"
        "meridian_scaled_ttft_p95_seconds{service=\"chat\"} 7.5\n"
        "meridian_scaled_queue_delay_p95_seconds{service=\"chat\"} NaN\n"
        "meridian_scaled_objective_p95_seconds{service=\"chat\"} 5\n"
        "meridian_scaled_plan_steps_pending{service=\"chat\"} 2\n"
        "meridian_scaled_plan_steps_pending{service=\"search\"} 0\n"
        "meridian_scaled_condition{service=\"chat\",condition=\"at max\"} 1\n");
    ASSERT_TRUE(figures) << figures.error().message;
    EXPECT_EQ(figures->lastPassMs, 1'800'000'000'250);
    ASSERT_EQ(figures->services.size(), 2u);
    const ServiceObservation &chat = figures->services[0];
    EXPECT_EQ(chat.service, "chat");
    EXPECT_EQ(chat.ttftP95Seconds, 7.5);
    EXPECT_FALSE(chat.queueDelayP95Seconds) << "NaN is no reading";
    EXPECT_EQ(chat.objectiveSeconds, 5);
    EXPECT_NE(chat.planWaiting.find("2 step(s)"), std::string::npos);
    EXPECT_TRUE(figures->services[1].planWaiting.empty());

    const auto garbage = parseScaledMetrics(
        "meridian_scaled_ttft_p95_seconds{service=\"x\"} 1\n"
        "<html>not metrics</html>\n");
    ASSERT_FALSE(garbage);
    EXPECT_NE(garbage.error().message.find("line 2"), std::string::npos);
}

TEST(ScaledFigures, ASilentOrStoppedControllerIsAnAlertAndItsReturnResolvesIt)
{
    AlertEngine engine;
    ControllerObservation down;
    down.problem = "connection refused";
    engine.observeController(down, 10'000);
    ASSERT_EQ(engine.alerts().size(), 1u);
    EXPECT_EQ(engine.alerts()[0].kind, AlertKind::ControllerSilent);
    EXPECT_EQ(engine.alerts()[0].message, "connection refused");

    ControllerObservation stuck;
    stuck.answered = true;
    stuck.lastPassMs = 10'000;
    engine.observeController(stuck, 20'000);
    EXPECT_FALSE(engine.alerts()[0].active) << "answering and passing: over";
    engine.observeController(stuck, 90'000);
    EXPECT_TRUE(engine.alerts()[0].active) << "answering, but no pass for 80 s";
    EXPECT_NE(engine.alerts()[0].message.find("no pass for 80 s"), std::string::npos);
}
