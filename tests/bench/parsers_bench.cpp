// How long each vendor-tool parser takes on its real capture (the agent runs them
// once a second on the smi collector).
#include <benchmark/benchmark.h>

#include "telemetry/cardparsers.h"
#include "telemetry/nicparsers.h"
#include "testsupport.h"

using namespace meridian;

static void BM_NvidiaSmiCsvCapture(benchmark::State &state)
{
    const std::string text =
        test::readFile(test::realData("telemetry/nvidia-smi-capture-h100-80gb-hbm3-drv590.txt"));
    for (auto _ : state)
        benchmark::DoNotOptimize(parseNvidiaSmiCsv(text));
}
BENCHMARK(BM_NvidiaSmiCsvCapture);

static void BM_NpuSmi(benchmark::State &state)
{
    const std::string text =
        test::readFile(test::realData("telemetry/npu-smi-info-910b2-8card.txt"));
    for (auto _ : state)
        benchmark::DoNotOptimize(parseNpuSmi(text));
}
BENCHMARK(BM_NpuSmi);

static void BM_Ethtool(benchmark::State &state)
{
    const std::string text =
        test::readFile(test::realData("fabric/ethtool-S_mlx5_connectx4_isc-ethq.txt"));
    for (auto _ : state)
        benchmark::DoNotOptimize(parseEthtoolStats(text));
}
BENCHMARK(BM_Ethtool);

BENCHMARK_MAIN();
