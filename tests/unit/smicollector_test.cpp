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
    MERIDIAN_REQUIRE_REAL_DATA();
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
        fixed(ToolKind::HySmi, "hy-smi", "DCU Temp DCU%\n0 40.0C 12%\n"),
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
