// What one pass of the live autoscaler costs on the console, apart from its gRPC calls:
// reading every replica's signals out of FleetState at fleet size, the policy over ten
// minutes of 5-second history, and placement over the pool's offers. Beside them, the
// evaluation's paced schedule, planned once per oracle headroom tried.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "fleet/fleetstate.h"
#include "replay/pacedschedule.h"
#include "scaling/placement.h"
#include "scaling/scalingpolicy.h"

using namespace meridian;

namespace {

constexpr int64_t kNow = 1'800'000'000'000;

// 750 nodes, each with two replicas reporting, as the sim's agents send them.
FleetState &fleetWithReplicas()
{
    static FleetState *state = [] {
        auto *s = new FleetState;
        for (int n = 0; n < 750; ++n) {
            const NodeHandle node = s->addNode("127.0.0.1:" + std::to_string(20000 + n), "xiamen");
            NodeInventory inventory;
            inventory.nodeId = "node-" + std::to_string(n);
            for (uint32_t c = 0; c < 8; ++c) {
                CardInfo card;
                card.index = c;
                card.vendor = Vendor::Nvidia;
                card.model = "A100-SXM4-80GB";
                card.uuid = "GPU-" + std::to_string(n * 8 + c);
                inventory.cards.push_back(card);
            }
            s->setInventory(node, inventory, 1000);
            TelemetrySample sample;
            sample.sampleTimeUnixMs = kNow;
            for (int r = 0; r < 2; ++r) {
                ReplicaSignals signals;
                signals.replicaId = "chat-" + std::to_string(n) + "/r" + std::to_string(r + 1);
                signals.service = "chat";
                signals.requestsPerSecond = 2.5;
                signals.waitingRequests = 3;
                signals.runningRequests = 40;
                signals.ttftP95Seconds = 1.8;
                sample.replicas.push_back(signals);
            }
            s->recordTelemetry(node, sample, kNow);
        }
        return s;
    }();
    return *state;
}

void BM_ReplicaReadings1500(benchmark::State &state)
{
    FleetState &fleet = fleetWithReplicas();
    for (auto _ : state) {
        auto readings = fleet.replicaReadings(kNow + 500);
        benchmark::DoNotOptimize(readings.data());
    }
}
BENCHMARK(BM_ReplicaReadings1500)->Unit(benchmark::kMicrosecond);

void BM_PolicyTenMinutesOfHistory(benchmark::State &state)
{
    PolicyInput input;
    input.nowMs = kNow;
    for (int64_t t = kNow - 600'000; t <= kNow; t += 5000)
        input.history.push_back({t, 30.0 + static_cast<double>((t / 5000) % 7), 12, 60, 2.1});
    input.readyReplicas = 12;
    input.startingReplicas = 2;
    input.minReplicas = 4;
    input.maxReplicas = 48;
    input.replicaRps = 3.6;
    for (auto _ : state)
        benchmark::DoNotOptimize(decideReplicas(input).desiredReplicas);
}
BENCHMARK(BM_PolicyTenMinutesOfHistory)->Unit(benchmark::kMicrosecond);

void BM_PlacementThreeOffersTwoPools(benchmark::State &state)
{
    InferenceService service;
    service.name = "chat";
    service.cardsPerReplica = 4;
    service.runsOn = {
        {"A100-SXM4-80GB", 0.9, 16}, {"Ascend 910B", 0.7, 12}, {"H100-SXM5-80GB", 2.0, 24}};
    service.rent = {{"A100-SXM4-80GB", "Ascend 910B", "H100-SXM5-80GB"}, 64, 6.0, 150};
    PlacementRequest request;
    request.neededRps = 40;
    request.local = {{"A100-SXM4-80GB", 8}, {"Ascend 910B", 4}};
    request.offers = {{"cn-east-a100", "cn-east", "A100-SXM4-80GB", 8, 16, 2.6},
                      {"cn-north-h100", "cn-north", "H100-SXM5-80GB", 8, 8, 5.8},
                      {"cn-south-910b", "cn-south", "Ascend 910B", 8, 24, 1.5}};
    for (auto _ : state)
        benchmark::DoNotOptimize(planPlacement(service, request).placedRps);
}
BENCHMARK(BM_PlacementThreeOffersTwoPools)->Unit(benchmark::kMicrosecond);

// Days of a daily shape in 10-minute steps over 8 owned replicas, 20 changes a day.
void BM_PacedSchedule(benchmark::State &state)
{
    const auto days = static_cast<size_t>(state.range(0));
    std::vector<int> need(days * 1440);
    for (size_t m = 0; m < need.size(); ++m) {
        const double dayShare = static_cast<double>(m % 1440) / 1440;
        need[m] = 20 + static_cast<int>(12 * std::sin(6.283 * dayShare)) +
                  static_cast<int>((m / 10 * 7919) % 5);
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(pacedSchedule(need, 8, static_cast<int>(20 * days)).size());
}
BENCHMARK(BM_PacedSchedule)->Arg(1)->Arg(3)->Arg(14)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
