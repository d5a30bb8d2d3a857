#include "guardedconnection.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "core/clock.h"
#include "guardedpeer.h"
#include "tlsterminator.h"

namespace meridian {

namespace {

constexpr size_t kChunk = 64 * 1024;
// Past this much unsent in one direction, stop reading the other side: backpressure.
constexpr size_t kMaxBuffered = 4 * 1024 * 1024;
constexpr int kPollMs = 250;
constexpr int64_t kRefusedGraceMs = 500;

// Socket guards measure real time by nature: a peer's silence is seconds on the wall.
int64_t steadyMs()
{
    return SystemClock::instance().steadyMs();
}

enum class Io { Done, WouldBlock, WantWrite, Closed, Failed };

// The client's side, plaintext or TLS, behind one non-blocking read/write. Its
// descriptor is closed by the connection's state, which the listener may shut down.
class ClientEnd {
public:
    ClientEnd(int fd, SSL *tls) : m_fd(fd), m_tls(tls) {}
    ~ClientEnd()
    {
        if (m_tls)
            SSL_free(m_tls);
    }
    int fd() const { return m_fd; }

    Io handshake()
    {
        if (!m_tls)
            return Io::Done;
        const int result = SSL_do_handshake(m_tls);
        return result == 1 ? Io::Done : classify(result);
    }
    Io read(std::string &into)
    {
        char buffer[kChunk];
        const ssize_t n =
            m_tls ? SSL_read(m_tls, buffer, sizeof buffer) : ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n > 0) {
            into.append(buffer, static_cast<size_t>(n));
            return Io::Done;
        }
        return m_tls ? classify(static_cast<int>(n)) : plainResult(n);
    }
    Io write(std::string &from)
    {
        if (from.empty())
            return Io::Done;
        const ssize_t n = m_tls ? SSL_write(m_tls, from.data(), static_cast<int>(from.size()))
                                : ::send(m_fd, from.data(), from.size(), MSG_NOSIGNAL);
        if (n > 0) {
            from.erase(0, static_cast<size_t>(n));
            return Io::Done;
        }
        return m_tls ? classify(static_cast<int>(n)) : plainResult(n);
    }
    bool hasBufferedInput() const { return m_tls && SSL_pending(m_tls) > 0; }

private:
    Io classify(int result) const
    {
        switch (SSL_get_error(m_tls, result)) {
        case SSL_ERROR_WANT_READ: return Io::WouldBlock;
        case SSL_ERROR_WANT_WRITE: return Io::WantWrite;
        case SSL_ERROR_ZERO_RETURN: return Io::Closed;
        default: return Io::Failed;
        }
    }
    static Io plainResult(ssize_t n)
    {
        if (n == 0)
            return Io::Closed;
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? Io::WouldBlock
                                                                         : Io::Failed;
    }

    int m_fd;
    SSL *m_tls;
};

bool handshakeBy(ClientEnd &client, int64_t deadline, const std::atomic<bool> &stopping)
{
    for (;;) {
        const Io step = client.handshake();
        if (step == Io::Done)
            return true;
        if (step != Io::WouldBlock && step != Io::WantWrite)
            return false;
        const int64_t left = deadline - steadyMs();
        if (left <= 0 || stopping)
            return false;
        pollfd p{client.fd(), static_cast<short>(step == Io::WantWrite ? POLLOUT : POLLIN), 0};
        ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, kPollMs)));
    }
}

// The bytes both ways between the client and gRPC's end, once the handshake is done.
class Relay {
public:
    Relay(ConnectionSetup &setup, ClientEnd &client, int server)
        : m_setup(setup), m_client(client), m_server(server), m_guard(setup.budget)
    {}
    void run(const std::atomic<bool> &stopping);

private:
    bool withinDeadline() const;
    void pollBoth();
    bool fromClient();
    void fromServer();
    void flush();

    ConnectionSetup &m_setup;
    ClientEnd &m_client;
    int m_server;
    Http2Guard m_guard;
    pollfd m_fds[2] = {};
    std::string m_toServer;
    std::string m_toClient;
    bool m_clientWantsWrite = false;
    bool m_clientOpen = true;
    bool m_serverOpen = true;
};

void Relay::run(const std::atomic<bool> &stopping)
{
    while (!stopping && m_clientOpen && (m_serverOpen || !m_toClient.empty()) && withinDeadline()) {
        pollBoth();
        if (m_setup.state->evicted())
            break;
        if (((m_fds[0].revents & (POLLIN | POLLHUP | POLLERR)) || m_client.hasBufferedInput()) &&
            !fromClient())
            break;
        if (m_fds[1].revents & (POLLIN | POLLHUP | POLLERR))
            fromServer();
        flush();
    }
}

