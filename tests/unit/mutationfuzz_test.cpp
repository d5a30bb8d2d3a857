// Seeded random mutation of real inputs, for every parser and config reader: bits
// flipped, bytes dropped and doubled, chunks cut and repeated, hostile tokens spliced
// in. Each mutant must come back as a value or as an error with a message, never a
// crash, a hang or an exception. Seeds are the real captures (tests/data/real) and
// the shipped files; the seed of the generator is fixed, so a failure is repeatable.
// Under the asan preset this also finds memory errors the mutants provoke.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>

#include "agent/agentconfig.h"
#include "core/inferenceservice.h"
#include "cost/pricebook.h"
#include "fabric/fabricfile.h"
#include "fleetlink/inventoryfile.h"
#include "replay/requesttrace.h"
#include "scaling/scalingpolicy.h"
#include "sim/faultplan.h"
#include "telemetry/cardparsers.h"
#include "telemetry/fabricparsers.h"
#include "telemetry/nicparsers.h"
#include "telemetry/topoparser.h"
#include "testsupport.h"

using namespace meridian;

namespace {

// Bounded per target, so CI spends a few seconds on each, not minutes. To explore
// further by hand: MERIDIAN_FUZZ_SEED=N MERIDIAN_FUZZ_MS=60000 build/tests/fuzz_test
int64_t fromEnvironment(const char *name, int64_t fallback)
{
    const char *value = std::getenv(name);
    return value ? std::strtoll(value, nullptr, 10) : fallback;
}
const auto kBudget = std::chrono::milliseconds(fromEnvironment("MERIDIAN_FUZZ_MS", 1000));
const int kMaxMutants =
    static_cast<int>(fromEnvironment("MERIDIAN_FUZZ_MS", 0) > 0 ? 1 << 30 : 2000);
const uint64_t kSeed = static_cast<uint64_t>(fromEnvironment("MERIDIAN_FUZZ_SEED", 20261202));

const char *const kHostileTokens[] = {
    "\n",          "[",          "{",    "}",   "]",
    "\"",          "<",          "</",   "/>",  ":",
    ",",           "|",          "-1",   "0",   "1e300",
    "-1e300",      "nan",        ".nan", "inf", "18446744073709551616",
    "99999999999", "N/A",        "%",    "\t",  "  ",
    "---",         "+----+",     "? ",   "&",   "*anchor",
    "!!binary",    "9999-12-31",
};

class Mutator {
public:
    explicit Mutator(uint64_t seed) : m_random(seed) {}

    std::string mutate(const std::string &seed)
    {
        std::string text = seed;
        const int edits = 1 + static_cast<int>(pick(8));
        for (int e = 0; e < edits; ++e) {
            const size_t at = text.empty() ? 0 : pick(text.size());
            switch (pick(7)) {
            case 0:  // flip a bit
                if (!text.empty())
                    text[at] = static_cast<char>(text[at] ^ (1 << pick(8)));
                break;
            case 1:  // drop a run
                text.erase(at, pick(64));
                break;
            case 2:  // repeat a run
                text.insert(at, text.substr(at, pick(256)));
                break;
            case 3:  // splice in a hostile token
                text.insert(at, kHostileTokens[pick(std::size(kHostileTokens))]);
                break;
            case 4:  // cut short, as a killed tool leaves it
                text.resize(at);
                break;
            case 5:  // a random byte
                text.insert(at, 1, static_cast<char>(pick(256)));
                break;
            default:  // a digit changed: numbers are what parsers trust most
                if (!text.empty())
                    text[at] = static_cast<char>('0' + pick(10));
                break;
            }
        }
        return text;
    }

private:
    size_t pick(size_t n)
    {
        return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(m_random);
    }
    std::mt19937_64 m_random;
};

// Feeds mutants of every seed to `parse` until the budget is spent; `parse` returns the
// error message, or an empty optional for a value.
int fuzz(const std::vector<std::string> &seeds,
         const std::function<std::optional<std::string>(const std::string &)> &parse)
{
    EXPECT_FALSE(seeds.empty());
    Mutator mutator(kSeed);
    const auto end = std::chrono::steady_clock::now() + kBudget;
    int mutants = 0;
    while (mutants < kMaxMutants && std::chrono::steady_clock::now() < end) {
        for (const std::string &seed : seeds) {
            const std::string mutant = mutator.mutate(seed);
            std::optional<std::string> error;
            EXPECT_NO_THROW(error = parse(mutant)) << "mutant:\n" << mutant.substr(0, 2000);
            if (error) {
                EXPECT_FALSE(error->empty()) << "an error with no message";
            }
            ++mutants;
        }
    }
    return mutants;
}

template <typename T>
std::optional<std::string> errorOf(const Result<T> &result)
{
    if (result)
        return std::nullopt;
    return result.error().message;
}

std::optional<std::string> errorOf(const Status &status)
{
    if (status)
        return std::nullopt;
    return status.message();
}

// The real capture; a checkout without it fails here, it never skips.
std::string capture(const std::string &relative)
{
    const std::string path = test::realData(relative);
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path << " is missing: the fuzz seeds come from the real captures";
    return test::readFile(path);
}

std::string shipped(const std::string &relative)
{
    return test::readFile(std::string(MERIDIAN_SOURCE_DIR) + "/" + relative);
}

// Runs a file reader over mutants written to one scratch file.
std::function<std::optional<std::string>(const std::string &)> viaFile(
    const test::TempDir &dir, const std::string &name,
    std::function<std::optional<std::string>(const std::string &)> read)
{
    const std::string path = dir.file(name);
    return [path, read](const std::string &text) {
        std::ofstream(path, std::ios::trunc | std::ios::binary) << text;
        return read(path);
    };
}

}  // namespace

