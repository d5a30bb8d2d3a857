// The console's inventory file: what it accepts and how it says what is wrong.
#include <gtest/gtest.h>

#include <fstream>

#include "testsupport.h"
#include "transport/inventoryfile.h"

using namespace meridian;

namespace {

std::string write(const test::TempDir &dir, const std::string &text)
{
    const std::string path = dir.file("inventory.yaml");
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(InventoryFile, DataCentersAgentsTlsAndToken)
{
    test::TempDir dir;
    std::ofstream(dir.file("token")) << "console-token-0123456789\n";
    std::ofstream(dir.file("ca.crt")) << "-----BEGIN CERTIFICATE-----\n";
    auto inventory = loadInventory(write(dir, R"(capacity_pool: 127.0.0.1:40000
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
        auto inventory = loadInventory(write(dir, text));
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
}
