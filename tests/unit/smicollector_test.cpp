// The vendor-tool collector assembling a node from several tools: one card numbering
// across vendors, rails from the PCIe topology, LLDP neighbours on the right NIC, and
// a failing tool reported beside what worked (or failing `collect` outright).
#include <gtest/gtest.h>

#include <fstream>

#include "telemetry/smicollector.h"
#include "testsupport.h"

using namespace meridian;

namespace {

ToolSource fixed(ToolKind kind, std::string label, std::string text, std::string netdev = {},
                 std::string rdma = {})
{
    return ToolSource{kind,
                      std::move(label),
                      std::move(netdev),
                      std::move(rdma),
                      false,
                      [text = std::move(text)]() -> Result<std::string> { return text; }};
}

ToolSource failing(ToolKind kind, std::string why)
{
    return ToolSource{
        kind, "npu-smi", {},
        {},   false,     [why = std::move(why)]() -> Result<std::string> { return Error{why}; }};
}

}  // namespace

TEST(SmiCollector, HybridNodeFromSeveralToolsWithRails)
{
    const char *csv =
        "index, uuid, name, utilization.gpu [%]\n"
        "0, GPU-a, NVIDIA A100-SXM4-80GB, 10\n1, GPU-b, NVIDIA A100-SXM4-80GB, 20\n"
        "2, GPU-c, NVIDIA A100-SXM4-80GB, 30\n3, GPU-d, NVIDIA A100-SXM4-80GB, 40\n";
    std::vector<ToolSource> sources = {
        fixed(ToolKind::NpuSmi, "npu-smi",
              test::readFile(test::realData("telemetry/npu-smi-info-910b2-8card.txt"))),
        fixed(ToolKind::NvidiaSmiCsv, "nvidia-smi", csv),
        fixed(ToolKind::NvidiaSmiTopo, "topo",
              test::readFile(test::realData("fabric/nvidia-smi_topo-m_4gpu_4mlx5_stelline.txt"))),
        fixed(ToolKind::Ethtool, "ethtool", "rx_bytes_phy: 10\ntx_bytes_phy: 20\n", "ens3np0",
              "mlx5_3"),
        fixed(
            ToolKind::LldpctlJson, "lldpctl",
            R"({"lldp":{"interface":{"ens3np0":{"chassis":{"leaf-3":{"id":{"type":"mac","value":"x"}}},"port":{"id":{"type":"ifname","value":"Ethernet8"}}}}}})"),
    };
    SmiCollector collector(std::move(sources), "hybrid-01");
    auto reading = collector.read(true, true);
    ASSERT_TRUE(reading.ok()) << reading.error().message;
    const auto &cards = reading->hardware.cards;
    ASSERT_EQ(cards.size(), 12u);
    for (uint32_t i = 0; i < cards.size(); ++i)
        EXPECT_EQ(cards[i].index, i);
    EXPECT_EQ(cards[0].uuid, "hybrid-01-NPU-0000:C1:00.0");  // unique in the fleet
    EXPECT_EQ(cards[8].uuid, "GPU-a");
    ASSERT_EQ(reading->hardware.nics.size(), 1u);
    const NicInfo &nic = reading->hardware.nics[0];
    EXPECT_EQ(nic.nearestCardIndex, 10u);  // mlx5_3 is nearest NVIDIA GPU 2 = node card 10
    ASSERT_TRUE(nic.neighbor.has_value());
    EXPECT_EQ(nic.neighbor->systemName, "leaf-3");
    EXPECT_EQ(reading->sample.nics[0].rxBytes, 10u);
}

TEST(SmiCollector, AFailingToolIsAProblemBesideWhatWorkedButFailsCollect)
{
    std::vector<ToolSource> sources = {
        failing(ToolKind::NpuSmi, "npu-smi: no answer within 5000 ms; killed it"),
        fixed(ToolKind::HySmi, "hy-smi", "DCU Temp DCU%\n0 40.0C 12%\n=== End of SMI Log ===\n"),
    };
    SmiCollector collector(sources, "n1");
    auto lenient = collector.sample(0);
    ASSERT_TRUE(lenient.ok());
    EXPECT_EQ(lenient->cards.size(), 1u);
    ASSERT_EQ(lenient->problems.size(), 1u);
    EXPECT_NE(lenient->problems[0].find("killed it"), std::string::npos);
    auto strict = collector.read(true, true);
    ASSERT_FALSE(strict.ok());
    EXPECT_NE(strict.error().message.find("npu-smi"), std::string::npos);
}

