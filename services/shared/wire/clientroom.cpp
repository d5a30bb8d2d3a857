#include "clientroom.h"

#include <fmt/format.h>

#include <algorithm>

namespace meridian {

namespace {

size_t countIn(const std::map<std::string, size_t> &counts, const std::string &key)
{
    const auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
}

}  // namespace

RoomLimits RoomLimits::sharing(size_t total)
{
    RoomLimits limits;
    limits.total = std::max<size_t>(total, 2);
    limits.perToken = std::max<size_t>(limits.total / 8, 1);
    limits.perAddress = std::max<size_t>(limits.total / 4, 1);
    limits.operatorReserve = std::max<size_t>(limits.total / 8, 1);
    return limits;
}

std::shared_ptr<ClientRoom> ClientRoom::create(std::string what, RoomLimits limits)
{
    return std::shared_ptr<ClientRoom>(new ClientRoom(std::move(what), limits));
}

ClientRoom::ClientRoom(std::string what, RoomLimits limits)
    : m_what(std::move(what)), m_limits(limits)
{}

Result<ClientRoom::Slot> ClientRoom::take(const RoomHolder &holder)
{
    std::lock_guard lock(m_mutex);
    if (m_total >= m_limits.total)
        return Error{fmt::format("{} {} open, the most this server holds", m_total, m_what)};
    const size_t forReadOnly = m_limits.total - std::min(m_limits.operatorReserve, m_limits.total);
    if (holder.role == Role::ReadOnly && m_readOnly >= forReadOnly)
        return Error{fmt::format("read-only tokens hold {} {}; the other {} are kept for operators",
                                 m_readOnly, m_what, m_limits.total - forReadOnly)};
    if (const size_t n = countIn(m_byToken, holder.token); n >= m_limits.perToken)
        return Error{
            fmt::format("token '{}' holds {} {}, the most one token may", holder.token, n, m_what)};
    // Operators are not held to their address's share: a reader misbehaving behind the
    // same NAT must not lock them out.
    if (const size_t n = countIn(m_byAddress, holder.address);
        holder.role == Role::ReadOnly && n >= m_limits.perAddress)
        return Error{
            fmt::format("{} holds {} {}, the most one address may", holder.address, n, m_what)};
    ++m_total;
    m_readOnly += holder.role == Role::ReadOnly;
    ++m_byToken[holder.token];
    ++m_byAddress[holder.address];
    return Slot(shared_from_this(), holder);
}

void ClientRoom::giveBack(const RoomHolder &holder)
{
    std::lock_guard lock(m_mutex);
    --m_total;
    m_readOnly -= holder.role == Role::ReadOnly;
    // Emptied entries go, so addresses that came and went are not kept for ever.
    if (auto it = m_byToken.find(holder.token); it != m_byToken.end() && --it->second == 0)
        m_byToken.erase(it);
    if (auto it = m_byAddress.find(holder.address); it != m_byAddress.end() && --it->second == 0)
        m_byAddress.erase(it);
}

size_t ClientRoom::held() const
{
    std::lock_guard lock(m_mutex);
    return m_total;
}

size_t ClientRoom::heldBy(const std::string &token) const
{
    std::lock_guard lock(m_mutex);
    return countIn(m_byToken, token);
}

ClientRoom::Slot::Slot(std::shared_ptr<ClientRoom> room, RoomHolder holder)
    : m_room(std::move(room)), m_holder(std::move(holder))
{}

ClientRoom::Slot &ClientRoom::Slot::operator=(Slot &&other) noexcept
{
    if (this != &other) {
        giveBack();
        m_room = std::move(other.m_room);
        m_holder = std::move(other.m_holder);
    }
    return *this;
}

ClientRoom::Slot::~Slot()
{
    giveBack();
}

void ClientRoom::Slot::giveBack()
{
    if (m_room)
        m_room->giveBack(m_holder);
    m_room.reset();
}

}  // namespace meridian
