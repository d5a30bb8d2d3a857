// The exposition an agent serves: dcgm-exporter's names for every vendor, absent values
// left out, labels escaped, and each format's own rules for counters and the end.
#include <gtest/gtest.h>

#include "telemetry/metricsexposition.h"

namespace meridian {
namespace {

NodeInventory hybridNode()
{
    NodeInventory inventory;
    inventory.nodeId = "wh-r01-n1";
    inventory.hostname = "wh-r01-n1.wuhu";
    inventory.dataCenter = "wuhu";
    inventory.rack = "rack \"7\"\\b";
    const auto card = [](uint32_t index, Vendor vendor, const char *model, const char *uuid) {
        CardInfo info;
        info.index = index;
        info.vendor = vendor;
        info.model = model;
        info.uuid = uuid;
        return info;
    };
    inventory.cards = {card(0, Vendor::Nvidia, "A100-SXM4-80GB", "GPU-1"),
                       card(1, Vendor::Huawei, "Ascend 910B", "NPU-2")};
    NicInfo nic;
    nic.netdev = "ens1";
    nic.rdmaDevice = "mlx5_0";
    inventory.nics = {nic};
    return inventory;
}

TelemetrySample sample()
{
    TelemetrySample s;
    s.sampleTimeUnixMs = 1'796'264'519'500;
    CardSample gpu;
    gpu.index = 0;
    gpu.utilizationPercent = 68.5;
    gpu.memoryUsedBytes = 1024ull << 20;
    gpu.memoryTotalBytes = 4096ull << 20;
    gpu.lastXid = 79;
    gpu.throttleReasons = std::vector<ThrottleReason>{ThrottleReason::HwThermal};
    CardSample npu;
    npu.index = 1;
    npu.utilizationPercent = 12;  // nothing else: the rest must stay absent
    s.cards = {gpu, npu};
    NicSample nic;
    nic.counters.netdev = "ens1";
    nic.counters.linkState = LinkState::Up;
    nic.counters.rxBytes = 123456789012ull;
    nic.counters.rxPause[3] = 7;
    s.nics = {nic};
    return s;
}

TEST(MetricsExposition, CardsUseDcgmNamesWithVendorAndEscapedLabels)
{
    const std::string text =
        renderExposition(hybridNode(), sample(), ExpositionFormat::PrometheusText);
    EXPECT_NE(
        text.find("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",modelName=\"A100-SXM4-80GB\","
                  "vendor=\"nvidia\",model=\"A100-SXM4-80GB\",Hostname=\"wh-r01-n1.wuhu\","
                  "node=\"wh-r01-n1\",dc=\"wuhu\",rack=\"rack \\\"7\\\"\\\\b\"} 68.5\n"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("vendor=\"huawei\""), std::string::npos);
    EXPECT_NE(text.find("DCGM_FI_DEV_FB_USED{gpu=\"0\""), std::string::npos);
    EXPECT_NE(text.find("} 1024\n"), std::string::npos);  // MiB
    EXPECT_NE(text.find("} 3072\n"), std::string::npos);  // free MiB
    EXPECT_NE(text.find("DCGM_FI_DEV_XID_ERRORS{gpu=\"0\""), std::string::npos);
    // The Ascend card reported no memory and no temperature: no series, not a zero.
    EXPECT_EQ(text.find("DCGM_FI_DEV_FB_USED{gpu=\"1\""), std::string::npos);
    EXPECT_EQ(text.find("DCGM_FI_DEV_GPU_TEMP"), std::string::npos);
    // Thermal throttling as the alerting rules read it; unknown on the Ascend card.
    // Our own name keeps to snake_case labels: no dcgm-exporter `modelName`.
    EXPECT_NE(
        text.find("meridian_card_thermal_throttled{gpu=\"0\",UUID=\"GPU-1\",vendor=\"nvidia\","
                  "model=\"A100-SXM4-80GB\","),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("meridian_card_thermal_throttled{gpu=\"1\""), std::string::npos);
    EXPECT_NE(text.find("meridian_sample_time_seconds{"), std::string::npos);
    EXPECT_NE(text.find("} 1796264519.5\n"), std::string::npos);
    EXPECT_EQ(text.find("# EOF"), std::string::npos);
}

TEST(MetricsExposition, CountersFollowEachFormat)
{
    const std::string text =
        renderExposition(hybridNode(), sample(), ExpositionFormat::PrometheusText);
    EXPECT_NE(text.find("# TYPE meridian_nic_receive_bytes_total counter"), std::string::npos);
    EXPECT_NE(text.find("meridian_nic_receive_bytes_total{device=\"ens1\",rdma=\"mlx5_0\","),
              std::string::npos);
    EXPECT_NE(text.find("} 123456789012\n"), std::string::npos);
    EXPECT_NE(
        text.find("meridian_nic_pfc_receive_pause_frames_total{priority=\"3\",device=\"ens1\""),
        std::string::npos);
    EXPECT_NE(text.find("meridian_nic_link_up{device=\"ens1\""), std::string::npos);

    const std::string om = renderExposition(hybridNode(), sample(), ExpositionFormat::OpenMetrics);
    EXPECT_NE(om.find("# TYPE meridian_nic_receive_bytes counter"), std::string::npos);
    EXPECT_NE(om.find("meridian_nic_receive_bytes_total{"), std::string::npos);
    ASSERT_GE(om.size(), 6u);
    EXPECT_EQ(om.substr(om.size() - 6), "# EOF\n");
}

TEST(MetricsExposition, NegotiatesOpenMetricsOnlyWhenAsked)
{
    EXPECT_EQ(negotiateExposition("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"),
              ExpositionFormat::OpenMetrics);
    EXPECT_EQ(negotiateExposition("text/plain"), ExpositionFormat::PrometheusText);
    EXPECT_EQ(negotiateExposition(""), ExpositionFormat::PrometheusText);
}

}  // namespace
}  // namespace meridian
