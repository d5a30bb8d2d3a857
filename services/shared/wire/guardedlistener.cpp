#include "guardedlistener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <grpcpp/server.h>
#include <grpcpp/server_posix.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>

#include "core/clock.h"
#include "guardedconnection.h"
#include "hostport.h"

namespace meridian {

namespace {

// Socket guards measure real time by nature: a peer's silence is seconds on the wall.
int64_t steadyMs()
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

std::string hostOf(const sockaddr_storage &address)
{
    char host[INET6_ADDRSTRLEN] = "?";
    if (address.ss_family == AF_INET)
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in *>(&address)->sin_addr, host,
                    sizeof host);
    else
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6 *>(&address)->sin6_addr, host,
                    sizeof host);
    return host;
}

std::string peerOf(const sockaddr_storage &address)
{
    if (address.ss_family == AF_INET)
        return fmt::format("{}:{}", hostOf(address),
                           ntohs(reinterpret_cast<const sockaddr_in *>(&address)->sin_port));
    return fmt::format("[{}]:{}", hostOf(address),
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
    options.maxPendingPerAddress =
        std::clamp<size_t>(options.maxPendingPerAddress, 1, options.maxConnections);
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
        ConnectionSetup setup;
        setup.peer = peerOf(address);
        const std::string host = hostOf(address);
        if (!admit(host, setup.peer)) {
            ::close(fd);
            continue;
        }
        setup.state = std::make_shared<GuardedPeer>(fd, host, steadyMs());
        setup.tls = m_tls;
        setup.authenticateWithinMs = m_options.authenticateWithinMs;
        setup.budget = m_options.budget;
        setup.attach = [this](int grpcEnd) { grpc::AddInsecureChannelFromFd(&m_server, grpcEnd); };
        setup.log = [this](const std::string &m) { log(m); };
        startRelay(std::move(setup));
    }
}

// Whether a client from `host` may have a slot. Where pending connections are at their
// cap, or every slot is taken, the oldest pending one (from `host` first) is evicted to
// make room; only a server full of authenticated clients refuses.
bool GuardedListener::admit(const std::string &host, const std::string &peer)
{
    size_t live = 0;
    size_t pending = 0;
    size_t pendingHere = 0;
    Connection *oldest = nullptr;
    Connection *oldestHere = nullptr;
    for (Connection &c : m_connections) {  // in the order they were accepted
        if (c.done || c.state->evicted())
            continue;
        ++live;
        if (c.state->authenticated())
            continue;
        ++pending;
        oldest = oldest ? oldest : &c;
        if (c.state->address() == host) {
            ++pendingHere;
            oldestHere = oldestHere ? oldestHere : &c;
        }
    }
    Connection *victim = nullptr;
    if (pendingHere >= m_options.maxPendingPerAddress)
        victim = oldestHere;
    else if (pending >= m_maxPending || live >= m_options.maxConnections)
        victim = oldest;
    if (victim) {
        victim->state->evict();
        log(
            fmt::format("{} connections without an authenticated call ({} from {}): the oldest "
                        "closed to make room for {}",
                        pending, pendingHere, host, peer));
        return true;
    }
    if (live < m_options.maxConnections)
        return true;
    log(fmt::format("{} connections open, all authenticated, the most {} holds: {} refused", live,
                    m_options.serverName, peer));
    return false;
}

void GuardedListener::startRelay(ConnectionSetup setup)
{
    const std::string peer = setup.peer;
    ++m_open;
    Connection &connection = m_connections.emplace_back();
    connection.state = setup.state;
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
    const int64_t now = steadyMs();
    if (now - m_lastRefusalLogMs < 1000)
        return;
    m_lastRefusalLogMs = now;
    m_options.log(message);
}

}  // namespace meridian
