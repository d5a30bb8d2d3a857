#include "guardedlistener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <grpcpp/server.h>
#include <grpcpp/server_posix.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <string_view>
#include <system_error>

#include "core/clock.h"
#include "guardedconnection.h"
#include "hostport.h"

namespace meridian {

namespace {

// Socket guards measure real time by nature: a peer's silence is seconds on the wall.
int64_t listenerSteadyMs()
{
    return SystemClock::instance().steadyMs();
}

Result<int> bindListening(const std::string &address, int *selectedPort)
{
    auto resolved = resolveTcp(address);
    if (!resolved)
        return Error{fmt::format("cannot listen on {}: {}", address, resolved.error().message)};
    std::string why = "no address";
    int fd = -1;
    for (const addrinfo *a = resolved->get(); a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        const int one = 1;
        if (fd >= 0 && ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
            ::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 1024) == 0)
            break;
        why = std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    if (fd < 0)
        return Error{fmt::format("cannot listen on {}: {}", address, why)};
    if (selectedPort) {
        sockaddr_storage bound{};
        socklen_t length = sizeof bound;
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&bound), &length);
        *selectedPort =
            ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6 *>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in *>(&bound)->sin_port);
    }
    return fd;
}

std::string peerOf(const sockaddr_storage &address)
{
    if (address.ss_family == AF_INET)
        return fmt::format("{}:{}", ipTextOf(address),
                           ntohs(reinterpret_cast<const sockaddr_in *>(&address)->sin_port));
    return fmt::format("[{}]:{}", ipTextOf(address),
                       ntohs(reinterpret_cast<const sockaddr_in6 *>(&address)->sin6_port));
}

// Connections are kept below the open-file limit: each costs three descriptors (the
// client here, both ends of the socketpair), and 32 stay for the agent's own files.
size_t connectionCeiling(size_t wanted)
{
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY)
        return wanted;
    const size_t fit = files.rlim_cur > 35 ? (files.rlim_cur - 32) / 3 : 1;
    return std::min(wanted, fit);
}

}  // namespace

Result<std::unique_ptr<GuardedListener>> GuardedListener::start(
    grpc::Server &server, const std::vector<std::string> &addresses,
    const std::vector<int *> &selectedPorts, std::shared_ptr<TlsServerContext> tls,
    GuardOptions options)
{
    std::vector<int> sockets;
    for (size_t i = 0; i < addresses.size(); ++i) {
        auto fd =
            bindListening(addresses[i], i < selectedPorts.size() ? selectedPorts[i] : nullptr);
        if (!fd) {
            for (int s : sockets)
                ::close(s);
            return fd.error();
        }
        sockets.push_back(fd.value());
    }
    if (!options.log)
        options.log = [](const std::string &m) { std::fprintf(stderr, "%s\n", m.c_str()); };
    options.maxConnections = connectionCeiling(options.maxConnections);
    options.maxPendingPerNetwork =
        std::clamp<size_t>(options.maxPendingPerNetwork, 1, options.maxConnections);
    if (options.serverName.empty())
        options.serverName = program_invocation_short_name;
    return std::unique_ptr<GuardedListener>(
        new GuardedListener(server, std::move(sockets), std::move(tls), std::move(options)));
}

GuardedListener::GuardedListener(grpc::Server &server, std::vector<int> sockets,
                                 std::shared_ptr<TlsServerContext> tls, GuardOptions options)
    : m_server(server)
    , m_sockets(std::move(sockets))
    , m_tls(std::move(tls))
    , m_options(std::move(options))
    , m_maxPending(std::max<size_t>(1, m_options.maxConnections / 4))
    , m_authenticated(
          ClientRoom::create("connections", RoomLimits::sharing(m_options.maxConnections)))
{
    m_spareFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (::pipe2(m_wake, O_CLOEXEC | O_NONBLOCK) != 0)
        m_wake[0] = m_wake[1] = -1;
    m_acceptor = std::thread([this] { acceptLoop(); });
}

GuardedListener::~GuardedListener()
{
    m_stopping = true;
    if (m_wake[1] >= 0)
        (void)!::write(m_wake[1], "x", 1);
    m_acceptor.join();
    for (Connection &c : m_connections)
        c.thread.join();
    for (int fd : m_sockets)
        ::close(fd);
    for (int fd : {m_wake[0], m_wake[1], m_spareFd}) {
        if (fd >= 0)
            ::close(fd);
    }
}

void GuardedListener::acceptLoop()
{
    std::vector<pollfd> fds;
    for (int fd : m_sockets)
        fds.push_back({fd, POLLIN, 0});
    fds.push_back({m_wake[0], POLLIN, 0});
    while (!m_stopping) {
        // The timeout also retries accept after running out of files.
        if (::poll(fds.data(), fds.size(), 500) < 0 && errno != EINTR)
            break;
        for (size_t i = 0; i + 1 < fds.size() && !m_stopping; ++i) {
            if (fds[i].revents & POLLIN)
                acceptOne(fds[i].fd);
        }
        reapFinished();
    }
}

