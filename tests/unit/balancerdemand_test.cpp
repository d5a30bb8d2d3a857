// What waits at a service's load balancer, and the rate at its door, reach the policy's
// signals: a service whose replicas are all at their maxconn looks full, not merely busy.
#include <gtest/gtest.h>

#include "scaling/balancerdemand.h"

using namespace meridian;

TEST(BalancerDemand, TheQueueAtTheBalancerWaitsTooAndItsDoorSetsTheArrivalRate)
{
    ServiceSignals signals;
    signals.arrivalRps = 8;  // what the replicas were let admit
    signals.waitingRequests = 12;
    addBalancerLoad(signals, {10'000, 40, 1'160}, BalancerReading{5'000, 30, 1'075});
    EXPECT_DOUBLE_EQ(signals.waitingRequests, 52);
    EXPECT_DOUBLE_EQ(signals.arrivalRps, 17);  // 85 requests came in in 5 s
}

TEST(BalancerDemand, ABacklogDrainingIntoNewReplicasIsNotCountedAgainAsArrivals)
{
    // New replicas took 20 requests/s from the queue while 10 a second came in.
    ServiceSignals signals;
    signals.arrivalRps = 20;
    signals.waitingRequests = 4;
    addBalancerLoad(signals, {10'000, 30, 1'050}, BalancerReading{5'000, 80, 1'000});
    EXPECT_DOUBLE_EQ(signals.arrivalRps, 10);
    EXPECT_DOUBLE_EQ(signals.waitingRequests, 34);
}

TEST(BalancerDemand, WithoutTwoReadingsOnlyTheQueueIsAdded)
{
    // The first pass, a restarted HAProxy (its count back to zero), a clock that stood
    // still: only the queue is added.
    ServiceSignals first;
    addBalancerLoad(first, {10'000, 3, 500}, std::nullopt);
    EXPECT_DOUBLE_EQ(first.arrivalRps, 0);
    EXPECT_DOUBLE_EQ(first.waitingRequests, 3);
    ServiceSignals restarted;
    addBalancerLoad(restarted, {10'000, 0, 10}, BalancerReading{5'000, 0, 90'000});
    EXPECT_DOUBLE_EQ(restarted.arrivalRps, 0);
    ServiceSignals still;
    addBalancerLoad(still, {5'000, 0, 100}, BalancerReading{5'000, 0, 50});
    EXPECT_DOUBLE_EQ(still.arrivalRps, 0);
}

TEST(BalancerDemand, AReadingWithoutACountAddsOnlyItsQueue)
{
    ServiceSignals signals;
    signals.arrivalRps = 9;
    addBalancerLoad(signals, {10'000, 6, std::nullopt}, BalancerReading{5'000, 0, 1'000});
    EXPECT_DOUBLE_EQ(signals.arrivalRps, 9);
    EXPECT_DOUBLE_EQ(signals.waitingRequests, 6);
    addBalancerLoad(signals, {15'000, 0, 2'000}, BalancerReading{10'000, 6, std::nullopt});
    EXPECT_DOUBLE_EQ(signals.arrivalRps, 9) << "no rate from a pass that had no count";
}
