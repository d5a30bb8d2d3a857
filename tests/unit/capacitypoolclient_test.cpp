// The controller's client of the capacity pool against a pool on loopback that takes its
// time giving a node back: a lease it released keeps being listed as held for a while,
// and its node's agent must not be followed again meanwhile.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>

#include "agentprocess.h"
#include "autoscaler/scalingclients.h"
#include "core/clock.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"

using namespace meridian;

namespace {

// One ready lease of one node; a release is taken, and the list goes on showing the lease
// held until `releasedInList` is set, as a pool does while the provider gives it back.
class SlowToReleasePool final : public v1::CapacityPool::Service {
public:
    grpc::Status ListLeases(grpc::ServerContext *, const v1::ListLeasesRequest *,
                            v1::ListLeasesResponse *response) override
    {
        v1::Lease *lease = response->add_leases();
        lease->set_lease_id("lease-1");
        lease->set_idempotency_key("chat-1-1");
        lease->set_region("xiamen");
        lease->set_nodes(1);
        lease->set_cards_per_node(8);
        lease->set_price_cny_per_card_hour(2.5);
        lease->set_state(releasedInList ? v1::LEASE_STATE_RELEASED : v1::LEASE_STATE_READY);
        if (releasedInList)
            lease->set_released_unix_ms(1'800'000'000'000);
        v1::LeasedNode *node = lease->add_leased_nodes();
        node->set_node_id("cloud-lease-1-n1");
        node->set_agent_address("127.0.0.1:50051");
        response->set_now_unix_ms(poolNowMs);
        return grpc::Status::OK;
    }
    grpc::Status Release(grpc::ServerContext *, const v1::ReleaseRequest *request,
                         v1::ReleaseResponse *) override
    {
        released = request->lease_id();
        return grpc::Status::OK;
    }
    std::atomic<bool> releasedInList{false};
    std::atomic<int64_t> poolNowMs{0};
    std::string released;
};

}  // namespace

TEST(CapacityPoolClient, AReleasedLeasesAgentIsNotFollowedAgainWhileThePoolStillListsItHeld)
{
    SlowToReleasePool pool;
    int port = 0;
    const std::unique_ptr<grpc::Server> server = test::serveOnLoopback(pool, port);
    ASSERT_TRUE(server);
    GrpcCapacityPool client("127.0.0.1:" + std::to_string(port), ClientSecurity{},
                            SystemClock::instance(), 5000, "scaled@xiamen");

    ASSERT_TRUE(client.leases().ok());
    ASSERT_EQ(client.lastLeases().agents.size(), 1u);
    EXPECT_EQ(client.lastLeases().agents[0].address, "127.0.0.1:50051");

    ASSERT_TRUE(client.release("lease-1").ok());
    EXPECT_EQ(pool.released, "lease-1");
    EXPECT_TRUE(client.lastLeases().agents.empty()) << "its node is going: not followed";
    // The pool still lists it as held, for as many lists as it takes.
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(client.leases().ok());
        EXPECT_TRUE(client.lastLeases().agents.empty())
            << "the released lease's agent was followed again (list " << i << ")";
        ASSERT_EQ(client.lastLeases().leases.size(), 1u) << "the books still show the lease";
    }
    pool.releasedInList = true;
    ASSERT_TRUE(client.leases().ok());
    EXPECT_TRUE(client.lastLeases().agents.empty());
}

// Paid hours are counted on the pool's clock: what it said, carried forward on this host's
// monotonic clock, whatever this host's wall clock reads; this host's own where it never
// said.
TEST(CapacityPoolClient, ThePoolsClockIsCarriedForwardOnTheMonotonicOneNotTheWallClock)
{
    SlowToReleasePool pool;
    int port = 0;
    const std::unique_ptr<grpc::Server> server = test::serveOnLoopback(pool, port);
    ASSERT_TRUE(server);
    ManualClock clock(1'800'000'000'000);
    GrpcCapacityPool client("127.0.0.1:" + std::to_string(port), ClientSecurity{}, clock);

    ASSERT_TRUE(client.leases().ok());
    EXPECT_EQ(poolNowUnixMs(client.lastLeases(), 1'800'003'240'000, clock.steadyMs()),
              1'800'003'240'000)
        << "a pool that says nothing: this host's clock";

    pool.poolNowMs = 1'700'000'000'000;
    ASSERT_TRUE(client.leases().ok());
    clock.advanceMs(90'000);
    // This host's wall clock set 54 minutes ahead changes nothing; 90 s did pass.
    EXPECT_EQ(poolNowUnixMs(client.lastLeases(), clock.nowUnixMs() + 54 * 60'000, clock.steadyMs()),
              1'700'000'090'000);
}
