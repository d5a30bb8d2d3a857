// The fabric view at its worst case: one data center of 750 hosts × 8 NICs (6,000 host
// links, 190 leaves, 8 spines). Per frame (pan or zoom) only the paint runs; once a
// second the fabric is reassembled from the NICs and laid out again. Budget: ≥ 30 frames
// per second while the 1 Hz update runs, i.e. paint + (assemble + layout) / 30 ≤ 33 ms.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>

#include "fabric/fabricmodel.h"
#include "fleet/fleetstate.h"
#include "models/fabric/fabricscene.h"
#include "railnics.h"
#include "widgets/fabric/fabricview.h"

using namespace meridian;

namespace {

constexpr int64_t kNow = 1'800'000'000'000;
constexpr int kHosts = 750;
constexpr int kRails = 8;
constexpr int kHostsPerPod = 32;

struct Fleet {
    std::vector<HostNic> nics;
    FabricFile file;
    std::map<std::string, std::string> racks;
};

const Fleet &fleet()
{
    static const Fleet f = [] {
        Fleet out;
        FabricDataCenter dc;
        dc.name = "xiamen";
        for (int s = 1; s <= 8; ++s)
            dc.spines.push_back("xm-spine" + std::to_string(s));
        for (int pod = 0; pod * kHostsPerPod < kHosts; ++pod) {
            for (int rail = 0; rail < kRails; ++rail)
                dc.leaves.push_back(
                    {"xm-pod" + std::to_string(pod) + "-leaf" + std::to_string(rail),
                     pod,
                     rail,
                     std::vector<uint32_t>{3},
                     12'800,
                     {}});
        }
        out.file.dataCenters.push_back(dc);
        for (int h = 0; h < kHosts; ++h) {
            const std::string node = "xm-n" + std::to_string(h);
            out.racks[node] = "xm-r" + std::to_string(h / 4);
            for (uint32_t rail = 0; rail < kRails; ++rail) {
                // Each pod's leaves: host h of the pod on port h × 8 of its rail's leaf.
                HostNic n = test::railHostNic(h % kHostsPerPod, rail, kNow);
                n.nodeId = node;
                n.nic.neighbor->systemName =
                    "xm-pod" + std::to_string(h / kHostsPerPod) + "-leaf" + std::to_string(rail);
                NicSample s;
                s.counters.linkState = LinkState::Up;
                s.rxBytesPerSecond = 1e9 * ((h + rail) % 40);
                s.txBytesPerSecond = 1e9 * ((h * 7 + rail) % 45);
                s.rxPausePerSecond[3] = (h % 97 == 0) ? 20'000 : 20;
                s.ecnMarkedPerSecond = (h % 89 == 0) ? 30'000 : 200;
                n.sample = s;
                out.nics.push_back(std::move(n));
            }
        }
        return out;
    }();
    return f;
}

void BM_AssembleFabric6000Links(benchmark::State &state)
{
    const Fleet &f = fleet();
    for (auto _ : state)
        benchmark::DoNotOptimize(assembleFabric(f.nics, &f.file, kNow).links.size());
}
BENCHMARK(BM_AssembleFabric6000Links)->Unit(benchmark::kMillisecond);

// The 1 Hz update's first step: every NIC with its latest rates out of FleetState.
void BM_HostNicsFromFleetState(benchmark::State &state)
{
    FleetState fleetState;
    const Fleet &f = fleet();
    for (int h = 0; h < kHosts; ++h) {
        const NodeHandle node =
            fleetState.addNode("127.0.0.1:" + std::to_string(30000 + h), "xiamen");
        NodeInventory inventory;
        inventory.nodeId = "xm-n" + std::to_string(h);
        TelemetrySample sample;
        sample.sampleTimeUnixMs = kNow;
        for (int r = 0; r < kRails; ++r) {
            const HostNic &n = f.nics[static_cast<size_t>(h * kRails + r)];
            inventory.nics.push_back(n.nic);
            NicSample s = *n.sample;
            s.counters.netdev = n.nic.netdev;
            sample.nics.push_back(s);
        }
        fleetState.setInventory(node, inventory, 1000);
        fleetState.recordTelemetry(node, sample, kNow);
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(fleetState.hostNics(kNow + 500).size());
}
BENCHMARK(BM_HostNicsFromFleetState)->Unit(benchmark::kMillisecond);

void BM_LayoutScene(benchmark::State &state)
{
    const Fleet &f = fleet();
    const Fabric fabric = assembleFabric(f.nics, &f.file, kNow);
    const bool expanded = state.range(0) != 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            layoutFabricScene(fabric, f.racks, {"xiamen", {}, expanded}).lines.size());
}
BENCHMARK(BM_LayoutScene)->Arg(0)->Arg(1)->ArgNames({"expanded"})->Unit(benchmark::kMillisecond);

// One frame as the view draws it: the whole data center fitted (racks collapsed); racks
// open at the zoom where they open (the most host links on screen); zoomed in on a pod.
void BM_PaintFrame(benchmark::State &state)
{
    const Fleet &f = fleet();
    const Fabric fabric = assembleFabric(f.nics, &f.file, kNow);
    const int mode = static_cast<int>(state.range(0));
    FabricView view;
    view.resize(1600, 900);
    view.setScene(layoutFabricScene(fabric, f.racks, {"xiamen", {}, mode != 0}));
    view.fitAll();
    if (mode == 1)
        view.zoomBy(0.6 / view.zoom(), QPointF(800, 850));  // just open, at the host row
    if (mode == 2)
        view.zoomBy(12, QPointF(200, 800));
    QImage target(view.size(), QImage::Format_RGB32);
    for (auto _ : state) {
        view.render(&target);
        benchmark::DoNotOptimize(target.bits());
    }
    state.counters["lines"] = static_cast<double>(view.scene().lines.size());
    state.counters["zoom"] = view.zoom();
}
BENCHMARK(BM_PaintFrame)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->ArgNames({"fitted/opened/pod"})
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
