// The console's alert update as its UI thread pays for it, once a second: 500 open alerts
// against the ~470 silences a real Alertmanager lists after five days (silences_bench's
// pass), evaluated on the UI thread or on the engine's own thread. The CPU column is the
// calling (UI) thread's own CPU time, pass and model merge included; Time is wall-clock
// until the result is shown.
//   build/tests/bench/alertcenter_bench --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include <QCoreApplication>

#include "fakefleet.h"
#include "models/alerts/alertcenter.h"

using namespace meridian;

static void BM_AlertUpdateOnTheUiThread(benchmark::State &state)
{
    const bool offThread = state.range(0) != 0;
    const int alerts = 500;
    FleetState fleet;
    std::vector<test::FakeNode> nodes;
    for (int i = 0; i < alerts; ++i)
        nodes.push_back({"wuhu", "wh-" + std::to_string(i), "r1", Vendor::Nvidia, 8, 50});
    test::fillFleet(fleet, nodes, 1000);
    const FleetLayout &layout = *fleet.snapshot(1000).layout;
    for (NodeHandle n = 0; n < layout.nodeCount(); ++n) {
        Event e;
        e.kind = EventKind::Xid;
        e.cardIndex = 1;
        e.xid = 79;
        e.timeUnixMs = 1500;
        fleet.recordEvent(n, e);
    }
    AlertCenter center(fleet);
    if (offThread)
        center.evaluateOffThisThread();
    for (int i = 0; i < 470; ++i) {
        SilenceRule r;
        r.untilMs = 4'000'000'000'000;
        r.matchers = {
            LabelMatcher::make("node", "zz-" + std::to_string(i) + ".*", true, true).value(),
            LabelMatcher::make("source", "meridian", false, true).value()};
        center.silence(std::move(r));
    }
    center.update(fleet.snapshot(1600));
    center.waitForEvaluation();
    const auto snapshot = std::make_shared<const FleetSnapshot>(fleet.snapshot(2000));
    for (auto _ : state) {
        center.update(snapshot);
        center.waitForEvaluation();
    }
    state.counters["alerts"] = static_cast<double>(center.view().alerts.size());
}
// 0: on the UI thread (as before); 1: on the engine's own thread (the console now).
BENCHMARK(BM_AlertUpdateOnTheUiThread)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
