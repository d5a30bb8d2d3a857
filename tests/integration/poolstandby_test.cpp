// Warm standby in meridian-pool, as operators run it (tests/poolrig.h): a node brought up
// and prepared by itself, handed to a lease at once and replaced, outliving a kill -9; a
// paying lease that takes over the last node coming up to stand by rather than being
// refused; a standby lowered while a node comes up; a standby node that fails to come up
// not asked for again and again.
#include <gtest/gtest.h>

#include <filesystem>

#include "poolrig.h"

using namespace meridian;
using namespace meridian::pooltest;

namespace {

std::vector<v1::Lease> standbyLeases(v1::CapacityPool::Stub &stub, v1::LeaseState state)
{
    std::vector<v1::Lease> out;
    for (const v1::Lease &l : test::allPoolLeases(stub, /*waitForReady=*/true)) {
        if (l.standby() && l.state() == state)
            out.push_back(l);
    }
    return out;
}

uint32_t standbyNodesReady(v1::CapacityPool::Stub &stub)
{
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ListOffersResponse response;
    if (!stub.ListOffers(&context, {}, &response).ok() || response.offers().empty())
        return 0;
    return response.offers(0).standby_nodes_ready();
}

}  // namespace

TEST(PoolProcess, AStandbyNodeIsLeasedAtOnceReplacedAndOutlivesAKill9)
{
    Pool pool(/*bootSeconds=*/0.5, "", ", standby_nodes: 1, standby_price_cny_per_card_hour: 0.5");
    auto stub = pool.stub();
    // The pool brings one node up by itself, prepared, and holds it at the standby price.
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    const auto standing = standbyLeases(*stub, v1::LEASE_STATE_READY);
    ASSERT_EQ(standing.size(), 1u);
    EXPECT_EQ(standing[0].requested_by(), "meridian-pool standby");
    EXPECT_DOUBLE_EQ(standing[0].price_cny_per_card_hour(), 0.5);
    const std::string standbyNode = standing[0].leased_nodes(0).node_id();
    EXPECT_TRUE(std::filesystem::exists(pool.dir.file(standbyNode + ".weights")))
        << "the standby node was not prepared";

    // A one-node lease is READY in its answer, on that node, at the offer's price.
    const auto asked = std::chrono::steady_clock::now();
    v1::LeaseResponse taken;
    ASSERT_TRUE(lease(*stub, "scale-up-20-step-1", "spare-a100", "scaled@xm", taken).ok());
    EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(1));
    EXPECT_EQ(taken.lease().state(), v1::LEASE_STATE_READY);
    ASSERT_EQ(taken.lease().leased_nodes_size(), 1);
    EXPECT_EQ(taken.lease().leased_nodes(0).node_id(), standbyNode);
    EXPECT_EQ(taken.lease().taken_from(), standing[0].lease_id());
    EXPECT_DOUBLE_EQ(taken.lease().price_cny_per_card_hour(), 0);
    const auto given = leaseNamed(*stub, standing[0].lease_id());
    ASSERT_TRUE(given);
    EXPECT_EQ(given->state(), v1::LEASE_STATE_RELEASED) << "its standby hours go on";
    EXPECT_EQ(given->taken_by(), taken.lease().lease_id());

    // The other node is brought up to stand by in its place.
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    const std::string replacement =
        standbyLeases(*stub, v1::LEASE_STATE_READY).at(0).leased_nodes(0).node_id();
    EXPECT_NE(replacement, standbyNode);
    EXPECT_TRUE(std::filesystem::exists(pool.dir.file(replacement + ".weights")));

    // Killed and started again: the taken lease is still its owner's and still held (its
    // provider knows it by the standby lease's id), the key is answered from the books,
    // and no third node is asked for.
    pool.process->kill(SIGKILL);
    pool.start();
    stub = pool.stub();
    v1::LeaseResponse again;
    ASSERT_TRUE(lease(*stub, "scale-up-20-step-1", "spare-a100", "scaled@xm", again).ok());
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.lease().lease_id(), taken.lease().lease_id());
    ASSERT_TRUE(test::waitUntil([&] {
        return pool.process->log().find("provider spare: its list checked") != std::string::npos;
    })) << pool.process->log();
    EXPECT_EQ(leaseNamed(*stub, taken.lease().lease_id())->state(), v1::LEASE_STATE_READY)
        << pool.process->log();
    EXPECT_EQ(standbyLeases(*stub, v1::LEASE_STATE_READY).size(), 1u);

    // Given back by its owner, the node goes through the provider under the standby
    // lease's id and is powered off. One node standing by is what the offer asks: the
    // free node is not brought up too.
    ASSERT_TRUE(release(*stub, taken.lease().lease_id()).ok());
    ASSERT_TRUE(reaches(*stub, *stub, taken.lease().lease_id(), v1::LEASE_STATE_RELEASED));
    EXPECT_FALSE(
        nlohmann::json::parse(test::readFile(pool.dir.file("state.json")))["leases"].contains(
            standing[0].lease_id()));
    EXPECT_TRUE(test::holdsFor(
        [&] {
            return standbyLeases(*stub, v1::LEASE_STATE_READY).size() == 1u &&
                   standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).empty();
        },
        std::chrono::seconds(1)))
        << pool.process->log();

    // With standby_nodes lowered to 0, the next start gives both back.
    pool.process->kill(SIGTERM);
    pool.writeConfig("", "");
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return standbyLeases(*stub, v1::LEASE_STATE_READY).empty() &&
               standbyLeases(*stub, v1::LEASE_STATE_RELEASED).size() == 2;
    })) << pool.process->log();
    EXPECT_EQ(nlohmann::json::parse(test::readFile(pool.dir.file("state.json")))["leases"].size(),
              0u);
}

