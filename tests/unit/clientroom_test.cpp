// The front door's shares: what one token, one address and the read-only role may hold,
// and the networks pending connections are counted in.
#include <gtest/gtest.h>

#include <vector>

#include "wire/clientroom.h"
#include "wire/hostport.h"

using namespace meridian;

namespace {

RoomLimits smallRoom()
{
    RoomLimits limits;
    limits.total = 8;
    limits.perToken = 3;
    limits.perAddress = 4;
    limits.operatorReserve = 2;
    return limits;
}

}  // namespace

TEST(ClientRoom, OneTokenHoldsItsShareAndNoMore)
{
    auto room = ClientRoom::create("connections", smallRoom());
    std::vector<ClientRoom::Slot> held;
    for (int i = 0; i < 3; ++i) {
        auto slot = room->take({"desk", "10.0.0." + std::to_string(i), Role::ReadOnly});
        ASSERT_TRUE(slot.ok()) << slot.error().message;
        held.push_back(std::move(slot).value());
    }
    const auto fourth = room->take({"desk", "10.0.0.9", Role::ReadOnly});
    ASSERT_FALSE(fourth.ok());
    EXPECT_NE(fourth.error().message.find("token 'desk' holds 3 connections"), std::string::npos)
        << fourth.error().message;
    // Another token from the same addresses still has room.
    EXPECT_TRUE(room->take({"console", "10.0.0.1", Role::ReadOnly}).ok());
    // A slot given back is room again.
    held.pop_back();
    EXPECT_EQ(room->heldBy("desk"), 2u);
    EXPECT_TRUE(room->take({"desk", "10.0.0.9", Role::ReadOnly}).ok());
}

TEST(ClientRoom, OneAddressHoldsItsShareWhateverReadOnlyTokensItUses)
{
    auto room = ClientRoom::create("streams", smallRoom());
    std::vector<ClientRoom::Slot> held;
    for (const char *token : {"a", "b", "c", "d"})
        held.push_back(std::move(room->take({token, "192.0.2.7", Role::ReadOnly})).value());
    const auto fifth = room->take({"e", "192.0.2.7", Role::ReadOnly});
    ASSERT_FALSE(fifth.ok());
    EXPECT_NE(fifth.error().message.find("192.0.2.7 holds 4 streams"), std::string::npos)
        << fifth.error().message;
    EXPECT_TRUE(room->take({"e", "192.0.2.8", Role::ReadOnly}).ok());
    // An operator behind the same address is not refused for it.
    EXPECT_TRUE(room->take({"ops", "192.0.2.7", Role::Operator}).ok());
}

TEST(ClientRoom, ReadOnlyClientsNeverTakeTheOperatorsReserve)
{
    auto room = ClientRoom::create("connections", smallRoom());
    std::vector<ClientRoom::Slot> held;
    // Many read-only tokens, each within its share, fill all but the reserve.
    for (int i = 0; i < 6; ++i)
        held.push_back(std::move(room->take({"ro" + std::to_string(i),
                                             "10.0.1." + std::to_string(i), Role::ReadOnly}))
                           .value());
    const auto more = room->take({"ro9", "10.0.1.9", Role::ReadOnly});
    ASSERT_FALSE(more.ok());
    EXPECT_NE(more.error().message.find("kept for operators"), std::string::npos);
    auto first = room->take({"ops", "10.0.2.1", Role::Operator});
    auto second = room->take({"ops", "10.0.2.1", Role::Operator});
    EXPECT_TRUE(first.ok());
    EXPECT_TRUE(second.ok());
    // Now the room is full for everyone.
    const auto full = room->take({"ops2", "10.0.2.2", Role::Operator});
    ASSERT_FALSE(full.ok());
    EXPECT_NE(full.error().message.find("the most this server holds"), std::string::npos);
    EXPECT_EQ(room->held(), 8u);
}

TEST(ClientRoom, AMovedSlotIsGivenBackOnce)
{
    auto room = ClientRoom::create("connections", smallRoom());
    {
        auto slot = std::move(room->take({"desk", "10.0.0.1", Role::ReadOnly})).value();
        ClientRoom::Slot moved = std::move(slot);
        ClientRoom::Slot assigned;
        assigned = std::move(moved);
        EXPECT_TRUE(assigned.held());
        EXPECT_EQ(room->held(), 1u);
    }
    EXPECT_EQ(room->held(), 0u);
    EXPECT_EQ(room->heldBy("desk"), 0u);
}

TEST(ClientRoom, TheHouseSharesFollowTheTotal)
{
    const RoomLimits limits = RoomLimits::sharing(256);
    EXPECT_EQ(limits.total, 256u);
    EXPECT_EQ(limits.perToken, 32u);
    EXPECT_EQ(limits.perAddress, 64u);
    EXPECT_EQ(limits.operatorReserve, 32u);
    const RoomLimits tiny = RoomLimits::sharing(3);
    EXPECT_GE(tiny.perToken, 1u);
    EXPECT_GE(tiny.operatorReserve, 1u);
    EXPECT_LT(tiny.operatorReserve, tiny.total);
}

TEST(FairShareNetwork, AddressesCountInTheBlockOnePartyHolds)
{
    EXPECT_EQ(fairShareNetworkOf("127.0.1.17"), "127.0.1.0/24");
    EXPECT_EQ(fairShareNetworkOf("127.0.1.200"), fairShareNetworkOf("127.0.1.3"));
    EXPECT_NE(fairShareNetworkOf("127.0.0.1"), fairShareNetworkOf("127.0.1.1"));
    EXPECT_EQ(fairShareNetworkOf("2001:db8:1:2:aaaa::1"), "2001:0db8:0001:0002::/64");
    EXPECT_EQ(fairShareNetworkOf("2001:db8:1:2:ffff:ffff:ffff:ffff"),
              fairShareNetworkOf("2001:db8:1:2::7"));
    EXPECT_NE(fairShareNetworkOf("2001:db8:1:3::7"), fairShareNetworkOf("2001:db8:1:2::7"));
    // An IPv4 client on a dual-stack socket is still its /24.
    EXPECT_EQ(fairShareNetworkOf("::ffff:10.9.8.7"), "10.9.8.0/24");
    EXPECT_EQ(fairShareNetworkOf("not an address"), "not an address");
}
