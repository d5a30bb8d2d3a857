// Every parser on every real capture in tests/data/real, with values checked
// against what the capture says by eye.
#include <gtest/gtest.h>

#include "telemetry/cardparsers.h"
#include "telemetry/nicparsers.h"
#include "telemetry/topoparser.h"
#include "testsupport.h"

using namespace meridian;
using test::readFile;
using test::realData;

TEST(NvidiaSmiCsv, H100CaptureUsesTheLastQueryBlockAndKeepsNaAbsent)
{
    auto cards = parseNvidiaSmiCsv(
        readFile(realData("telemetry/nvidia-smi-capture-h100-80gb-hbm3-drv590.txt")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 1u);
    const ParsedCard &c = cards->front();
    EXPECT_EQ(c.info.model, "H100-SXM5-80GB");  // "NVIDIA H100 80GB HBM3", in the catalogue's name
    EXPECT_EQ(c.info.uuid, "GPU-00000000-0000-0000-0000-000000000000");
    EXPECT_EQ(c.info.pciBusId, "00000000:00:09.0");
    EXPECT_EQ(c.info.driverVersion, "590.48.01");
    EXPECT_EQ(c.info.memoryTotalBytes, 81559ull * 1024 * 1024);
    EXPECT_EQ(c.info.migEnabled, false);
    EXPECT_DOUBLE_EQ(*c.info.peakFp16Tflops, 989.0);
    // The load section (the capture's last query) runs the GPU at 100 %.
    EXPECT_EQ(c.sample.utilizationPercent, 100.0);
    ASSERT_TRUE(c.sample.powerWatts.has_value());
    EXPECT_GT(*c.sample.powerWatts, 100.0);
    EXPECT_TRUE(c.sample.temperatureCelsius.has_value());
    ASSERT_TRUE(c.sample.throttleReasons.has_value());
}

// Captured by us on an H200 (driver 580): the agent's own query, idle and at its power cap.
TEST(NvidiaSmiCsv, H200IdleAndAtItsPowerCap)
{
    auto idle =
        parseNvidiaSmiCsv(readFile(realData("captured/nvidia-smi-query-gpu-h200-drv580-idle.csv")));
    ASSERT_TRUE(idle.ok()) << idle.error().message;
    ASSERT_EQ(idle->size(), 1u);
    EXPECT_EQ(idle->front().info.model, "H200-SXM-141GB");
    EXPECT_EQ(idle->front().info.driverVersion, "580.159.04");
    EXPECT_EQ(idle->front().info.memoryTotalBytes, 143771ull * 1024 * 1024);
    EXPECT_EQ(idle->front().sample.utilizationPercent, 0.0);
    EXPECT_EQ(idle->front().sample.temperatureCelsius, 33.0);
    EXPECT_EQ(idle->front().sample.smClockMhz, 345u);
    ASSERT_TRUE(idle->front().sample.throttleReasons.has_value());
    EXPECT_EQ(*idle->front().sample.throttleReasons,
              std::vector<ThrottleReason>{ThrottleReason::Idle});

    auto load =
        parseNvidiaSmiCsv(readFile(realData("captured/nvidia-smi-query-gpu-h200-drv580-load.csv")));
    ASSERT_TRUE(load.ok()) << load.error().message;
    const CardSample &busy = load->front().sample;
    EXPECT_EQ(busy.utilizationPercent, 100.0);
    EXPECT_EQ(busy.temperatureCelsius, 55.0);
    EXPECT_EQ(busy.memoryTemperatureCelsius, 46.0);
    EXPECT_DOUBLE_EQ(*busy.powerWatts, 690.54);
    EXPECT_DOUBLE_EQ(*busy.powerLimitWatts, 700.0);
    EXPECT_EQ(busy.smClockMhz, 1500u);
    EXPECT_EQ(busy.memoryClockMhz, 3201u);
    EXPECT_EQ(busy.memoryUsedBytes, 1011ull * 1024 * 1024);
    EXPECT_EQ(busy.eccUncorrectedVolatile, 0u);
    ASSERT_TRUE(busy.throttleReasons.has_value());
    EXPECT_EQ(*busy.throttleReasons, std::vector<ThrottleReason>{ThrottleReason::SwPowerCap});
}

TEST(NvidiaSmiXml, H200)
{
    auto cards = parseNvidiaSmiXml(readFile(realData("captured/nvidia-smi-q-x-h200-drv580.xml")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 1u);
    EXPECT_EQ(cards->front().info.model, "H200-SXM-141GB");
    EXPECT_EQ(cards->front().info.driverVersion, "580.159.04");
    EXPECT_EQ(cards->front().info.migEnabled, false);
    EXPECT_TRUE(cards->front().sample.temperatureCelsius.has_value());
    EXPECT_TRUE(cards->front().sample.utilizationPercent.has_value());
}

TEST(NvidiaSmiCsv, MigCaptureHasNoUtilisationButHasMemory)
{
    auto cards =
        parseNvidiaSmiCsv(readFile(realData("telemetry/nvidia-smi-capture-h100-mig-drv590.txt")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 1u);
    EXPECT_FALSE(cards->front().sample.utilizationPercent.has_value());
    EXPECT_TRUE(cards->front().sample.memoryUsedBytes.has_value());
    EXPECT_EQ(cards->front().info.migEnabled, true);
}

TEST(NvidiaSmiCsv, NoUnitsFormatTakesUnitsFromNothingAndOrderFromHeader)
{
    const char *text =
        "uuid, index, utilization.gpu [%], memory.used [MiB], temperature.gpu, power.draw [W]\n"
        "GPU-a, 0, 37, 1024, 55, 250.5\n"
        "GPU-b, 1, [N/A], [N/A], 56, [Requested functionality has been deprecated]\n";
    auto cards = parseNvidiaSmiCsv(text);
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 2u);
    EXPECT_EQ((*cards)[0].sample.utilizationPercent, 37.0);
    EXPECT_EQ((*cards)[0].sample.memoryUsedBytes, 1024ull * 1024 * 1024);
    EXPECT_EQ((*cards)[0].sample.powerWatts, 250.5);
    EXPECT_FALSE((*cards)[1].sample.utilizationPercent.has_value());
    EXPECT_FALSE((*cards)[1].sample.memoryUsedBytes.has_value());
    EXPECT_FALSE((*cards)[1].sample.powerWatts.has_value());
}

TEST(NvidiaSmiXml, A100MigV12)
{
    auto cards =
        parseNvidiaSmiXml(readFile(realData("telemetry/nvidia-smi-q-x-a100-sxm4-80gb-mig.xml")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 1u);
    const ParsedCard &c = cards->front();
    EXPECT_EQ(c.info.uuid, "GPU-513536b6-7d19-9063-b049-1e69664bb298");
    EXPECT_EQ(c.info.index, 1u);  // minor_number
    EXPECT_EQ(c.info.migEnabled, true);
    EXPECT_EQ(c.info.memoryTotalBytes, 81920ull * 1024 * 1024);
    EXPECT_FALSE(c.sample.utilizationPercent.has_value());  // N/A under MIG
    EXPECT_EQ(c.sample.temperatureCelsius, 27.0);
    EXPECT_EQ(c.sample.memoryTemperatureCelsius, 44.0);
    EXPECT_DOUBLE_EQ(*c.sample.powerWatts, 67.03);
    EXPECT_EQ(c.sample.eccUncorrectedVolatile, 0u);
    ASSERT_TRUE(c.sample.throttleReasons.has_value());
    EXPECT_TRUE(c.sample.throttleReasons->empty());
}

TEST(NvidiaSmiXml, A100MigV11AllNa)
{
    auto cards =
        parseNvidiaSmiXml(readFile(realData("telemetry/nvidia-smi-q-x-a100-sxm4-40gb-mig-na.xml")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 1u);
    const ParsedCard &c = cards->front();
    EXPECT_EQ(c.info.model, "A100-SXM4-40GB");
    EXPECT_FALSE(c.sample.utilizationPercent.has_value());
    EXPECT_FALSE(c.sample.eccUncorrectedVolatile.has_value());  // ECC counters N/A
    ASSERT_TRUE(c.sample.throttleReasons.has_value());          // older clocks_throttle_reasons
}

TEST(NpuSmi, Ascend910B2EightCards)
{
    auto cards = parseNpuSmi(readFile(realData("telemetry/npu-smi-info-910b2-8card.txt")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 8u);
    const ParsedCard &first = cards->front();
    EXPECT_EQ(first.info.vendor, Vendor::Huawei);
    EXPECT_EQ(first.info.model, "Ascend 910B");  // npu-smi's "910B2"
    EXPECT_EQ(first.info.pciBusId, "0000:C1:00.0");
    EXPECT_DOUBLE_EQ(*first.sample.powerWatts, 96.5);
    EXPECT_EQ(first.sample.temperatureCelsius, 36.0);
    EXPECT_EQ(first.sample.utilizationPercent, 0.0);
    EXPECT_EQ(first.sample.memoryUsedBytes, 29954ull * 1024 * 1024);  // HBM, not DDR 0/0
    EXPECT_EQ(first.sample.memoryTotalBytes, 65536ull * 1024 * 1024);
    EXPECT_EQ(first.sample.health, "OK");
    EXPECT_EQ((*cards)[7].info.pciBusId, "0000:42:00.0");
    EXPECT_EQ((*cards)[7].sample.memoryUsedBytes, 3347ull * 1024 * 1024);
}

TEST(NpuSmi, SecondDieWithDashPowerKeepsPowerAbsent)
{
    const char *text =
        "| npu-smi 24.1.rc2                 Version: 24.1.rc2                                     "
        "|\n"
        "| NPU   Name                | Health        | Power(W)    Temp(C)           "
        "Hugepages-Usage(page)|\n"
        "| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB) "
        "       |\n"
        "| 0     Ascend910           | OK            | 169.6       35                0    / 0      "
        "       |\n"
        "| 0     0                   | 0000:9D:00.0  | 12          0    / 0          3389 / 65536  "
        "       |\n"
        "| 0     Ascend910           | OK            | -           36                0    / 0      "
        "       |\n"
        "| 1     1                   | 0000:9F:00.0  | 7           0    / 0          3363 / 65536  "
        "       |\n";
    auto cards = parseNpuSmi(text);
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 2u);
    EXPECT_DOUBLE_EQ(*(*cards)[0].sample.powerWatts, 169.6);
    EXPECT_FALSE((*cards)[1].sample.powerWatts.has_value());
    EXPECT_EQ((*cards)[1].sample.utilizationPercent, 7.0);
}

TEST(Cnmon, Mlu370TwoCards)
{
    auto cards = parseCnmon(readFile(realData("telemetry/cnmon-mlu370-x8-2card.txt")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 2u);
    const ParsedCard &c = (*cards)[1];
    EXPECT_EQ(c.info.model, "MLU370-X8");
    EXPECT_EQ(c.info.pciBusId, "0000:16:00.0");
    EXPECT_EQ(c.sample.temperatureCelsius, 32.0);
    EXPECT_EQ(c.sample.powerWatts, 107.0);
    EXPECT_EQ(c.sample.powerLimitWatts, 250.0);
    EXPECT_EQ(c.sample.memoryTotalBytes, 20638ull * 1024 * 1024);
    EXPECT_EQ(c.sample.memoryUsedBytes, 0u);
    EXPECT_EQ(c.sample.eccUncorrectedVolatile, 0u);
}

TEST(HySmi, K100FourCards)
{
    auto cards = parseHySmi(readFile(realData("telemetry/hy-smi-k100ai-4card.txt")));
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 4u);
    EXPECT_EQ((*cards)[2].sample.temperatureCelsius, 53.0);
    EXPECT_EQ((*cards)[3].sample.powerWatts, 138.0);
    EXPECT_EQ((*cards)[3].sample.powerLimitWatts, 800.0);
    EXPECT_EQ((*cards)[0].sample.utilizationPercent, 0.0);
    EXPECT_FALSE((*cards)[0].sample.memoryUsedBytes.has_value());  // hy-smi prints only VRAM%
}

TEST(Ethtool, Mlx5PortCountersPreferPhy)
{
    auto stats =
        parseEthtoolStats(readFile(realData("fabric/ethtool-S_mlx5_connectx4_isc-ethq.txt")));
    ASSERT_TRUE(stats.ok()) << stats.error().message;
    const NicCounters c = nicCountersFromStats("eth0", stats.value());
    EXPECT_EQ(c.rxBytes, 2202570777997ull);  // rx_bytes_phy, not the netdev's rx_bytes
    EXPECT_EQ(c.txBytes, 2662454044895ull);
    EXPECT_EQ(c.rxDiscards, 0u);
    EXPECT_EQ(c.linkDownEvents, 0u);
    // This ConnectX-4 dump has per-priority bytes but no per-priority pause counters.
    EXPECT_FALSE(c.rxPause[3].has_value());
    // ConnectX-4 ethtool has no RDMA congestion counters: absent, not zero.
    EXPECT_FALSE(c.cnpSent.has_value());
    EXPECT_FALSE(c.ecnMarkedPackets.has_value());
}

TEST(Lldp, Json0RailHostSeesFourLeaves)
{
    auto ifaces = parseLldpctlJson(
        readFile(realData("fabric/lldpctl-f-json0_gpu-host_4-sonic-leaves_unifabric.json")));
    ASSERT_TRUE(ifaces.ok()) << ifaces.error().message;
    ASSERT_EQ(ifaces->size(), 5u);
    EXPECT_EQ((*ifaces)[0].netdev, "ens1np0");
    EXPECT_EQ((*ifaces)[0].neighbor.systemName, "StorageSW");
    EXPECT_EQ((*ifaces)[0].neighbor.portId, "Ethernet120");
    EXPECT_EQ((*ifaces)[0].neighbor.ttlSeconds, 120u);
    EXPECT_EQ((*ifaces)[0].neighbor.ageSeconds, 1 * 3600u + 48 * 60 + 20);
    std::set<std::string> leaves;
    for (const auto &i : ifaces.value())
        leaves.insert(i.neighbor.systemName);
    EXPECT_TRUE(leaves.count("LEAF01") && leaves.count("LEAF04"));
}

TEST(Lldp, Json0H3cAccessHostWithMacPortId)
{
    auto ifaces = parseLldpctlJson(
        readFile(realData("fabric/lldpctl-f-json0_gpu-host_h3c-access_unifabric.json")));
    ASSERT_TRUE(ifaces.ok()) << ifaces.error().message;
    ASSERT_FALSE(ifaces->empty());
    bool sawMacPort = false;
    for (const auto &i : ifaces.value())
        sawMacPort |= i.neighbor.portIdType == "mac";
    EXPECT_TRUE(sawMacPort);
}

TEST(Lldp, KeyValueJsonFormatWithNamedChassis)
{
    const char *text =
        R"({"lldp": {"interface": {"ens1np0": {"via": "LLDP", "age": "2 day, 00:00:05",
        "chassis": {"leaf-07": {"id": {"type": "mac", "value": "aa:bb"}, "mgmt-ip": "10.0.0.7"}},
        "port": {"id": {"type": "ifname", "value": "swp12"}, "descr": "swp12", "ttl": "120"}}}}})";
    auto ifaces = parseLldpctlJson(text);
    ASSERT_TRUE(ifaces.ok()) << ifaces.error().message;
    ASSERT_EQ(ifaces->size(), 1u);
    EXPECT_EQ((*ifaces)[0].neighbor.systemName, "leaf-07");
    EXPECT_EQ((*ifaces)[0].neighbor.portId, "swp12");
    EXPECT_EQ((*ifaces)[0].neighbor.managementAddress, "10.0.0.7");
    EXPECT_EQ((*ifaces)[0].neighbor.ageSeconds, 2 * 86400u + 5);
}