TEST(SmiCollector, BrokenCaptureNamesFileAndLine)
{
    test::TempDir dir;
    {
        std::ofstream out(dir.file("npu.txt"));
        out << "| npu-smi 23.0.7 |\n| 0     910B2   | OK  | 96.5  36  0 / 0 |\n| 1 | 0000:C1:00.0 "
               "|\n";
    }
    auto source = SmiCollector::fileSource("npu-smi=" + dir.file("npu.txt"));
    ASSERT_TRUE(source.ok());
    SmiCollector collector({source.value()}, "n1");
    auto reading = collector.read(true, true);
    ASSERT_FALSE(reading.ok());
    EXPECT_NE(reading.error().message.find(dir.file("npu.txt") + ": line 2: NPU 0 has no chip row"),
              std::string::npos)
        << reading.error().message;
    EXPECT_FALSE(SmiCollector::fileSource("nvidia=foo").ok());
    EXPECT_FALSE(SmiCollector::fileSource("no-equals-sign").ok());
}

TEST(SmiCollector, OutputCutShortIsAProblemNotFewerCardsInSilence)
{
    const std::string whole =
        test::readFile(test::realData("telemetry/npu-smi-info-910b2-8card.txt"));
    // Cut in the middle of the table, as a tool killed mid-print leaves it.
    const std::string cut = whole.substr(0, whole.size() / 2);
    SmiCollector collector({fixed(ToolKind::NpuSmi, "npu-smi", cut)}, "n1");
    auto reading = collector.read(false, true);
    ASSERT_TRUE(reading.ok()) << reading.error().message;
    EXPECT_LT(reading->sample.cards.size(), 8u);
    ASSERT_EQ(reading->sample.problems.size(), 1u);
    EXPECT_NE(reading->sample.problems[0].find("npu-smi: the output stops before the tool's last "
                                               "line"),
              std::string::npos)
        << reading->sample.problems[0];
    SmiCollector complete({fixed(ToolKind::NpuSmi, "npu-smi", whole)}, "n1");
    EXPECT_TRUE(complete.read(false, true)->sample.problems.empty());
}

TEST(SmiCollector, ImpossibleReadingsBecomeNoReadingWithAProblemLine)
{
    const std::string csv =
        "index, uuid, name, utilization.gpu [%], temperature.gpu, power.draw [W], "
        "memory.used [MiB], memory.total [MiB]\n"
        "0, GPU-a, NVIDIA A100-SXM4-80GB, -50, -273, -1e300, 1e300, 81920\n"
        "1, GPU-b, NVIDIA A100-SXM4-80GB, 37, 45, 250, 1024, 81920\n";
    SmiCollector collector({fixed(ToolKind::NvidiaSmiCsv, "nvidia-smi", csv)}, "n1");
    auto reading = collector.read(false, true);
    ASSERT_TRUE(reading.ok()) << reading.error().message;
    ASSERT_EQ(reading->sample.cards.size(), 2u);
    const CardSample &bad = reading->sample.cards[0];
    EXPECT_FALSE(bad.utilizationPercent.has_value());
    EXPECT_FALSE(bad.temperatureCelsius.has_value());
    EXPECT_FALSE(bad.powerWatts.has_value());
    EXPECT_FALSE(bad.memoryUsedBytes.has_value()) << "1e300 MiB is no reading, not 0";
    const CardSample &good = reading->sample.cards[1];
    EXPECT_EQ(good.utilizationPercent, 37);
    EXPECT_EQ(good.temperatureCelsius, 45);
    EXPECT_EQ(good.memoryUsedBytes, uint64_t{1024} << 20);
    std::string problems;
    for (const std::string &p : reading->sample.problems)
        problems += p + "\n";
    EXPECT_NE(problems.find("card 0: utilisation % -50 is impossible"), std::string::npos)
        << problems;
    EXPECT_NE(problems.find("card 0: temperature °C -273 is impossible"), std::string::npos);
    EXPECT_NE(problems.find("card 0: power W -1e+300 is impossible"), std::string::npos);
    EXPECT_EQ(problems.find("card 1"), std::string::npos);
}