// The last free node is being brought up to stand by when a paying lease asks: the lease
// takes that node over as it comes up, rather than being refused while a node waits idle
// for nobody. The standby is refilled from the next node given back.
TEST(PoolProcess, APayingLeaseTakesOverTheLastNodeComingUpToStandBy)
{
    Pool pool(/*bootSeconds=*/2, "", ", standby_nodes: 1, standby_price_cny_per_card_hour: 0.5");
    auto stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    v1::LeaseResponse first;
    ASSERT_TRUE(lease(*stub, "scale-up-30-step-1", "spare-a100", "scaled@xm", first).ok());
    ASSERT_EQ(first.lease().state(), v1::LEASE_STATE_READY);
    // The pool now brings the other (and last) node up to stand by: two seconds of boot.
    ASSERT_TRUE(test::waitUntil([&] {
        return standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).size() == 1u;
    })) << pool.whatItSays(*stub);
    const std::string coming = standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING)[0].lease_id();

    v1::LeaseResponse second;
    const grpc::Status asked =
        lease(*stub, "scale-up-30-step-2", "spare-a100", "scaled@xm", second);
    ASSERT_TRUE(asked.ok()) << "a paying lease refused while a node came up to stand by: "
                            << asked.error_message();
    EXPECT_EQ(second.lease().state(), v1::LEASE_STATE_PROVISIONING);
    EXPECT_EQ(second.lease().taken_from(), coming);
    ASSERT_TRUE(reaches(*stub, *stub, second.lease().lease_id(), v1::LEASE_STATE_READY))
        << pool.process->log();
    const auto ready = leaseNamed(*stub, second.lease().lease_id());
    ASSERT_TRUE(ready && ready->leased_nodes_size() == 1);
    EXPECT_NE(ready->leased_nodes(0).node_id(), first.lease().leased_nodes(0).node_id());
    EXPECT_EQ(leaseNamed(*stub, coming)->state(), v1::LEASE_STATE_RELEASED);
    EXPECT_EQ(leaseNamed(*stub, coming)->taken_by(), second.lease().lease_id());
    EXPECT_EQ(standbyNodesReady(*stub), 0) << "no node is left to stand by";

    // Killed and started again: the lease is still held, under the standby lease's id.
    pool.process->kill(SIGKILL);
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return pool.process->log().find("provider spare: its list checked") != std::string::npos;
    })) << pool.process->log();
    EXPECT_EQ(leaseNamed(*stub, second.lease().lease_id())->state(), v1::LEASE_STATE_READY)
        << pool.process->log();

    // The first lease given back: its node stands by again.
    ASSERT_TRUE(release(*stub, first.lease().lease_id()).ok());
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
}

// Standby lowered while a standby node is still coming up: the next start lets that one go
// as soon as its provider answers, and keeps the one already standing by. It never stands
// by as a surplus billed until the pool next tops up.
TEST(PoolProcess, AStandbyNodeStillComingUpWhenStandbyIsLoweredIsLetGo)
{
    // Long enough a boot to be caught in it (the pool is killed as soon as it is seen).
    Pool pool(/*bootSeconds=*/1, "", ", standby_nodes: 1");
    auto stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] { return standbyNodesReady(*stub) == 1; }))
        << pool.whatItSays(*stub);
    // Asked for a second, the pool is killed while that node boots.
    pool.process->kill(SIGTERM);
    pool.writeConfig("", ", standby_nodes: 2");
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).size() == 1;
    })) << pool.process->log();
    const std::string comingUp =
        standbyLeases(*stub, v1::LEASE_STATE_PROVISIONING).at(0).lease_id();
    pool.process->kill(SIGKILL);

    pool.writeConfig("", ", standby_nodes: 1");
    pool.start();
    stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        const auto lease = leaseNamed(*stub, comingUp);
        return lease && lease->state() == v1::LEASE_STATE_RELEASED;
    })) << pool.process->log();
    EXPECT_EQ(leaseNamed(*stub, comingUp)->message(), "standby_nodes lowered in the configuration");
    EXPECT_EQ(standbyLeases(*stub, v1::LEASE_STATE_READY).size(), 1u)
        << "the node already standing by stays";
    EXPECT_EQ(standbyNodesReady(*stub), 1u);
}

TEST(PoolProcess, AStandbyNodeThatFailsToComeUpIsNotAskedForAgainAndAgain)
{
    // A provider whose leases fail and whose releases succeed: each failed standby lease
    // is given back at once, which must not free the way for the next attempt.
    const std::string flaky =
        "  - name: flaky\n"
        "    command: [sh, -c, 'if [ \"$1\" = lease ]; then echo no capacity >&2; exit 2; fi;"
        " echo \"{}\"', plugin]\n"
        "    offers: [{offer_id: flaky-h100, vendor: nvidia, card_model: H100, nodes: 4,"
        " standby_nodes: 1}]\n";
    Pool pool(0, flaky);
    auto stub = pool.stub();
    ASSERT_TRUE(test::waitUntil([&] {
        return !standbyLeases(*stub, v1::LEASE_STATE_FAILED).empty();
    })) << pool.process->log();
    // The top-up follows a failed standby's release at once, with no pause between tries:
    // had it asked again, a second would hold dozens of failed leases.
    EXPECT_TRUE(
        test::holdsFor([&] { return standbyLeases(*stub, v1::LEASE_STATE_FAILED).size() == 1u; },
                       std::chrono::seconds(1)))
        << "the pool kept asking a failing provider";
    const auto failed = standbyLeases(*stub, v1::LEASE_STATE_FAILED);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].message().rfind("provider flaky: lease: sh: exit status 2: no capacity", 0),
              0u)
        << failed[0].message();
}