TEST(NvidiaSmiTopo, EightA100FourNicsGiveEachNicItsNearestGpu)
{
    auto topo =
        parseNvidiaSmiTopo(readFile(realData("telemetry/nvidia-smi-topo-m-a100-8card-nvlink.txt")));
    ASSERT_TRUE(topo.ok()) << topo.error().message;
    EXPECT_EQ(topo->devices.size(), 12u);
    EXPECT_EQ(topo->link["GPU0"]["GPU1"], "NV12");
    EXPECT_EQ(topo->nicNames["NIC3"], "mlx5_3");
    const auto rails = nearestGpuPerNic(topo.value());
    // NIC0/1 hang under GPU0/1's switch, NIC2/3 under GPU2/3's; ties go to the lower index.
    EXPECT_EQ(rails.at("mlx5_0"), 0u);
    EXPECT_EQ(rails.at("mlx5_1"), 0u);
    EXPECT_EQ(rails.at("mlx5_2"), 2u);
    EXPECT_EQ(rails.at("mlx5_3"), 2u);
}

TEST(NvidiaSmiTopo, SpacePaddedFourGpuAndTabbedOneGpuLayouts)
{
    auto four =
        parseNvidiaSmiTopo(readFile(realData("fabric/nvidia-smi_topo-m_4gpu_4mlx5_stelline.txt")));
    ASSERT_TRUE(four.ok()) << four.error().message;
    const auto rails = nearestGpuPerNic(four.value());
    EXPECT_EQ(rails.at("mlx5_0"), 0u);  // NODE to GPU0/1, SYS to GPU2/3
    EXPECT_EQ(rails.at("mlx5_3"), 2u);
    auto one = parseNvidiaSmiTopo(
        readFile(realData("fabric/nvidia-smi_topo-mp_1gpu_10mlx5_schmaustech.txt")));
    ASSERT_TRUE(one.ok()) << one.error().message;
    EXPECT_EQ(one->devices.size(), 11u);
    EXPECT_EQ(nearestGpuPerNic(one.value()).size(), 10u);
}

