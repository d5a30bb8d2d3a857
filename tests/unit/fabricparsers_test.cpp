// The fabric tools' parsers on every real capture in tests/data/real/fabric not
// covered by parsers_test (ethtool, lldpctl JSON, topo), with values checked against the
// capture by eye, and on broken input.
#include <gtest/gtest.h>

#include "telemetry/fabricparsers.h"
#include "testsupport.h"

using namespace meridian;
using test::readFile;
using test::realData;

TEST(MlnxQos, TheLastDumpSaysDscpTrustAndPfcOnPriorityThreeOnly)
{
    auto qos = parseMlnxQos(readFile(realData("fabric/mlnx_qos_pfc_dscp_att-netarbiter.md")));
    ASSERT_TRUE(qos.ok()) << qos.error().message;
    EXPECT_EQ(qos->trust, "dscp");
    EXPECT_EQ(qos->pfcEnabledPriorities, std::vector<uint32_t>{3});
    EXPECT_EQ(qos->dscpToPriority[26], 3);  // RoCE's usual DSCP 26 lands on priority 3
    EXPECT_EQ(qos->dscpToPriority[0], 0);
    EXPECT_EQ(qos->dscpToPriority[63], 7);
}

TEST(MlnxQos, AFlagThatIsNotZeroOrOneNamesItsLine)
{
    auto qos = parseMlnxQos(
        "PFC configuration:\n  priority 0 1 2 3 4 5 6 7\n  enabled 0 0 0 yes 0 0 0 0\n");
    ASSERT_FALSE(qos.ok());
    EXPECT_NE(qos.error().message.find("line 3"), std::string::npos) << qos.error().message;
    EXPECT_FALSE(parseMlnxQos("DCBX mode: OS controlled\n").ok());
}

TEST(RdmaLink, AFlappingPortIsSeenGoingDownOnceAndComingBack)
{
    auto links =
        parseRdmaLink(readFile(realData("fabric/rdma-link_flapping-port_rocm-rccl-issue1423.txt")));
    ASSERT_TRUE(links.ok()) << links.error().message;
    ASSERT_EQ(links->size(), 3u);
    EXPECT_EQ((*links)[0].device, "mlx5_7");
    EXPECT_EQ((*links)[0].port, 1u);
    EXPECT_EQ((*links)[0].physicalState, "POLLING");
    EXPECT_FALSE((*links)[1].up());
    EXPECT_TRUE((*links)[2].up());
    // Up, down, up: one drop.
    std::vector<RdmaLink> readings = {links->back(), (*links)[0], (*links)[1], links->back()};
    EXPECT_EQ(countLinkDrops(readings, "mlx5_7", 1), 1);
    auto roce = parseRdmaLink("link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens6np0\n");
    ASSERT_TRUE(roce.ok());
    EXPECT_EQ(roce->front().netdev, "ens6np0");
    EXPECT_FALSE(parseRdmaLink("link mlx5_0 state ACTIVE\n").ok());
}

TEST(ShowGids, FourGidsOfWhichIndexThreeIsRoceV2OverIpv4)
{
    auto gids = parseShowGids(readFile(realData("fabric/show_gids_mlx5_roce_schmaustech.txt")));
    ASSERT_TRUE(gids.ok()) << gids.error().message;
    ASSERT_EQ(gids->size(), 4u);
    const RoceGid &v2 = (*gids)[3];
    EXPECT_EQ(v2.device, "mlx5_3");
    EXPECT_EQ(v2.index, 3u);
    EXPECT_EQ(v2.version, "v2");
    EXPECT_EQ(v2.ipv4, "192.168.10.2");
    EXPECT_EQ(v2.netdev, "net1");
    EXPECT_TRUE((*gids)[0].ipv4.empty());
    EXPECT_FALSE(parseShowGids("mlx5_3\t1\t0\tfe80::1\t\tv1\tnet1\nn_gids_found=2\n").ok())
        << "a count that disagrees with the rows";
}

TEST(LldpcliText, HostSeesACumulusLeafThatAdvertisesPfcOnPriorityThree)
{
    auto ifaces = parseLldpcliText(
        readFile(realData("fabric/lldpcli-show-neighbors_host-to-cumulus-sn5600_schmaustech.txt")));
    ASSERT_TRUE(ifaces.ok()) << ifaces.error().message;
    ASSERT_EQ(ifaces->size(), 1u);
    const LldpInterface &net1 = ifaces->front();
    EXPECT_EQ(net1.netdev, "net1");
    EXPECT_EQ(net1.neighbor.systemName, "cumulus");
    EXPECT_EQ(net1.neighbor.chassisIdType, "mac");
    EXPECT_EQ(net1.neighbor.chassisId, "9c:63:c0:3a:23:f0");
    EXPECT_EQ(net1.neighbor.portIdType, "ifname");
    EXPECT_EQ(net1.neighbor.portId, "swp4s1");
    EXPECT_EQ(net1.neighbor.ttlSeconds, 300u);
    EXPECT_EQ(net1.neighbor.managementAddress, "10.6.156.1");
    EXPECT_EQ(net1.neighbor.ageSeconds, 1u * 3600 + 22 * 60 + 55);
    ASSERT_TRUE(net1.neighbor.pfcPriorities.has_value());
    EXPECT_EQ(*net1.neighbor.pfcPriorities, std::vector<uint32_t>{3});
}

