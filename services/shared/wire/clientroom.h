// How much of one kind of thing (connections, open streams) the clients of a server may
// hold at once, shared out by who they are: each token and each address has a cap, and a
// reserve is kept for the operator role, so one client with a read-only token, however
// many connections it opens, cannot lock out an operator or another token's console.
// Thread-safe; a slot is given back when it is destroyed.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/result.h"
#include "tokengrant.h"

namespace meridian {

struct RoomLimits {
    size_t total = 256;
    size_t perToken = 32;
    size_t perAddress = 64;       // read-only holders only: operators are never refused for it
    size_t operatorReserve = 32;  // of total: never taken by read-only clients

    // The house shares of `total`: an eighth per token, a quarter per address (so a
    // hog's token leaves room for another token from behind the same NAT), an eighth
    // kept for operators (at least one of each).
    static RoomLimits sharing(size_t total);
};

// Who holds a slot: the token's name (from the server's list, never from the request),
// the peer's IP address, and the token's role.
struct RoomHolder {
    std::string token;
    std::string address;
    Role role = Role::ReadOnly;
};

class ClientRoom : public std::enable_shared_from_this<ClientRoom> {
public:
    class Slot {
    public:
        Slot() = default;
        Slot(Slot &&other) noexcept = default;
        Slot &operator=(Slot &&other) noexcept;
        ~Slot();
        bool held() const { return m_room != nullptr; }

    private:
        friend class ClientRoom;
        Slot(std::shared_ptr<ClientRoom> room, RoomHolder holder);
        void giveBack();
        std::shared_ptr<ClientRoom> m_room;
        RoomHolder m_holder;
    };

    // `what` names the things counted, plural, for messages ("connections").
    static std::shared_ptr<ClientRoom> create(std::string what, RoomLimits limits);

    // A slot for `holder`, or which cap it met, in words for that client.
    Result<Slot> take(const RoomHolder &holder);

    size_t held() const;
    size_t heldBy(const std::string &token) const;
    const RoomLimits &limits() const { return m_limits; }

private:
    ClientRoom(std::string what, RoomLimits limits);
    void giveBack(const RoomHolder &holder);

    const std::string m_what;
    const RoomLimits m_limits;
    mutable std::mutex m_mutex;
    size_t m_total = 0;
    size_t m_readOnly = 0;
    std::map<std::string, size_t> m_byToken;
    std::map<std::string, size_t> m_byAddress;
};

}  // namespace meridian
