// meridian-sim's fleet in process, reached over real loopback gRPC: 100+ nodes
// streaming to one client, agent faults, and idempotent cloud leases.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "childprocess.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "sim/ownpooldir.h"
#include "sim/simfleet.h"
#include "testsupport.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<v1::NodeAgent::Stub> stubFor(const std::string &address)
{
    return v1::NodeAgent::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

}  // namespace

TEST(SimFleet, HundredTwentyNodesStreamToOneClient)
{
    SimFleetOptions options;
    options.nodes = 120;
    SimFleet fleet(options, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    const auto nodes = fleet.nodes();
    ASSERT_EQ(nodes.size(), 120u);
    std::set<std::string> dcs;
    for (const auto &n : nodes)
        dcs.insert(n.dataCenter);
    EXPECT_EQ(dcs, (std::set<std::string>{"xiamen", "wuhu", "zhongwei"}));

    std::atomic<int> streamed{0};
    std::mutex failuresMutex;
    std::vector<std::string> failures;
    std::vector<std::thread> readers;
    for (const auto &node : nodes) {
        readers.emplace_back([&, address = node.address, id = node.nodeId] {
            // Like the console's client, one retry; a retry is reported, not hidden. The
            // retry is a new connection: on the old channel gRPC would answer from the
            // failed attempt until its reconnect backoff ends, which is no retry at all.
            std::string why;
            for (int attempt = 0; attempt < 2; ++attempt) {
                if (attempt > 0)
                    std::this_thread::sleep_for(200ms);
                auto stub = stubFor(address);
                grpc::ClientContext context;
                context.set_deadline(std::chrono::system_clock::now() + 15s);
                v1::StreamTelemetryRequest request;
                request.set_interval_ms(500);
                auto reader = stub->StreamTelemetry(&context, request);
                v1::TelemetryBatch batch;
                int good = 0;
                while (good < 2 && reader->Read(&batch))
                    good += batch.cards_size() == 8;
                context.TryCancel();
                const grpc::Status stream = reader->Finish();
                grpc::ClientContext invContext;
                invContext.set_deadline(std::chrono::system_clock::now() + 5s);
                v1::NodeInventory inventory;
                const grpc::Status status = stub->GetInventory(&invContext, {}, &inventory);
                if (good == 2 && status.ok() && inventory.node_id() == id) {
                    ++streamed;
                    return;
                }
                why = id + ": " + std::to_string(good) + " batches, stream " +
                      std::to_string(stream.error_code()) + " " + stream.error_message() +
                      ", inventory " + std::to_string(status.error_code()) + " " +
                      status.error_message();
                std::fprintf(stderr, "retrying %s\n", why.c_str());
            }
            std::lock_guard lock(failuresMutex);
            failures.push_back(why);
        });
    }
    for (auto &t : readers)
        t.join();
    EXPECT_EQ(streamed.load(), 120);
    for (const std::string &failure : failures)
        ADD_FAILURE() << failure;
    fleet.stop();
}

TEST(SimFleet, CrashedHungAndRecoveredAgents)
{
    SimFleetOptions options;
    options.nodes = 6;
    options.sampleIntervalMs = 200;
    SimFleet fleet(options, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    const auto nodes = fleet.nodes();
    auto crashed = stubFor(nodes[0].address);
    auto hung = stubFor(nodes[1].address);
    auto healthy = stubFor(nodes[2].address);
    FaultSpec crash;
    crash.nodeId = nodes[0].nodeId;
    crash.kind = FaultKind::Crash;
    FaultSpec hang = crash;
    hang.nodeId = nodes[1].nodeId;
    hang.kind = FaultKind::Hang;
    ASSERT_EQ(fleet.inject(crash).value(), 1);
    ASSERT_EQ(fleet.inject(hang).value(), 1);
    auto call = [](v1::NodeAgent::Stub &stub) {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + 3s);
        v1::NodeInventory inventory;
        return stub.GetInventory(&context, {}, &inventory).error_code();
    };
    EXPECT_EQ(call(*crashed), grpc::StatusCode::UNAVAILABLE);
    EXPECT_EQ(call(*hung), grpc::StatusCode::DEADLINE_EXCEEDED);
    EXPECT_EQ(call(*healthy), grpc::StatusCode::OK);  // one bad agent never slows the rest
    EXPECT_GE(fleet.clearFaults(""), 2);
    EXPECT_EQ(call(*crashed), grpc::StatusCode::OK);
    EXPECT_EQ(call(*hung), grpc::StatusCode::OK);
    fleet.stop();
}

TEST(SimFleet, LeaseIsIdempotentAndBecomesCloudNodes)
{
    SimFleetOptions options;
    options.nodes = 3;
    options.provisioningSeconds = 1;
    SimFleet fleet(options, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    auto pool = v1::CapacityPool::NewStub(
        grpc::CreateChannel(fleet.controlAddress(), grpc::InsecureChannelCredentials()));
    v1::LeaseRequest request;
    request.set_idempotency_key("scale-up-42");
    request.set_requested_by("simfleet-test");  // the pool has no tokens to tell callers apart
    request.set_offer_id("cn-south-910b");
    request.set_nodes(2);
    v1::LeaseResponse first;
    v1::LeaseResponse retry;
    {
        grpc::ClientContext c;
        ASSERT_TRUE(pool->Lease(&c, request, &first).ok());
    }
    {
        grpc::ClientContext c;
        ASSERT_TRUE(pool->Lease(&c, request, &retry).ok());
    }
    EXPECT_EQ(first.lease().lease_id(), retry.lease().lease_id());
    EXPECT_TRUE(retry.replayed());
    EXPECT_EQ(first.lease().state(), v1::LEASE_STATE_PROVISIONING);
    v1::ListLeasesResponse leases;
    for (int i = 0; i < 100; ++i) {
        std::this_thread::sleep_for(100ms);
        grpc::ClientContext c;
        leases.Clear();
        ASSERT_TRUE(pool->ListLeases(&c, {}, &leases).ok());
        if (leases.leases(0).state() == v1::LEASE_STATE_READY)
            break;
    }
    ASSERT_EQ(leases.leases_size(), 1);  // the retry rented nothing more
    ASSERT_EQ(leases.leases(0).state(), v1::LEASE_STATE_READY);
    ASSERT_EQ(leases.leases(0).leased_nodes_size(), 2);
    auto cloudNode = stubFor(leases.leases(0).leased_nodes(0).agent_address());
    grpc::ClientContext c;
    c.set_deadline(std::chrono::system_clock::now() + 5s);
    v1::NodeInventory inventory;
    ASSERT_TRUE(cloudNode->GetInventory(&c, {}, &inventory).ok());
    EXPECT_EQ(inventory.data_center(), "cloud");
    EXPECT_EQ(inventory.cards(0).vendor(), v1::VENDOR_HUAWEI);
    fleet.stop();
}

// The simulator's cloud is meridian-pool's own CapacityPool with a simulated provider: its
// books are a file, a lease is its owner's to give back, and a simulator started again on
// the same books fails the leases whose nodes died with the last run, saying so, while a
// retried key is still answered from the books and rents nothing more.
TEST(SimFleet, TheCloudIsTheRealPoolAndItsBooksOutliveARestart)
{
    test::TempDir dir;
    SimFleetOptions options;
    options.nodes = 2;
    options.provisioningSeconds = 0;
    options.poolDataDir = dir.path();
    v1::LeaseRequest request;
    request.set_idempotency_key("scale-up-7");
    request.set_offer_id("cn-east-a100");
    request.set_nodes(1);
    request.set_requested_by("scaled@xiamen");
    const auto leasesOf = [](v1::CapacityPool::Stub &pool) {
        grpc::ClientContext c;
        c.set_deadline(std::chrono::system_clock::now() + 5s);
        v1::ListLeasesResponse leases;
        EXPECT_TRUE(pool.ListLeases(&c, {}, &leases).ok());
        return leases;
    };
    std::string leaseId;
    {
        SimFleet fleet(options, SystemClock::instance());
        ASSERT_TRUE(fleet.start().ok());
        auto pool = v1::CapacityPool::NewStub(
            grpc::CreateChannel(fleet.controlAddress(), grpc::InsecureChannelCredentials()));
        v1::LeaseResponse leased;
        grpc::ClientContext c;
        ASSERT_TRUE(pool->Lease(&c, request, &leased).ok());
        leaseId = leased.lease().lease_id();
        ASSERT_TRUE(test::waitUntil([&] {
            const auto leases = leasesOf(*pool);
            return leases.leases_size() == 1 && leases.leases(0).state() == v1::LEASE_STATE_READY;
        }));
        v1::ReleaseRequest release;
        release.set_lease_id(leaseId);
        release.set_requested_by("someone-else");
        v1::ReleaseResponse released;
        grpc::ClientContext r;
        EXPECT_EQ(pool->Release(&r, release, &released).error_code(),
                  grpc::StatusCode::PERMISSION_DENIED)
            << "a lease is its owner's to give back";
    }
    SimFleet again(options, SystemClock::instance());
    ASSERT_TRUE(again.start().ok());
    auto pool = v1::CapacityPool::NewStub(
        grpc::CreateChannel(again.controlAddress(), grpc::InsecureChannelCredentials()));
    v1::Lease failed;
    ASSERT_TRUE(test::waitUntil([&] {
        const auto leases = leasesOf(*pool);
        if (leases.leases_size() != 1 || leases.leases(0).state() != v1::LEASE_STATE_FAILED)
            return false;
        failed = leases.leases(0);
        return true;
    })) << "the books still call a node that died with the last run ready";
    EXPECT_EQ(failed.lease_id(), leaseId);
    EXPECT_NE(failed.message().find("no longer holds it"), std::string::npos) << failed.message();
    v1::LeaseResponse retried;
    grpc::ClientContext c;
    ASSERT_TRUE(pool->Lease(&c, request, &retried).ok());
    EXPECT_TRUE(retried.replayed());
    EXPECT_EQ(retried.lease().lease_id(), leaseId);
    EXPECT_EQ(leasesOf(*pool).leases_size(), 1) << "the retry rented nothing more";
}

// A simulator killed with kill -9 cannot remove its cloud pool's books folder: the next
// simulator to start removes it, and an old one without a lock, but never a folder whose
// fleet still runs, one just made, or anything else.
TEST(SimFleet, APoolFolderLeftByAKilledSimulatorIsRemovedByTheNextOne)
{
    namespace fs = std::filesystem;
    test::TempDir tmp;
    ASSERT_EQ(::setenv("TMPDIR", tmp.path().c_str(), 1), 0);  // here and in the simulator
    const auto poolDirs = [&] {
        std::vector<std::string> names;
        for (const fs::directory_entry &entry : fs::directory_iterator(tmp.path())) {
            const std::string name = entry.path().filename().string();
            if (name.rfind(OwnPoolDir::kPrefix, 0) == 0)
                names.push_back(name);
        }
        std::sort(names.begin(), names.end());
        return names;
    };
    const auto lockOf = [&](const std::string &name) {
        return fs::path(tmp.path()) / name / OwnPoolDir::kLockFile;
    };
    std::string killed;
    {
        test::ChildProcess sim({MERIDIAN_SIM_BIN, "--nodes", "2"}, tmp.file("sim.log"));
        ASSERT_TRUE(test::waitUntil([&] {
            return poolDirs().size() == 1 && fs::exists(lockOf(poolDirs().front()));
        })) << sim.log();
        killed = poolDirs().front();
        sim.kill(SIGKILL);
        ASSERT_TRUE(test::waitUntil([&] { return sim.ended(); }));
    }
    ASSERT_EQ(poolDirs(), std::vector<std::string>{killed}) << "kill -9 left it behind";
    const fs::path unlockedOld = fs::path(tmp.path()) / (std::string(OwnPoolDir::kPrefix) + "old");
    const fs::path unlockedNew = fs::path(tmp.path()) / (std::string(OwnPoolDir::kPrefix) + "new");
    const fs::path stranger = fs::path(tmp.path()) / "someone-elses";
    for (const fs::path &dir : {unlockedOld, unlockedNew, stranger})
        fs::create_directory(dir);
    fs::last_write_time(unlockedOld, fs::file_time_type::clock::now() - std::chrono::minutes(5));

    auto running = OwnPoolDir::make();  // as the next simulator makes its own
    ASSERT_TRUE(running.ok()) << running.error().message;
    EXPECT_FALSE(fs::exists(fs::path(tmp.path()) / killed));
    EXPECT_FALSE(fs::exists(unlockedOld));
    EXPECT_TRUE(fs::exists(unlockedNew)) << "just made: its fleet takes the lock next";
    EXPECT_TRUE(fs::exists(stranger));
    EXPECT_TRUE(fs::exists(lockOf(fs::path(running->path()).filename().string())));

    auto another = OwnPoolDir::make();
    ASSERT_TRUE(another.ok());
    EXPECT_TRUE(fs::exists(running->path())) << "its fleet still runs";
    const std::string ended = another->path();
    another = Error{"let go"};
    EXPECT_FALSE(fs::exists(ended)) << "a fleet that ends removes its own";
    ::unsetenv("TMPDIR");
}

TEST(SimFleet, ADeadDataCenterGoesDarkWhileTheOthersAnswer)
{
    SimFleetOptions options;
    options.nodes = 12;
    SimFleet fleet(options, SystemClock::instance());
    ASSERT_TRUE(fleet.start().ok());
    FaultSpec dark;
    dark.dataCenter = "wuhu";
    dark.kind = FaultKind::Crash;
    const auto hit = fleet.inject(dark);
    ASSERT_TRUE(hit.ok());
    int wuhu = 0;
    for (const auto &node : fleet.nodes()) {
        wuhu += node.dataCenter == "wuhu";
        auto stub = stubFor(node.address);
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + 2s);
        v1::NodeInventory inventory;
        const auto code = stub->GetInventory(&context, {}, &inventory).error_code();
        EXPECT_EQ(code,
                  node.dataCenter == "wuhu" ? grpc::StatusCode::UNAVAILABLE : grpc::StatusCode::OK)
            << node.nodeId;
    }
    EXPECT_EQ(hit.value(), wuhu);
    dark.dataCenter = "atlantis";
    ASSERT_FALSE(fleet.inject(dark).ok());
    fleet.stop();
}