TEST(LldpcliText, SwitchSideWithNamelessNeighboursAndMacPortIds)
{
    auto ifaces = parseLldpcliText(
        readFile(realData("fabric/lldpctl-filtered_cumulus-sn5600-switch-side_schmaustech.txt")));
    ASSERT_TRUE(ifaces.ok()) << ifaces.error().message;
    ASSERT_EQ(ifaces->size(), 8u);
    EXPECT_EQ((*ifaces)[0].netdev, "eth0");
    EXPECT_EQ((*ifaces)[0].neighbor.systemName, "sw01-access-f42.rdu3.redhat.com");
    EXPECT_EQ((*ifaces)[0].neighbor.portId, "ge-0/0/47");
    EXPECT_EQ((*ifaces)[2].neighbor.portIdType, "mac");
    EXPECT_EQ((*ifaces)[2].neighbor.portDescription, "net1");
    const LldpInterface &nameless = (*ifaces)[4];
    EXPECT_EQ(nameless.netdev, "swp16s0");
    EXPECT_TRUE(nameless.neighbor.systemName.empty());
    EXPECT_EQ(nameless.neighbor.portId, "c4:70:bd:c5:6f:79");
    EXPECT_FALSE(nameless.neighbor.pfcPriorities.has_value());
}

TEST(SonicPfcCounters, ThousandsSeparatorsOnEthernetSixPriorityThreeAndFour)
{
    auto rows = parseSonicPfcCounters(
        readFile(realData("fabric/sonic_show-pfc-counters_rx_sonic-buildimage-issue9453.txt")));
    ASSERT_TRUE(rows.ok()) << rows.error().message;
    ASSERT_EQ(rows->size(), 9u);
    const SwitchPfcCounters &e6 = (*rows)[3];
    EXPECT_EQ(e6.port, "Ethernet6");
    EXPECT_EQ(e6.direction, PfcDirection::Rx);
    EXPECT_EQ(e6.frames[3], 93'845u);
    EXPECT_EQ(e6.frames[4], 93'844u);
    EXPECT_EQ(e6.frames[0], 0u);
    EXPECT_EQ(rows->back().port, "Ethernet16");
    auto broken = parseSonicPfcCounters(
        "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
        "Ethernet0  0  0  0  9x  0  0  0  0\n");
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find("PFC3"), std::string::npos) << broken.error().message;
}

TEST(SonicPfcwd, TwoQueuesThatStormedTwiceAndRecovered)
{
    auto queues = parseSonicPfcwdStats(
        readFile(realData("fabric/sonic_show-pfcwd-stats_storm_sonic-buildimage-issue9430.txt")));
    ASSERT_TRUE(queues.ok()) << queues.error().message;
    ASSERT_EQ(queues->size(), 2u);
    const PfcWatchdogQueue &q = queues->front();
    EXPECT_EQ(q.port, "Ethernet4");
    EXPECT_EQ(q.queue, 3u);
    EXPECT_EQ(q.status, "operational");
    EXPECT_EQ(q.stormsDetected, 2u);
    EXPECT_EQ(q.stormsRestored, 2u);
    EXPECT_FALSE(q.stormOngoing());
    EXPECT_EQ(q.txDrop, 56'035u);
    EXPECT_EQ(q.rxOk, 14'053u);
    EXPECT_EQ(q.rxDrop, 371'184u);
}

TEST(FabricParsers, GarbageIsRefusedNotCrashedOn)
{
    // Its length from the array, not a count that can outrun the literal.
    const char raw[] = "\x01\x02\xff\xfe binary\0junk";
    const std::string garbage(raw, sizeof raw - 1);
    EXPECT_FALSE(parseMlnxQos(garbage).ok());
    EXPECT_FALSE(parseRdmaLink(garbage).ok());
    EXPECT_FALSE(parseShowGids(garbage).ok());
    EXPECT_FALSE(parseLldpcliText(garbage).ok());
    EXPECT_FALSE(parseSonicPfcCounters(garbage).ok());
    EXPECT_FALSE(parseSonicPfcwdStats(garbage).ok());
    EXPECT_FALSE(parseLldpcliText("").ok());
}