TEST(MutationFuzz, CardParsers)
{
    const auto card = [](Result<ParsedCards> (*parse)(std::string_view)) {
        return [parse](const std::string &text) { return errorOf(parse(text)); };
    };
    EXPECT_GT(fuzz({capture("telemetry/nvidia-smi-capture-h100-80gb-hbm3-drv590.txt")},
                   card(parseNvidiaSmiCsv)),
              0);
    EXPECT_GT(fuzz({capture("telemetry/nvidia-smi-q-x-a100-sxm4-80gb-mig.xml"),
                    capture("telemetry/nvidia-smi-q-x-a100-sxm4-40gb-mig-na.xml")},
                   card(parseNvidiaSmiXml)),
              0);
    EXPECT_GT(fuzz({capture("telemetry/npu-smi-info-910b2-8card.txt")}, card(parseNpuSmi)), 0);
    EXPECT_GT(fuzz({capture("telemetry/cnmon-mlu370-x8-2card.txt")}, card(parseCnmon)), 0);
    EXPECT_GT(fuzz({capture("telemetry/hy-smi-k100ai-4card.txt")}, card(parseHySmi)), 0);
}

TEST(MutationFuzz, NicAndFabricParsers)
{
    const auto with = [](auto parse) {
        return [parse](const std::string &text) { return errorOf(parse(text)); };
    };
    EXPECT_GT(
        fuzz({capture("fabric/ethtool-S_mlx5_connectx4_isc-ethq.txt")}, with(parseEthtoolStats)),
        0);
    EXPECT_GT(fuzz({capture("fabric/lldpctl-f-json0_gpu-host_4-sonic-leaves_unifabric.json"),
                    capture("fabric/lldpctl-f-json0_gpu-host_h3c-access_unifabric.json")},
                   with(parseLldpctlJson)),
              0);
    EXPECT_GT(fuzz({capture("telemetry/nvidia-smi-topo-m-a100-8card-nvlink.txt"),
                    capture("fabric/nvidia-smi_topo-m_4gpu_4mlx5_stelline.txt")},
                   with(parseNvidiaSmiTopo)),
              0);
    EXPECT_GT(fuzz({capture("fabric/mlnx_qos_pfc_dscp_att-netarbiter.md")}, with(parseMlnxQos)), 0);
    EXPECT_GT(fuzz({capture("fabric/rdma-link_flapping-port_rocm-rccl-issue1423.txt")},
                   with(parseRdmaLink)),
              0);
    EXPECT_GT(fuzz({capture("fabric/show_gids_mlx5_roce_schmaustech.txt")}, with(parseShowGids)),
              0);
    EXPECT_GT(
        fuzz({capture("fabric/lldpcli-show-neighbors_host-to-cumulus-sn5600_schmaustech.txt")},
             with(parseLldpcliText)),
        0);
    EXPECT_GT(fuzz({capture("fabric/sonic_show-pfc-counters_rx_sonic-buildimage-issue9453.txt")},
                   with(parseSonicPfcCounters)),
              0);
    EXPECT_GT(fuzz({capture("fabric/sonic_show-pfcwd-stats_storm_sonic-buildimage-issue9430.txt")},
                   with(parseSonicPfcwdStats)),
              0);
}

