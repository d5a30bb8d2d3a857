// meridian-scaled's /metrics counters are built pass by pass: rented card-hours grow by
// what was rented over the time since the last pass, passes inside the objective are
// counted, a view seen twice counts once, and a condition's text is a label Prometheus
// can read, and the objective is held to the queueing delay where replicas report it.
#include <gtest/gtest.h>

#include "autoscaler/scalingmetrics.h"

using namespace meridian;

namespace {

ScalingView viewAt(int64_t atMs, int rentedCards, double ttftP95,
                   std::optional<double> queueDelayP95 = std::nullopt)
{
    ScalingView view;
    view.atMs = atMs;
    ServiceScalingView chat;
    chat.service.name = "chat";
    chat.service.objectiveP95Seconds = 5;
    chat.rentedCards = rentedCards;
    ServicePoint point;
    point.ttftP95Seconds = ttftP95;
    point.queueDelayP95Seconds = queueDelayP95;
    chat.history.push_back(point);
    chat.notes.push_back(R"(no "allowed" offer\ here)");
    view.services.push_back(chat);
    return view;
}

}  // namespace

TEST(ScalingMetrics, CountersGrowPassByPassAndConditionsAreLabels)
{
    ScalingMetrics metrics;
    const int64_t t0 = 1'800'000'000'000;
    metrics.record(viewAt(t0, 8, 3.0));
    metrics.record(viewAt(t0 + 30 * 60'000, 8, 7.0));  // half an hour at 8 cards
    metrics.record(viewAt(t0 + 30 * 60'000, 8, 7.0));  // the same pass again
    metrics.record(viewAt(t0 + 90 * 60'000, 0, 2.0));  // an hour more at 8, then none
    const std::string text = metrics.exposition();
    // 8 cards for 90 minutes: 12 card-hours.
    EXPECT_NE(text.find("meridian_scaled_rented_card_seconds_total{service=\"chat\"} 43200\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("meridian_scaled_passes_total{service=\"chat\"} 3"), std::string::npos);
    EXPECT_NE(text.find("meridian_scaled_passes_within_objective_total{service=\"chat\"} 2"),
              std::string::npos);
    EXPECT_NE(text.find(R"(condition="no \"allowed\" offer\\ here"} 1)"), std::string::npos)
        << text;
}

// A long prompt's first token comes late however many replicas there are: where the
// replicas report their queueing delay, that is what the objective is held to.
TEST(ScalingMetrics, TheObjectiveIsHeldToTheQueueingDelayWhereItIsReported)
{
    ScalingMetrics metrics;
    const int64_t t0 = 1'800'000'000'000;
    metrics.record(viewAt(t0, 0, 7.0, 0.4));           // a long prompt, no wait: inside
    metrics.record(viewAt(t0 + 15'000, 0, 9.0, 6.0));  // waited 6 s: outside
    metrics.record(viewAt(t0 + 30'000, 0, 4.0));       // no delay reported: its TTFT, inside
    const std::string text = metrics.exposition();
    EXPECT_NE(text.find("meridian_scaled_passes_total{service=\"chat\"} 3"), std::string::npos)
        << text;
    EXPECT_NE(text.find("meridian_scaled_passes_within_objective_total{service=\"chat\"} 2"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("meridian_scaled_queue_delay_p95_seconds{service=\"chat\"} NaN"),
              std::string::npos)
        << "the newest pass reported no delay: " << text;
    EXPECT_NE(text.find("meridian_scaled_ttft_p95_seconds{service=\"chat\"} 4"), std::string::npos)
        << text;
    ScalingMetrics reported;
    reported.record(viewAt(t0, 0, 9.0, 6.0));
    EXPECT_NE(
        reported.exposition().find("meridian_scaled_queue_delay_p95_seconds{service=\"chat\"} 6"),
        std::string::npos);
}