bool Relay::withinDeadline() const
{
    const GuardedPeer &state = *m_setup.state;
    const int64_t now = steadyMs();
    if (state.authenticated())
        return true;
    // Refused room for its token: closed once that answer has had time to reach it.
    if (const int64_t refused = state.refusedMs();
        refused != 0 && now - refused > kRefusedGraceMs) {
        m_setup.log(
            fmt::format("{}: its token or address has no room for another connection; "
                        "closed",
                        m_setup.peer));
        return false;
    }
    if (now - state.acceptedMs() <= m_setup.authenticateWithinMs)
        return true;
    m_setup.log(fmt::format("{}: no authenticated call within {} s of connecting; closed",
                            m_setup.peer, m_setup.authenticateWithinMs / 1000));
    return false;
}

void Relay::pollBoth()
{
    m_fds[0] = {m_client.fd(), 0, 0};
    m_fds[1] = {m_server, 0, 0};
    if (m_serverOpen && m_toServer.size() < kMaxBuffered)
        m_fds[0].events |= POLLIN;
    if (!m_toClient.empty() || m_clientWantsWrite)
        m_fds[0].events |= POLLOUT;
    if (m_serverOpen && m_toClient.size() < kMaxBuffered)
        m_fds[1].events |= POLLIN;
    if (m_serverOpen && !m_toServer.empty())
        m_fds[1].events |= POLLOUT;
    if (!m_client.hasBufferedInput() && ::poll(m_fds, 2, kPollMs) < 0 && errno != EINTR)
        m_clientOpen = false;
}

// False when the client broke its HTTP/2 budget.
bool Relay::fromClient()
{
    const size_t before = m_toServer.size();
    const Io read = m_client.read(m_toServer);
    if (read == Io::Closed || read == Io::Failed)
        m_clientOpen = false;
    m_clientWantsWrite = read == Io::WantWrite;
    if (m_toServer.size() > before &&
        !m_guard.feed(m_toServer.data() + before, m_toServer.size() - before, steadyMs())) {
        m_setup.log(fmt::format("{}: {}; connection closed", m_setup.peer, m_guard.why()));
        return false;
    }
    return true;
}

void Relay::fromServer()
{
    char buffer[kChunk];
    const ssize_t n = ::recv(m_server, buffer, sizeof buffer, 0);
    if (n > 0)
        m_toClient.append(buffer, static_cast<size_t>(n));
    else if (n == 0 || (errno != EAGAIN && errno != EINTR))
        m_serverOpen = false;
}

void Relay::flush()
{
    if (m_serverOpen && !m_toServer.empty()) {
        const ssize_t n = ::send(m_server, m_toServer.data(), m_toServer.size(), MSG_NOSIGNAL);
        if (n > 0)
            m_toServer.erase(0, static_cast<size_t>(n));
        else if (n < 0 && errno != EAGAIN && errno != EINTR)
            m_serverOpen = false;
    }
    if (!m_toClient.empty()) {
        const Io wrote = m_client.write(m_toClient);
        if (wrote == Io::Failed || wrote == Io::Closed)
            m_clientOpen = false;
        m_clientWantsWrite = wrote == Io::WantWrite;
    }
}

void relayClient(ConnectionSetup &setup, const std::atomic<bool> &stopping)
{
    GuardedPeer &state = *setup.state;
    SSL *session = setup.tls ? setup.tls->newSession(state.clientFd()) : nullptr;
    ClientEnd client(state.clientFd(), session);
    if (setup.tls && !session)
        return;
    // Scanners and half-open connections end here, before gRPC sees them.
    if (!handshakeBy(client, state.acceptedMs() + setup.authenticateWithinMs, stopping) ||
        state.evicted())
        return;
    state.markHandshaken(steadyMs());
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        setup.log(fmt::format("{}: cannot make a socketpair: {}", setup.peer, strerror(errno)));
        return;
    }
    // Both ends non-blocking: gRPC's reader expects it of the descriptor it is given.
    for (int end : pair)
        ::fcntl(end, F_SETFL, ::fcntl(end, F_GETFL) | O_NONBLOCK);
    state.watchGrpcEnd(pair[0]);
    setup.attach(pair[0]);
    Relay(setup, client, pair[1]).run(stopping);
    ::close(pair[1]);  // gRPC sees the end and cancels that connection's calls
}

}  // namespace

void relayConnection(ConnectionSetup setup, const std::atomic<bool> &stopping)
{
    relayClient(setup, stopping);
    setup.state->closeClient();  // now, not when the listener next reaps this connection
}

}  // namespace meridian
