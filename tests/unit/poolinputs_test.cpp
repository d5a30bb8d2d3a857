// What an operator can get wrong around the pool: its configuration file, a books file
// that is not ours or is damaged, the local provider's nodes file and what it is handed
// on stdin. Each is refused with the file and line (or what was wrong), never guessed.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>

#include <fstream>
#include <sstream>

#include "childprocess.h"
#include "pool/leasebook.h"
#include "pool/localprovider.h"
#include "pool/poolconfig.h"
#include "testsupport.h"

using namespace meridian;

namespace {

std::string configError(const test::TempDir &dir, const std::string &text)
{
    const std::string path = dir.file("pool.yaml");
    std::ofstream(path) << text;
    PoolConfig config;
    const Status status = loadPoolConfig(path, config);
    EXPECT_FALSE(status.ok()) << text;
    return status.ok() ? std::string() : status.message();
}

constexpr const char *kProvider =
    "providers:\n"
    "  - name: spare\n"
    "    command: [meridian-pool, local-provider]\n"
    "    offers:\n";

}  // namespace

TEST(PoolInputs, ABrokenConfigurationIsNamedByLine)
{
    test::TempDir dir;
    EXPECT_NE(configError(dir, "listen: 0.0.0.0:50071\nlisten_port: 5\n").find("pool.yaml:2"),
              std::string::npos);
    EXPECT_NE(configError(dir, "data_dir: /tmp\n").find("providers:"), std::string::npos);
    EXPECT_NE(configError(dir, "providers:\n  - name: spare\n    offers: []\n")
                  .find("a provider needs name: and command:"),
              std::string::npos);
    EXPECT_NE(configError(dir, std::string(kProvider) +
                                   "      - {offer_id: a, vendor: intel, card_model: A100}\n")
                  .find("pool.yaml:5"),
              std::string::npos);
    EXPECT_NE(configError(dir, std::string(kProvider) +
                                   "      - {offer_id: a, vendor: nvidia, card_model: B300}\n")
                  .find("pool.yaml:5: card model 'B300' is not one Meridian knows"),
              std::string::npos);
    EXPECT_NE(
        configError(dir, std::string(kProvider) +
                             "      - {offer_id: a, vendor: nvidia, card_model: A100}\n"
                             "      - {offer_id: a, vendor: nvidia, card_model: Ascend 910B}\n")
            .find("a second offer a"),
        std::string::npos);
    EXPECT_NE(configError(dir, std::string(kProvider) +
                                   "      - {offer_id: a, vendor: nvidia, card_model: A100, "
                                   "cards_per_node: eight}\n")
                  .find("pool.yaml:5"),
              std::string::npos);
    EXPECT_NE(configError(dir, std::string(kProvider) +
                                   "      - {offer_id: a, vendor: nvidia, card_model: A100}\n"
                                   "tokens: [{name: x, role: operator, token: short}]\n")
                  .find("at least 16 characters"),
              std::string::npos);
    // More nodes standing by than the offer has, or a negative standby price.
    EXPECT_NE(configError(dir, std::string(kProvider) +
                                   "      - {offer_id: a, vendor: nvidia, card_model: A100, "
                                   "nodes: 2, standby_nodes: 3}\n")
                  .find("pool.yaml:5: standby_nodes: 0..nodes (2)"),
              std::string::npos);
    EXPECT_NE(configError(dir, std::string(kProvider) +
                                   "      - {offer_id: a, vendor: nvidia, card_model: A100, "
                                   "nodes: 2, standby_nodes: 1, "
                                   "standby_price_cny_per_card_hour: -1}\n")
                  .find("pool.yaml:5"),
              std::string::npos);
}

TEST(PoolInputs, BooksThatAreNotOursOrDamagedAreNamedAndLeftAlone)
{
    test::TempDir dir;
    const std::string garbage = "this is not a database, it is a shopping list\n";
    std::ofstream(dir.file("pool.db")) << garbage;
    auto book = LeaseBook::open(dir.path());
    ASSERT_FALSE(book.ok());
    EXPECT_NE(book.error().message.find(dir.file("pool.db")), std::string::npos)
        << book.error().message;
    EXPECT_EQ(test::readFile(dir.file("pool.db")), garbage) << "never overwritten";

    // A FIFO in its place is named for what it is, not read ("disk I/O error").
    test::TempDir other;
    ASSERT_EQ(::mkfifo(other.file("pool.db").c_str(), 0600), 0);
    auto fifo = LeaseBook::open(other.path());
    ASSERT_FALSE(fifo.ok());
    EXPECT_NE(fifo.error().message.find("pool.db: not a regular file"), std::string::npos)
        << fifo.error().message;
}

TEST(PoolInputs, TheLocalProviderRefusesWhatItCannotUse)
{
    test::TempDir dir;
    const std::string nodes = dir.file("nodes.yaml"), state = dir.file("state.json");
    std::ofstream(nodes) << "nodes:\n  - {node_id: n1, agent_address: 127.0.0.1:1}\n";
    const auto run = [&](const std::string &verb, const std::string &input, std::string &err) {
        std::istringstream in(input);
        std::ostringstream out, errors;
        const int status = runLocalProvider(nodes, state, verb, in, out, errors);
        err = errors.str();
        return status;
    };
    std::string err;
    EXPECT_EQ(run("lease", "Welcome!", err), 2);
    EXPECT_NE(err.find("not a JSON object"), std::string::npos);
    EXPECT_EQ(run("lease", "{}", err), 2);
    EXPECT_NE(err.find("lease_id is required"), std::string::npos);
    EXPECT_EQ(run("lease", R"({"lease_id": "L1", "nodes": 2})", err), 3);
    EXPECT_NE(err.find("only 1 of 2 spare nodes are free"), std::string::npos);
    EXPECT_EQ(run("reboot", R"({"lease_id": "L1"})", err), 2);
    EXPECT_NE(err.find("unknown verb 'reboot'"), std::string::npos);
    std::ofstream(nodes) << "nodes:\n  - {node_id: n1}\n";
    EXPECT_EQ(run("list", "{}", err), 2);
    EXPECT_NE(err.find("nodes.yaml:2"), std::string::npos) << err;
    // A damaged state file is refused by name, never read as "no leases".
    std::ofstream(nodes) << "nodes:\n  - {node_id: n1, agent_address: 127.0.0.1:1}\n";
    for (const char *damaged :
         {"{\"leases\": [truncated", "[]", "{\"leases\": {\"L1\": {\"nodes\": [7]}}}", ""}) {
        std::ofstream(state) << damaged;
        EXPECT_EQ(run("list", "{}", err), 2) << damaged;
        EXPECT_NE(err.find("state.json: damaged"), std::string::npos) << err;
        EXPECT_EQ(test::readFile(state), damaged) << "never overwritten";
    }
}

