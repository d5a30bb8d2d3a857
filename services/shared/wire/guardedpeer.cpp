#include "guardedpeer.h"

#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <unordered_map>

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

}  // namespace

GuardedPeer::GuardedPeer(int clientFd, std::string address, int64_t acceptedMs)
    : m_clientFd(clientFd), m_address(std::move(address)), m_acceptedMs(acceptedMs)
{}

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
    std::lock_guard lock(m_fdMutex);
    if (m_clientFd >= 0)
        ::close(m_clientFd);
    m_clientFd = -1;
}

void GuardedPeer::watchGrpcEnd(int grpcFd)
{
    m_grpcFd = grpcFd;
    GrpcEnds &ends = grpcEnds();
    std::lock_guard lock(ends.mutex);
    ends.byFd[grpcFd] = weak_from_this();
}

void markPeerAuthenticated(std::string_view grpcPeer)
{
    constexpr std::string_view prefix = "fd:";
    if (grpcPeer.substr(0, prefix.size()) != prefix)
        return;
    int fd = -1;
    const char *begin = grpcPeer.data() + prefix.size();
    const char *end = grpcPeer.data() + grpcPeer.size();
    if (std::from_chars(begin, end, fd).ptr != end)
        return;
    GrpcEnds &ends = grpcEnds();
    std::lock_guard lock(ends.mutex);
    const auto it = ends.byFd.find(fd);
    if (it == ends.byFd.end())
        return;
    if (auto state = it->second.lock())
        state->markAuthenticated();
}

}  // namespace meridian