void GuardedListener::acceptOne(int listening)
{
    for (int burst = 0; burst < 64; ++burst) {
        sockaddr_storage address{};
        socklen_t length = sizeof address;
        const int fd = ::accept4(listening, reinterpret_cast<sockaddr *>(&address), &length,
                                 SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                // Out of files: take the waiting client with the spare descriptor and
                // close it at once, so the backlog drains and accepting resumes as soon
                // as files are free, instead of stalling for good.
                ::close(m_spareFd);
                const int refused = ::accept4(listening, nullptr, nullptr, SOCK_CLOEXEC);
                if (refused >= 0)
                    ::close(refused);
                m_spareFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
                log("out of open files: a connection was refused");
                if (refused < 0) {
                    // Not even the spare freed a file: the backlog stays readable, so wait
                    // rather than spin on it until files come back.
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    return;
                }
                continue;
            }
            return;  // EAGAIN: nothing more waiting
        }
        // The relay writes TLS records and HTTP/2 frames as they come, a few bytes at a
        // time: with Nagle's algorithm each handshake and first call waited ~40 ms on
        // the peer's delayed ACK (gRPC sets this on the sockets it accepts itself).
        const int noDelay = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof noDelay);
        ConnectionSetup setup;
        setup.peer = peerOf(address);
        const std::string host = ipTextOf(address);
        std::string network = fairShareNetworkOf(host);
        if (!admit(network, setup.peer)) {
            ::close(fd);
            continue;
        }
        setup.state = std::make_shared<GuardedPeer>(fd, host, listenerSteadyMs(), m_authenticated);
        setup.tls = m_tls;
        setup.authenticateWithinMs = m_options.authenticateWithinMs;
        setup.budget = m_options.budget;
        setup.attach = [this](int grpcEnd) { grpc::AddInsecureChannelFromFd(&m_server, grpcEnd); };
        setup.log = [this](const std::string &m) { log(m); };
        startRelay(std::move(setup), std::move(network));
    }
}

namespace {

// A client that finished its TLS handshake this recently is about to make its call: it
// is the last a newcomer may push out.
constexpr int64_t kJustHandshakenMs = 1000;

// Which pending connections go first to make room, lowest first: one refused room for
// its token (closing anyway), one silent this long after its handshake, one still in
// its handshake after as long, one younger still in its handshake, one just handshaken.
int evictionTier(const GuardedPeer &peer, int64_t nowMs)
{
    if (peer.refusedMs() != 0)
        return 0;
    const int64_t handshaken = peer.handshakenMs();
    if (handshaken != 0)
        return nowMs - handshaken >= kJustHandshakenMs ? 1 : 4;
    return nowMs - peer.acceptedMs() >= kJustHandshakenMs ? 2 : 3;
}

}  // namespace

// Whether a client from `network` may have a slot. Where pending connections are at a
// cap, or every slot is taken, one pending connection is evicted to make room (see
// GuardOptions for which); only a server full of authenticated clients refuses.
bool GuardedListener::admit(const std::string &network, const std::string &peer)
{
    const int64_t now = listenerSteadyMs();
    size_t live = 0;
    size_t pending = 0;
    // Pending connections by network, each list in the order they were accepted.
    std::map<std::string_view, std::vector<Connection *>> pendingBy;
    for (Connection &c : m_connections) {
        if (c.done || c.state->evicted())
            continue;
        ++live;
        if (c.state->authenticated())
            continue;
        ++pending;
        pendingBy[c.network].push_back(&c);
    }
    // The first to go of one network's pending connections: lowest tier, then oldest.
    const auto firstToGo = [now](const std::vector<Connection *> &list) {
        Connection *first = list.front();
        for (Connection *c : list) {
            if (evictionTier(*c->state, now) < evictionTier(*first->state, now))
                first = c;
        }
        return first;
    };
    const auto here = pendingBy.find(network);
    const size_t pendingHere = here == pendingBy.end() ? 0 : here->second.size();
    Connection *victim = nullptr;
    if (pendingHere >= m_options.maxPendingPerNetwork) {
        victim = firstToGo(here->second);
    } else if (pending >= m_maxPending || live >= m_options.maxConnections) {
        // The network holding the most gives up one (of equals, the one with the oldest).
        const std::vector<Connection *> *largest = nullptr;
        for (const auto &entry : pendingBy) {
            const std::vector<Connection *> &list = entry.second;
            if (!largest || list.size() > largest->size() ||
                (list.size() == largest->size() &&
                 list.front()->state->acceptedMs() < largest->front()->state->acceptedMs()))
                largest = &list;
        }
        victim = largest ? firstToGo(*largest) : nullptr;
    }
    if (victim) {
        victim->state->evict();
        log(
            fmt::format("{} connections without an authenticated call ({} from {}): one from {} "
                        "closed to make room for {}",
                        pending, pendingHere, network, victim->network, peer));
        return true;
    }
    if (live < m_options.maxConnections)
        return true;
    log(fmt::format("{} connections open, all authenticated, the most {} holds: {} refused", live,
                    m_options.serverName, peer));
    return false;
}

void GuardedListener::startRelay(ConnectionSetup setup, std::string network)
{
    const std::string peer = setup.peer;
    ++m_open;
    Connection &connection = m_connections.emplace_back();
    connection.state = setup.state;
    connection.network = std::move(network);
    try {
        connection.thread = std::thread([this, &connection, setup = std::move(setup)]() mutable {
            relayConnection(std::move(setup), m_stopping);
            --m_open;
            connection.done = true;
        });
    } catch (const std::system_error &e) {
        // Out of threads or memory under a flood: refuse this client, keep serving.
        m_connections.pop_back();
        --m_open;
        log(fmt::format("{}: refused, no thread for it ({})", peer, e.what()));
    }
}

void GuardedListener::reapFinished()
{
    for (auto it = m_connections.begin(); it != m_connections.end();) {
        if (it->done) {
            it->thread.join();
            it = m_connections.erase(it);
        } else {
            ++it;
        }
    }
}

void GuardedListener::log(const std::string &message)
{
    // An attacker reconnecting in a loop must not fill the journal: a line a second.
    std::lock_guard lock(m_logMutex);
    const int64_t now = listenerSteadyMs();
    if (now - m_lastRefusalLogMs < 1000)
        return;
    m_lastRefusalLogMs = now;
    m_options.log(message);
}

}  // namespace meridian
