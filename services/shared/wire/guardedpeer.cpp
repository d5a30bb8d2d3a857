#include "guardedpeer.h"

#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <unordered_map>

#include "core/clock.h"
#include "tokengrant.h"

namespace meridian {

namespace {

// gRPC's descriptors of guarded connections, to their state. A descriptor gRPC has closed
// may be handed out again for a newer connection, which then replaces the entry; an
// older state only ever removes its own.
struct GrpcEnds {
    std::mutex mutex;
    std::unordered_map<int, std::weak_ptr<GuardedPeer>> byFd;
};

GrpcEnds &grpcEnds()
{
    static GrpcEnds ends;
    return ends;
}

// The state of the guarded connection gRPC knows as `grpcPeer`, if it is one.
std::shared_ptr<GuardedPeer> guardedPeerOf(std::string_view grpcPeer)
{
    constexpr std::string_view prefix = "fd:";
    if (grpcPeer.substr(0, prefix.size()) != prefix)
        return nullptr;
    int fd = -1;
    const char *begin = grpcPeer.data() + prefix.size();
    const char *end = grpcPeer.data() + grpcPeer.size();
    if (std::from_chars(begin, end, fd).ptr != end)
        return nullptr;
    GrpcEnds &ends = grpcEnds();
    std::lock_guard lock(ends.mutex);
    const auto it = ends.byFd.find(fd);
    return it == ends.byFd.end() ? nullptr : it->second.lock();
}

}  // namespace

GuardedPeer::GuardedPeer(int clientFd, std::string address, int64_t acceptedMs,
                         std::shared_ptr<ClientRoom> room)
    : m_clientFd(clientFd)
    , m_address(std::move(address))
    , m_acceptedMs(acceptedMs)
    , m_room(std::move(room))
{}

Status GuardedPeer::authenticate(const TokenGrant *grant, int64_t nowMs)
{
    std::lock_guard lock(m_authMutex);
    if (m_authenticated)
        return {};
    if (grant && m_room) {
        auto slot = m_room->take({grant->name, m_address, grant->role});
        if (!slot) {
            m_refusedMs = nowMs;
            return slot.error();
        }
        m_slot = std::move(slot).value();
    }
    m_authenticated = true;
    return {};
}

GuardedPeer::~GuardedPeer()
{
    closeClient();
    if (m_grpcFd < 0)
        return;
    GrpcEnds &ends = grpcEnds();
    std::lock_guard lock(ends.mutex);
    const auto it = ends.byFd.find(m_grpcFd);
    // Expired: this state is being destroyed, so an expired entry is this one's or stale.
    if (it != ends.byFd.end() && it->second.expired())
        ends.byFd.erase(it);
}

void GuardedPeer::evict()
{
    m_evicted = true;
    std::lock_guard lock(m_fdMutex);
    if (m_clientFd >= 0)
        ::shutdown(m_clientFd, SHUT_RDWR);
}

void GuardedPeer::closeClient()
{
    {
        std::lock_guard lock(m_fdMutex);
        if (m_clientFd >= 0)
            ::close(m_clientFd);
        m_clientFd = -1;
    }
    // The slot is free the moment the connection ends, not when the listener reaps it.
    std::lock_guard lock(m_authMutex);
    m_slot = {};
}

void GuardedPeer::watchGrpcEnd(int grpcFd)
{
    m_grpcFd = grpcFd;
    GrpcEnds &ends = grpcEnds();
    std::lock_guard lock(ends.mutex);
    ends.byFd[grpcFd] = weak_from_this();
}

Status admitGuardedPeer(std::string_view grpcPeer, const TokenGrant *grant)
{
    const std::shared_ptr<GuardedPeer> state = guardedPeerOf(grpcPeer);
    return state ? state->authenticate(grant, SystemClock::instance().steadyMs()) : Status{};
}

std::string clientAddressOf(std::string_view grpcPeer)
{
    if (const std::shared_ptr<GuardedPeer> state = guardedPeerOf(grpcPeer))
        return state->address();
    // "ipv4:10.0.0.7:5012", "ipv6:[fe80::1]:5012": the host without its port.
    std::string_view rest = grpcPeer.substr(std::min(grpcPeer.find(':') + 1, grpcPeer.size()));
    if (!rest.empty() && rest.front() == '[')
        return std::string(rest.substr(1, rest.find(']') - 1));
    return std::string(rest.substr(0, rest.rfind(':')));
}

}  // namespace meridian
