// Heatmap repaint of the whole 6,000-card fleet (budget: <= 8 ms), and of the screenful
// of a 100,000-card fleet a window shows (budget: <= 16 ms), offscreen, from a FleetState
// filled like a live fleet.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "fakefleet.h"
#include "widgets/fleet/fleetheatmap.h"
#include "widgets/fleet/heatmaplayout.h"

using namespace meridian;

static void BM_HeatmapRepaint(benchmark::State &state)
{
    FleetState fleet;
    std::vector<test::FakeNode> nodes;
    const char *dcs[] = {"xiamen", "wuhu", "zhongwei"};
    const int nodeCount = static_cast<int>(state.range(0)) / 8;
    for (int i = 0; i < nodeCount; ++i)
        nodes.push_back({dcs[i % 3], "n" + std::to_string(i), "r" + std::to_string(i / 4),
                         i % 5 == 0 ? Vendor::Huawei : Vendor::Nvidia, 8,
                         static_cast<double>(i % 100)});
    test::fillFleet(fleet, nodes, 1000);
    FleetHeatmap heatmap;
    heatmap.setMetric(static_cast<FleetMetric>(state.range(1)));
    heatmap.resize(1880, 780);
    heatmap.setSnapshot(std::make_shared<const FleetSnapshot>(fleet.snapshot(1500)));
    // The whole fleet when it fits a tall window; past that, the part a window shows (the
    // heatmap paints only the rectangle asked for).
    heatmap.resize(1880, std::min(heatmap.geometry().size.height(), 4000));
    QImage target(QSize(1880, std::min(heatmap.height(), 780 * 5)), QImage::Format_RGB32);
    const QRegion visible(0, 0, 1880, target.height());
    heatmap.render(&target, QPoint(), visible);  // the first render lays out: not a repaint
    for (auto _ : state) {
        heatmap.render(&target, QPoint(), visible);
        benchmark::DoNotOptimize(target.bits());
    }
    state.counters["cards"] = static_cast<double>(heatmap.geometry().cardRects.size());
    state.counters["cell_px"] = heatmap.geometry().cell;
}
// Second argument: the colouring (0 Health, the default; 1 utilisation).
BENCHMARK(BM_HeatmapRepaint)
    ->ArgsProduct({{6000, 100000},
                   {static_cast<int>(FleetMetric::Health),
                    static_cast<int>(FleetMetric::Utilization)}})
    ->Unit(benchmark::kMillisecond);

// A new layout (cards found, a node added): the UI thread fits the cell size and places
// every card once.
static void BM_HeatmapRelayout(benchmark::State &state)
{
    FleetState fleet;
    std::vector<test::FakeNode> nodes;
    const char *dcs[] = {"xiamen", "wuhu", "zhongwei"};
    for (int i = 0; i < static_cast<int>(state.range(0)) / 8; ++i)
        nodes.push_back({dcs[i % 3], "n" + std::to_string(i), "r" + std::to_string(i / 4),
                         Vendor::Nvidia, 8, static_cast<double>(i % 100)});
    test::fillFleet(fleet, nodes, 1000);
    const FleetSnapshot snapshot = fleet.snapshot(1500);
    for (auto _ : state) {
        const int cell = fittingCellSize(*snapshot.layout, QSize(1880, 780));
        benchmark::DoNotOptimize(layoutHeatmap(*snapshot.layout, 1880, cell));
    }
}
BENCHMARK(BM_HeatmapRelayout)->Arg(6000)->Arg(100000)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
