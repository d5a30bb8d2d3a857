#include "scrapeconnection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/clock.h"

namespace meridian {

namespace {

constexpr int kSliceMs = 100;  // how often a wait looks at the pressure and the server

// Socket deadlines measure real time by nature: a peer's silence is seconds on the wall.
int64_t steadyMs()
{
    return SystemClock::instance().steadyMs();
}

void addressOf(int fd, bool peer, std::string &ip, int &port)
{
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if ((peer ? ::getpeername : ::getsockname)(fd, reinterpret_cast<sockaddr *>(&address),
                                               &length) != 0)
        return;
    char text[INET6_ADDRSTRLEN] = "";
    if (address.ss_family == AF_INET) {
        const auto *v4 = reinterpret_cast<const sockaddr_in *>(&address);
        ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
        port = ntohs(v4->sin_port);
    } else {
        const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(&address);
        ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
        port = ntohs(v6->sin6_port);
    }
    ip = text;
}

// The client's bytes, plaintext or TLS, buffered (cpp-httplib reads a line a byte at a
// time), every read under the current request's deadline.
class DeadlineStream final : public httplib::Stream {
public:
    DeadlineStream(const ScrapeConnection &connection, SSL *tls)
        : m_connection(connection), m_limits(connection.limits), m_fd(connection.fd), m_tls(tls)
    {}

    bool handshake();
    bool awaitRequest(bool first);
    void startRequest()
    {
        m_requestStartMs = steadyMs();
        m_requestBytes = 0;
    }

    bool is_readable() const override
    {
        return buffered() || waitFor(POLLIN, m_requestStartMs, m_limits.requestMs);
    }
    bool is_writable() const override { return waitFor(POLLOUT, steadyMs(), m_limits.writeMs); }
    ssize_t read(char *ptr, size_t size) override;
    ssize_t write(const char *ptr, size_t size) override;
    void get_remote_ip_and_port(std::string &ip, int &port) const override
    {
        addressOf(m_fd, true, ip, port);
    }
    void get_local_ip_and_port(std::string &ip, int &port) const override
    {
        addressOf(m_fd, false, ip, port);
    }
    socket_t socket() const override { return m_fd; }
    bool cutOff() const { return m_cutOff; }

private:
    bool buffered() const { return m_at < m_buffer.size() || (m_tls && SSL_pending(m_tls) > 0); }
    bool waitFor(short events, int64_t sinceMs, int allowedMs) const;
    bool fill();
    // What a would-block result of an SSL or socket call waits for; 0: a real failure.
    short wouldBlock(ssize_t result) const;

    const ScrapeConnection &m_connection;
    const ScrapeLimits &m_limits;
    int m_fd;
    SSL *m_tls;
    std::string m_buffer;
    size_t m_at = 0;
    int64_t m_requestStartMs = 0;
    size_t m_requestBytes = 0;
    bool m_cutOff = false;
};

bool DeadlineStream::waitFor(short events, int64_t sinceMs, int allowedMs) const
{
    for (;;) {
        if (!m_connection.running())
            return false;
        const int allowed = m_connection.underPressure()
                                ? std::min(allowedMs, m_limits.underPressureMs)
                                : allowedMs;
        const int64_t left = sinceMs + allowed - steadyMs();
        if (left <= 0)
            return false;
        pollfd p{m_fd, events, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, kSliceMs)));
        if (ready > 0)
            return true;
        if (ready < 0 && errno != EINTR)
            return false;
    }
}

short DeadlineStream::wouldBlock(ssize_t result) const
{
    if (m_tls) {
        switch (SSL_get_error(m_tls, static_cast<int>(result))) {
        case SSL_ERROR_WANT_READ: return POLLIN;
        case SSL_ERROR_WANT_WRITE: return POLLOUT;
        default: return 0;
        }
    }
    if (result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return POLLIN;
    return 0;
}

bool DeadlineStream::handshake()
{
    const int64_t started = steadyMs();
    for (;;) {
        const int result = SSL_accept(m_tls);
        if (result == 1)
            return true;
        const short wait = wouldBlock(result);
        if (wait == 0 || !waitFor(wait, started, m_limits.handshakeMs))
            return false;
    }
}

bool DeadlineStream::awaitRequest(bool first)
{
    return buffered() ||
           waitFor(POLLIN, steadyMs(), first ? m_limits.firstRequestMs : m_limits.keepAliveMs);
}

bool DeadlineStream::fill()
{
    char chunk[4096];
    for (;;) {
        const ssize_t n =
            m_tls ? SSL_read(m_tls, chunk, sizeof chunk) : ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n > 0) {
            m_buffer.assign(chunk, static_cast<size_t>(n));
            m_at = 0;
            return true;
        }
        const short wait = n == 0 && !m_tls ? 0 : wouldBlock(n);
        if (wait == 0 || !waitFor(wait, m_requestStartMs, m_limits.requestMs))
            return false;
    }
}

ssize_t DeadlineStream::read(char *ptr, size_t size)
{
    if (m_at >= m_buffer.size() && !fill()) {
        m_cutOff = true;
        return -1;
    }
    const size_t n = std::min(size, m_buffer.size() - m_at);
    m_requestBytes += n;
    if (m_requestBytes > m_limits.maxRequestBytes) {
        m_cutOff = true;
        return -1;
    }
    std::memcpy(ptr, m_buffer.data() + m_at, n);
    m_at += n;
    return static_cast<ssize_t>(n);
}

ssize_t DeadlineStream::write(const char *ptr, size_t size)
{
    const int64_t started = steadyMs();
    size_t written = 0;
    while (written < size) {
        const ssize_t n = m_tls ? SSL_write(m_tls, ptr + written, static_cast<int>(size - written))
                                : ::send(m_fd, ptr + written, size - written, MSG_NOSIGNAL);
        if (n > 0) {
            written += static_cast<size_t>(n);
            continue;
        }
        const bool retry = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
        const short wait = m_tls ? wouldBlock(n) : (retry ? POLLOUT : 0);
        if (wait == 0 || !waitFor(wait, started, m_limits.writeMs))
            return -1;
    }
    return static_cast<ssize_t>(size);
}

}  // namespace

bool serveScrapeConnection(const ScrapeConnection &connection)
{
    ::fcntl(connection.fd, F_SETFL, ::fcntl(connection.fd, F_GETFL) | O_NONBLOCK);
    SSL *tls = nullptr;
    if (connection.tls) {
        tls = SSL_new(connection.tls);
        if (!tls)
            return false;
        SSL_set_fd(tls, connection.fd);
    }
    DeadlineStream stream(connection, tls);
    bool served = false;
    if (!tls || stream.handshake()) {
        const int most = connection.limits.maxRequestsPerConnection;
        for (int request = 0; request < most && stream.awaitRequest(request == 0); ++request) {
            stream.startRequest();
            bool closed = false;
            served = connection.serveRequest(stream, request + 1 == most, closed);
            // A request cut off by its deadline or size is answered 400 by httplib, which
            // would then read the rest of it as the next request.
            if (!served || closed || stream.cutOff())
                break;
            // Others wait for a worker: this client asks again behind them, so a caller
            // looping on one keep-alive connection cannot hold a worker for ever.
            if (connection.underPressure())
                break;
        }
    }
    if (tls) {
        SSL_shutdown(tls);
        SSL_free(tls);
    }
    return served;
}

}  // namespace meridian
