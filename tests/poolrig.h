// A meridian-pool of a test's own (pool/ and tests/integration): the daemon over loopback
// gRPC with TLS and a token, its `local` provider run as an exec plugin, two spare nodes
// whose "power on" starts a real meridian-agent; and the calls the pool's cases make of it.
#pragma once

#include <fmt/format.h>
#include <grpcpp/channel.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "agentprocess.h"
#include "childprocess.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "poolleases.h"
#include "testsupport.h"
#include "wire/security.h"

namespace meridian::pooltest {

inline constexpr const char *kToken = "pool-operator-token-0123456789";
// Another controller's: an operator too, but not the owner of the first one's leases.
inline constexpr const char *kOtherToken = "wuhu-operator-token-0123456789";

struct Pool {
    test::TempDir dir;
    std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    std::vector<std::string> agentAddresses;
    std::unique_ptr<test::ChildProcess> process;

    // Two spare nodes whose power-on starts a real agent after `bootSeconds`. Powering on
    // a node that is on, or still booting, does nothing, as `ipmitool power on` would: a
    // second agent would find the port taken, and the first would outlive the test.
    explicit Pool(double bootSeconds = 0, const std::string &extraProviders = "",
                  const std::string &offerExtra = "")
    {
        std::ofstream nodes(dir.file("nodes.yaml"));
        nodes << "ready_timeout_seconds: 30\nnodes:\n";
        for (int i = 1; i <= 2; ++i) {
            const std::string node = "spare-" + std::to_string(i);
            const std::string on = dir.file(node + ".on"), pidFile = dir.file(node + ".pid");
            agentAddresses.push_back("127.0.0.1:" + std::to_string(test::freePort()));
            const std::string start = fmt::format(
                "mkdir {} 2>/dev/null || exit 0; sleep {}; {} --listen {} --collector sim "
                "--data-dir {} > {} 2>&1 & echo $! > {}",
                on, bootSeconds, MERIDIAN_AGENT_BIN, agentAddresses.back(),
                dir.file(node + "-data"), dir.file(node + ".log"), pidFile);
            const std::string stop = fmt::format("kill $(cat {}); rmdir {}", pidFile, on);
            // Standby nodes are prepared: the weights put on their disk.
            const std::string prepare = "touch " + dir.file(node + ".weights");
            nodes << "  - node_id: " << node << "\n"
                  << "    agent_address: " << agentAddresses.back() << "\n"
                  << "    power_on: [sh, -c, " << nlohmann::json(start).dump() << "]\n"
                  << "    power_off: [sh, -c, " << nlohmann::json(stop).dump() << "]\n"
                  << "    prepare: [sh, -c, " << nlohmann::json(prepare).dump() << "]\n";
        }
        nodes.close();  // whole before the pool's provider first reads it
        test::makeLocalhostCertificate(dir.file("pool.key"), dir.file("pool.crt"));
        writeConfig(extraProviders, offerExtra);
        start();
    }
    // The pool's file; `offerExtra` goes inside the spare offer's braces.
    void writeConfig(const std::string &extraProviders, const std::string &offerExtra)
    {
        std::ofstream(dir.file("pool.yaml"))
            << "listen: " << address << "\n"
            << "tls: {cert_file: " << dir.file("pool.crt") << ", key_file: " << dir.file("pool.key")
            << "}\n"
            << "data_dir: " << dir.file("books") << "\n"
            << "tokens: [{name: scaled, role: operator, token: " << kToken << "},\n"
            << "         {name: scaled-wuhu, role: operator, token: " << kOtherToken << "}]\n"
            << "providers:\n"
            << "  - name: spare\n"
            << "    command: [" << MERIDIAN_POOL_BIN << ", local-provider, --nodes, "
            << dir.file("nodes.yaml") << ", --state, " << dir.file("state.json") << "]\n"
            << "    timeout_seconds: 60\n"
            << "    offers:\n"
            << "      - {offer_id: spare-a100, region: xiamen, vendor: nvidia, card_model: A100, "
               "cards_per_node: 8, nodes: 2, price_cny_per_card_hour: 0"
            << offerExtra << "}\n"
            << extraProviders;
    }
    ~Pool()
    {
        process.reset();
        for (int i = 1; i <= 2; ++i) {
            const std::string pid = test::readFile(dir.file("spare-" + std::to_string(i) + ".pid"));
            if (!pid.empty())
                ::kill(std::stoi(pid), SIGTERM);
        }
    }
    // Returns once the pool serves (or has ended), so no test calls it before it listens.
    void start()
    {
        process = std::make_unique<test::ChildProcess>(
            std::vector<std::string>{MERIDIAN_POOL_BIN, "--config", dir.file("pool.yaml")},
            dir.file("pool.log"));
        EXPECT_TRUE(process->untilLogSays("serving on")) << process->log();
    }
    // For failure messages: the pool's log, what the spare nodes' agents said and whether
    // they are on, and the pool's books as `stub` reads them.
    std::string whatItSays(v1::CapacityPool::Stub &stub) const
    {
        std::string text = process->log() + nodeLogs();
        const std::vector<v1::Lease> leases = test::allPoolLeases(stub, /*waitForReady=*/true);
        text += leases.empty() ? "--- the pool lists no lease, or did not answer\n"
                               : "--- the pool's leases:\n";
        for (const v1::Lease &l : leases)
            text += fmt::format("{} {} standby={} nodes={} {}\n", l.lease_id(),
                                v1::LeaseState_Name(l.state()), l.standby(), l.leased_nodes_size(),
                                l.message());
        return text;
    }
    // What the spare nodes' agents said, and whether they are on.
    std::string nodeLogs() const
    {
        std::string text;
        for (int i = 1; i <= 2; ++i) {
            const std::string node = "spare-" + std::to_string(i);
            text += fmt::format("--- {} ({}):\n{}", node,
                                std::filesystem::exists(dir.file(node + ".on")) ? "on" : "off",
                                test::readFile(dir.file(node + ".log")));
        }
        return text;
    }
    std::unique_ptr<v1::CapacityPool::Stub> stub(const std::string &token = kToken) const
    {
        ClientSecurity security;
        security.caFile = dir.file("pool.crt");
        security.token = token;
        return v1::CapacityPool::NewStub(makeChannel(address, security));
    }
};

inline grpc::Status lease(v1::CapacityPool::Stub &stub, const std::string &key,
                          const std::string &offer, const std::string &owner,
                          v1::LeaseResponse &response)
{
    grpc::ClientContext context;
    test::withDeadline(context, std::chrono::seconds(10));
    context.set_wait_for_ready(true);
    v1::LeaseRequest request;
    request.set_idempotency_key(key);
    request.set_offer_id(offer);
    request.set_nodes(1);
    request.set_requested_by(owner);
    return stub.Lease(&context, request, &response);
}

// The owner gives a lease back.
inline grpc::Status release(v1::CapacityPool::Stub &stub, const std::string &id,
                            const std::string &owner = "scaled@xm")
{
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ReleaseRequest request;
    request.set_lease_id(id);
    request.set_requested_by(owner);
    v1::ReleaseResponse response;
    return stub.Release(&context, request, &response);
}

inline std::optional<v1::Lease> leaseNamed(v1::CapacityPool::Stub &stub, const std::string &id)
{
    for (const v1::Lease &l : test::allPoolLeases(stub, /*waitForReady=*/true)) {
        if (l.lease_id() == id)
            return l;
    }
    return std::nullopt;
}

inline bool reaches(const v1::CapacityPool::Stub &, v1::CapacityPool::Stub &stub,
                    const std::string &id, v1::LeaseState state)
{
    return test::waitUntil([&] {
        const auto l = leaseNamed(stub, id);
        return l && l->state() == state;
    });
}

}  // namespace meridian::pooltest