TEST(MutationFuzz, ConfigReaders)
{
    test::TempDir dir;
    EXPECT_GT(
        fuzz({shipped("packaging/agent/agent.yaml"),
              "listen: 127.0.0.1:7000\nsample_interval_ms: 500\nsim: {seed: 7, kind: nvidia}\n"
              "tokens:\n  - {name: ops, role: operator, token: 0123456789abcdef0123}\n"},
             viaFile(dir, "agent.yaml",
                     [](const std::string &path) {
                         AgentConfig config;
                         return errorOf(loadAgentConfig(path, config));
                     })),
        0);
    EXPECT_GT(fuzz({"capacity_pool: 127.0.0.1:40000\ndata_centers:\n  - name: xiamen\n    agents:\n"
                    "      - {node: xm-r01-n1, address: 10.1.0.11:50051}\n      - 10.1.0.12:50051\n"
                    "  - name: wuhu\n    agents: [{address: \"[::1]:50051\"}]\n"},
                   viaFile(dir, "fleet.yaml",
                           [](const std::string &path) { return errorOf(loadInventory(path)); })),
              0);
    EXPECT_GT(fuzz({shipped("resources/pricebook.yaml")},
                   viaFile(dir, "prices.yaml",
                           [](const std::string &path) { return errorOf(PriceBook::load(path)); })),
              0);
    EXPECT_GT(
        fuzz({shipped("resources/services.yaml")},
             viaFile(dir, "services.yaml",
                     [](const std::string &path) { return errorOf(loadInferenceServices(path)); })),
        0);
    EXPECT_GT(
        fuzz({"target_occupancy: 0.9\nstable_window_seconds: 60\nup_headroom: 0.1\n"},
             viaFile(dir, "policy.yaml",
                     [](const std::string &path) { return errorOf(loadScalingPolicy(path)); })),
        0);
    EXPECT_GT(
        fuzz({"faults:\n  - {at_seconds: 30, node: xm-r01-n1, kind: xid79, card: 2}\n"
              "  - {at_seconds: 60, data_center: wuhu, kind: crash, duration_seconds: 120}\n"},
             viaFile(dir, "scenario.yaml",
                     [](const std::string &path) { return errorOf(loadScenario(path)); })),
        0);
    EXPECT_GT(fuzz({"data_centers:\n  - name: xiamen\n    spines: [s1, s2]\n    leaves:\n"
                    "      - {name: l1, pod: 0, rail: 0, pfc_priorities: [3], uplink_gbps: 1600,"
                    " spines: [s1, s2]}\n"},
                   viaFile(dir, "fabric.yaml",
                           [](const std::string &path) { return errorOf(loadFabricFile(path)); })),
              0);
}

TEST(MutationFuzz, RequestTraces)
{
    test::TempDir dir;
    const auto head = [](const std::string &text, size_t lines) {
        size_t at = 0;
        for (size_t i = 0; i < lines && at != std::string::npos; ++i)
            at = text.find('\n', at + 1);
        return text.substr(0, at == std::string::npos ? text.size() : at + 1);
    };
    EXPECT_GT(fuzz({head(capture("traces/azure_llm_2023_conv.csv.gz"), 200),
                    head(capture("traces/mooncake_conversation_trace.jsonl.gz"), 100),
                    head(capture("traces/servegen_deepseek-r1_agg_rate_10min.csv"), 12)},
                   viaFile(dir, "trace.txt",
                           [](const std::string &path) {
                               return errorOf(loadRequestTrace(path, 7200));
                           })),
              0);
}