// The real program, as the pool runs it: a lease of n1, then the state file emptied (a
// crash mid-write once could, or a careless `: > state.json`). The next lease is refused
// naming the file, where it used to be handed n1 again; the same for a state file removed.
TEST(PoolInputs, TheLocalProviderNeverLeasesANodeTwiceFromADamagedState)
{
    test::TempDir dir;
    const std::string nodes = dir.file("nodes.yaml"), state = dir.file("state.json");
    std::ofstream(nodes) << "ready_timeout_seconds: 1\n"
                            "nodes:\n  - {node_id: n1, agent_address: 127.0.0.1:1}\n"
                            "  - {node_id: n2, agent_address: 127.0.0.1:1}\n";
    const auto lease = [&](const std::string &id, std::string &said) {
        test::ChildProcess provider(
            {"/bin/sh", "-c",
             fmt::format("echo '{{\"lease_id\": \"{}\"}}' | {} local-provider --nodes {} "
                         "--state {} lease",
                         id, MERIDIAN_POOL_BIN, nodes, state)},
            dir.file(id + ".log"));
        EXPECT_TRUE(test::waitUntil([&] { return provider.ended(); }, std::chrono::seconds(10)));
        said = provider.log();
        return WIFEXITED(provider.waitStatus()) ? WEXITSTATUS(provider.waitStatus()) : -1;
    };
    std::string said;
    // Its agent never answers (port 1): the lease is written, then the wait fails (4).
    const int first = lease("L1", said);
    EXPECT_NE(test::readFile(state).find("\"n1\""), std::string::npos) << first << said;
    std::ofstream(state, std::ios::trunc).flush();
    EXPECT_EQ(lease("L2", said), 2) << said;
    EXPECT_NE(said.find("state.json: damaged (empty)"), std::string::npos) << said;
    std::filesystem::remove(state);
    EXPECT_EQ(lease("L3", said), 2) << said;
    EXPECT_NE(said.find("state.json: missing, though leases were kept here before"),
              std::string::npos)
        << said;
}

// Two calls at once on a fresh state: the second may take the lock between the first
// making the lock file and locking it. An empty lock file is such a first call's, not
// the trace of leases kept before, so the state starts fresh; once a call has kept the
// state, the lock file says so and a missing state is refused.
TEST(PoolInputs, TheLocalProviderTakesAnUnmarkedLockFileForAFirstCall)
{
    test::TempDir dir;
    const std::string nodes = dir.file("nodes.yaml"), state = dir.file("state.json");
    std::ofstream(nodes) << "nodes:\n  - {node_id: n1, agent_address: 127.0.0.1:1}\n";
    const auto list = [&](std::string &said) {
        test::ChildProcess provider(
            {"/bin/sh", "-c",
             fmt::format("echo '{{}}' | {} local-provider --nodes {} --state {} list",
                         MERIDIAN_POOL_BIN, nodes, state)},
            dir.file("list.log"));
        EXPECT_TRUE(test::waitUntil([&] { return provider.ended(); }, std::chrono::seconds(10)));
        said = provider.log();
        return WIFEXITED(provider.waitStatus()) ? WEXITSTATUS(provider.waitStatus()) : -1;
    };
    std::ofstream(state + ".lock").flush();  // made by a first call that has not locked it yet
    std::string said;
    EXPECT_EQ(list(said), 0) << said;
    EXPECT_TRUE(std::filesystem::exists(state));
    EXPECT_GT(std::filesystem::file_size(state + ".lock"), 0u) << "the lock file is not marked";
    std::filesystem::remove(state);
    EXPECT_EQ(list(said), 2) << said;
    EXPECT_NE(said.find("state.json: missing, though leases were kept here before"),
              std::string::npos)
        << said;
}

TEST(PoolInputs, ThePoolDoesNotStartOnDamagedBooksAndSaysWhichFile)
{
    test::TempDir dir;
    std::ofstream(dir.file("pool.yaml"))
        << "listen: 127.0.0.1:0\ndata_dir: " << dir.path() << "\n"
        << kProvider << "      - {offer_id: a, vendor: nvidia, card_model: A100}\n";
    std::ofstream(dir.file("pool.db")) << "not sqlite";
    test::ChildProcess pool({MERIDIAN_POOL_BIN, "--config", dir.file("pool.yaml")},
                            dir.file("pool.log"));
    ASSERT_TRUE(
        test::waitUntil([&] { return pool.log().find("meridian-pool:") != std::string::npos; },
                        std::chrono::seconds(10)));
    EXPECT_NE(pool.log().find(dir.file("pool.db")), std::string::npos) << pool.log();
    EXPECT_EQ(pool.log().find("serving on"), std::string::npos);
}
