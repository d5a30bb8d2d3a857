// Heatmap repaint of the whole 6,000-card fleet (budget: <= 8 ms), offscreen, from a
// FleetState filled like a live fleet.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "fakefleet.h"
#include "widgets/fleetheatmap.h"

using namespace meridian;

static void BM_HeatmapRepaint6000(benchmark::State &state)
{
    FleetState fleet;
    std::vector<test::FakeNode> nodes;
    const char *dcs[] = {"xiamen", "wuhu", "zhongwei"};
    for (int i = 0; i < 750; ++i)
        nodes.push_back({dcs[i % 3], "n" + std::to_string(i), "r" + std::to_string(i / 4),
                         i % 5 == 0 ? Vendor::Huawei : Vendor::Nvidia, 8, static_cast<double>(i % 100)});
    test::fillFleet(fleet, nodes, 1000);
    FleetHeatmap heatmap;
    heatmap.resize(1880, 780);
    heatmap.setSnapshot(std::make_shared<const FleetSnapshot>(fleet.snapshot(1500)));
    heatmap.resize(1880, heatmap.geometry().size.height());
    QImage target(heatmap.size(), QImage::Format_RGB32);
    for (auto _ : state) {
        heatmap.render(&target);
        benchmark::DoNotOptimize(target.bits());
    }
    state.counters["cards"] = static_cast<double>(heatmap.geometry().cardRects.size());
    state.counters["cell_px"] = heatmap.geometry().cell;
}
BENCHMARK(BM_HeatmapRepaint6000)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
