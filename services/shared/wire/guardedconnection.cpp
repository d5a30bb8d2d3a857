#include "guardedconnection.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "core/clock.h"
#include "tlsterminator.h"

namespace meridian {

namespace {

constexpr size_t kChunk = 64 * 1024;
// Past this much unsent in one direction, stop reading the other side: backpressure.
constexpr size_t kMaxBuffered = 4 * 1024 * 1024;
constexpr int kPollMs = 250;

// Socket guards measure real time by nature: a peer's silence is seconds on the wall.
int64_t steadyMs()
{
    return SystemClock::instance().steadyMs();
}

enum class Io { Done, WouldBlock, WantWrite, Closed, Failed };

// The client's side, plaintext or TLS, behind one non-blocking read/write.
class ClientEnd {
public:
    ClientEnd(int fd, SSL *tls) : m_fd(fd), m_tls(tls) {}
    ~ClientEnd()
    {
        if (m_tls)
            SSL_free(m_tls);
        ::close(m_fd);
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

bool handshakeWithin(ClientEnd &client, int timeoutMs, const std::atomic<bool> &stopping)
{
    const int64_t deadline = steadyMs() + timeoutMs;
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

}  // namespace

void relayConnection(ConnectionSetup setup, const std::atomic<bool> &stopping)
{
    SSL *session = setup.tls ? setup.tls->newSession(setup.clientFd) : nullptr;
    ClientEnd client(setup.clientFd, session);
    if (setup.tls && !session)
        return;
    if (!handshakeWithin(client, setup.handshakeTimeoutMs, stopping))
        return;  // scanners and half-open connections end here, before gRPC sees them
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        setup.log(fmt::format("{}: cannot make a socketpair: {}", setup.peer, strerror(errno)));
        return;
    }
    const int server = pair[1];
    // Both ends non-blocking: gRPC's reader expects it of the descriptor it is given.
    for (int end : pair)
        ::fcntl(end, F_SETFL, ::fcntl(end, F_GETFL) | O_NONBLOCK);
    setup.attach(pair[0]);

    Http2Guard guard(setup.budget);
    std::string toServer;
    std::string toClient;
    bool clientWantsWrite = false;
    bool clientOpen = true;
    bool serverOpen = true;
    while (!stopping && clientOpen && (serverOpen || !toClient.empty())) {
        pollfd fds[2] = {{client.fd(), 0, 0}, {server, 0, 0}};
        if (serverOpen && toServer.size() < kMaxBuffered)
            fds[0].events |= POLLIN;
        if (!toClient.empty() || clientWantsWrite)
            fds[0].events |= POLLOUT;
        if (serverOpen && toClient.size() < kMaxBuffered)
            fds[1].events |= POLLIN;
        if (serverOpen && !toServer.empty())
            fds[1].events |= POLLOUT;
        if (!client.hasBufferedInput() && ::poll(fds, 2, kPollMs) < 0 && errno != EINTR)
            break;

        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) || client.hasBufferedInput()) {
            const size_t before = toServer.size();
            const Io read = client.read(toServer);
            if (read == Io::Closed || read == Io::Failed)
                clientOpen = false;
            clientWantsWrite = read == Io::WantWrite;
            if (toServer.size() > before &&
                !guard.feed(toServer.data() + before, toServer.size() - before, steadyMs())) {
                setup.log(fmt::format("{}: {}; connection closed", setup.peer, guard.why()));
                break;
            }
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            char buffer[kChunk];
            const ssize_t n = ::recv(server, buffer, sizeof buffer, 0);
            if (n > 0)
                toClient.append(buffer, static_cast<size_t>(n));
            else if (n == 0 || (errno != EAGAIN && errno != EINTR))
                serverOpen = false;
        }
        if (serverOpen && !toServer.empty()) {
            const ssize_t n = ::send(server, toServer.data(), toServer.size(), MSG_NOSIGNAL);
            if (n > 0)
                toServer.erase(0, static_cast<size_t>(n));
            else if (n < 0 && errno != EAGAIN && errno != EINTR)
                serverOpen = false;
        }
        if (!toClient.empty()) {
            const Io wrote = client.write(toClient);
            if (wrote == Io::Failed || wrote == Io::Closed)
                clientOpen = false;
            clientWantsWrite = wrote == Io::WantWrite;
        }
    }
    ::close(server);  // gRPC sees the end and cancels that connection's calls
}

}  // namespace meridian
