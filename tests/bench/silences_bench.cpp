// One pass of the alert engine's silences, as it runs once a second on the console's UI
// thread (budget: UI stalls <= 30 ms p99): every alert against every silence an
// Alertmanager holds, each applied with its matchers to the alert's labels.
//   build/tests/bench/silences_bench
#include <benchmark/benchmark.h>

#include "alerts/alertengine.h"
#include "fakefleet.h"

using namespace meridian;

static void BM_ApplySilences(benchmark::State &state)
{
    const int alerts = static_cast<int>(state.range(0));
    const int silences = static_cast<int>(state.range(1));
    FleetState fleet;
    std::vector<test::FakeNode> nodes;
    for (int i = 0; i < alerts; ++i)
        nodes.push_back({"wuhu", "wh-" + std::to_string(i), "r1", Vendor::Nvidia, 8, 50});
    test::fillFleet(fleet, nodes, 1000);
    std::vector<FleetEvent> xids;
    for (NodeHandle n = 0; n < static_cast<NodeHandle>(alerts); ++n) {
        Event e;
        e.kind = EventKind::Xid;
        e.cardIndex = 1;
        e.xid = 79;
        e.timeUnixMs = 1500;
        xids.push_back({n, e});
    }
    AlertEngine engine;
    engine.evaluate(fleet.snapshot(1600), xids);
    std::vector<SilenceRule> rules;
    for (int i = 0; i < silences; ++i) {
        SilenceRule r;
        r.untilMs = 4'000'000'000'000;
        r.matchers = {
            LabelMatcher::make("node", "zz-" + std::to_string(i) + ".*", true, true).value(),
            LabelMatcher::make("source", "meridian", false, true).value()};
        rules.push_back(std::move(r));
    }
    for (auto _ : state)
        engine.setSharedSilences(rules);  // applies them to every alert
    state.counters["alerts"] = static_cast<double>(engine.alerts().size());
}
// 500 open alerts against the ~470 silences a real Alertmanager lists after five days.
BENCHMARK(BM_ApplySilences)->Args({500, 470})->Args({50, 470})->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
