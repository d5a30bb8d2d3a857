// The console's inventory file: what it accepts and how it says what is wrong.
#include <gtest/gtest.h>

#include <fstream>

#include "fleetlink/inventoryfile.h"
#include "testsupport.h"

using namespace meridian;

TEST(InventoryFile, DataCentersAgentsTlsAndToken)
{
    test::TempDir dir;
    std::ofstream(dir.file("token")) << "console-token-0123456789\n";
    std::ofstream(dir.file("ca.crt")) << "-----BEGIN CERTIFICATE-----\n";
    auto inventory = loadInventory(dir.write("inventory.yaml", R"(capacity_pool: 127.0.0.1:40000
tls: {ca_file: ca.crt}
token_file: token
data_centers:
  - name: xiamen
    agents:
      - {node: xm-r01-n1, address: 10.1.0.11:50051}
      - 10.1.0.12:50051
  - name: wuhu
    agents: [{address: "[::1]:50051"}]
)"));
    ASSERT_TRUE(inventory.ok()) << inventory.error().message;
    ASSERT_EQ(inventory->agents.size(), 3u);
    EXPECT_EQ(inventory->agents[0].nodeHint, "xm-r01-n1");
    EXPECT_EQ(inventory->agents[1].address, "10.1.0.12:50051");
    EXPECT_EQ(inventory->agents[2].dataCenter, "wuhu");
    EXPECT_EQ(inventory->security.caFile, dir.file("ca.crt"));  // relative to the file
    EXPECT_EQ(inventory->security.token, "console-token-0123456789");
    EXPECT_EQ(inventory->capacityPool, "127.0.0.1:40000");
}

TEST(InventoryFile, BrokenInventoriesNameFileLineAndProblem)
{
    test::TempDir dir;
    const auto error = [&](const std::string &text) {
        auto inventory = loadInventory(dir.write("inventory.yaml", text));
        EXPECT_FALSE(inventory.ok());
        return inventory.ok() ? std::string() : inventory.error().message;
    };
    const std::string file = dir.file("inventory.yaml");
    EXPECT_NE(error("data_centers:\n  - name: xiamen\n    agents:\n      - {address: nohost}\n")
                  .find(file + ":4: 'nohost' is not host:port"),
              std::string::npos);
    EXPECT_NE(error("data_centers:\n  - name: a\n    agents: [1.2.3.4:5, 1.2.3.4:5]\n")
                  .find("listed twice"),
              std::string::npos);
    EXPECT_NE(
        error("data_centers:\n  - agents: [1.2.3.4:5]\n").find(":2: a data center needs a name"),
        std::string::npos);
    EXPECT_NE(error("data_centers: [\n").find(file + ":"), std::string::npos);
    EXPECT_NE(error("data_centers: []\n").find("no agents"), std::string::npos);
    EXPECT_NE(error("tls: {cert_file: c}\ndata_centers: []\n").find("ca_file"), std::string::npos);
    // Fleet-wide settings put inside a data center were ignored: its agents were reached
    // in plaintext, without a token, and nothing said so.
    EXPECT_NE(error("data_centers:\n  - name: wuhu\n    tls: {ca_file: ca.pem}\n"
                    "    agents: [1.2.3.4:5]\n")
                  .find(file + ":3: tls: belongs at the top of the inventory, not inside data "
                               "center wuhu"),
              std::string::npos);
    EXPECT_NE(error("data_centers:\n  - name: wuhu\n    agents: [1.2.3.4:5]\n"
                    "    token_file: console.token\n")
                  .find(file + ":4: token_file: belongs at the top"),
              std::string::npos);
    EXPECT_NE(error("data_centers:\n  - name: wuhu\n    agent: [1.2.3.4:5]\n")
                  .find(file + ":3: unknown key 'agent'"),
              std::string::npos);
}

TEST(InventoryFile, StoresGlobalAndPerDataCenterBesideAgents)
{
    test::TempDir dir;
    std::ofstream(dir.file("vm.token")) << "store-token-0123456789\n";
    std::ofstream(dir.file("prom.pass")) << "s3cret\n";
    auto inventory = loadInventory(dir.write(
        "inventory.yaml",
        R"(prometheus: {url: "https://vm.ops:8428/select/0/prometheus", token_file: vm.token, scrape_interval_s: 30}
data_centers:
  - name: zhongwei
    prometheus: {url: "http://prom.zw:9090", user: meridian, password_file: prom.pass}
  - name: xiamen
    agents: [{node: xm-r01-n1, address: 10.1.0.11:50051}]
)"));
    ASSERT_TRUE(inventory.ok()) << inventory.error().message;
    ASSERT_EQ(inventory->stores.size(), 2u);
    EXPECT_EQ(inventory->stores[0].url, "https://vm.ops:8428/select/0/prometheus");
    EXPECT_EQ(inventory->stores[0].bearerToken, "store-token-0123456789");
    EXPECT_EQ(inventory->stores[0].scrapeIntervalS, 30);
    EXPECT_EQ(inventory->stores[0].dataCenter, "");
    EXPECT_EQ(inventory->stores[1].dataCenter, "zhongwei");
    EXPECT_EQ(inventory->stores[1].basicUser, "meridian");
    EXPECT_EQ(inventory->stores[1].basicPassword, "s3cret");
    ASSERT_EQ(inventory->agents.size(), 1u);

    // A store alone is a whole inventory.
    auto storeOnly =
        loadInventory(dir.write("inventory.yaml", "prometheus: {url: 'http://127.0.0.1:9090'}\n"));
    ASSERT_TRUE(storeOnly.ok()) << storeOnly.error().message;
    EXPECT_TRUE(storeOnly->agents.empty());
}

TEST(InventoryFile, BrokenStoresNameFileLineAndProblem)
{
    test::TempDir dir;
    const auto refused = [&](const std::string &text) {
        auto inventory = loadInventory(dir.write("inventory.yaml", text));
        return inventory.ok() ? std::string("accepted") : inventory.error().message;
    };
    EXPECT_NE(refused("prometheus: {url: 'prom:9090'}\n").find("inventory.yaml:1"),
              std::string::npos);
    EXPECT_NE(refused("prometheus: {url: 'prom:9090'}\n").find("http://"), std::string::npos);
    EXPECT_NE(refused("prometheus: {url: 'http://p:9090', scrape_interval_s: 0}\n")
                  .find("scrape_interval_s must be 1..3600"),
              std::string::npos);
    EXPECT_NE(refused("prometheus: {url: 'http://p:9090', token_file: missing.token}\n")
                  .find("missing.token"),
              std::string::npos);
    EXPECT_NE(refused("prometheus: {url: 'http://p:9090', scrape_interval_s: fifteen}\n")
                  .find("inventory.yaml:1"),
              std::string::npos);
}