TEST(NvidiaSmiTopo, UnderlinedHeaderInsideALongCapture)
{
    // Newer drivers underline the header with ANSI escapes even into a pipe.
    auto topo = parseNvidiaSmiTopo(
        readFile(realData("telemetry/nvidia-smi-capture-h100-80gb-hbm3-drv590.txt")));
    ASSERT_TRUE(topo.ok()) << topo.error().message;
    EXPECT_EQ(topo->devices, std::vector<std::string>{"GPU0"});
    EXPECT_EQ(topo->link["GPU0"]["GPU0"], "X");
}

TEST(NvidiaSmiCsv, ThrottleReasonsAcrossDriverGenerationsIgnoringCounters)
{
    const char *text =
        "index, uuid, utilization.gpu [%], clocks_throttle_reasons.hw_thermal_slowdown, "
        "clocks_event_reasons_counters.sw_power_cap [us], clocks_throttle_reasons.gpu_idle\n"
        "0, GPU-a, 90, Active, 12 us, Not Active\n";
    auto cards = parseNvidiaSmiCsv(text);
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    const auto &reasons = cards->front().sample.throttleReasons;
    ASSERT_TRUE(reasons.has_value());
    EXPECT_EQ(*reasons, std::vector<ThrottleReason>{ThrottleReason::HwThermal});
    EXPECT_TRUE(cards->front().sample.thermallyThrottled());
}
