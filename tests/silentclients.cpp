#include "silentclients.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include "core/brokenpipes.h"

namespace meridian::test {

struct SilentClients::Client {
    int fd = -1;
    SSL *tls = nullptr;
    ~Client()
    {
        if (tls)
            SSL_free(tls);
        if (fd >= 0)
            ::close(fd);
    }
    bool send(const std::string &bytes)
    {
        if (tls)
            return SSL_write(tls, bytes.data(), static_cast<int>(bytes.size())) > 0;
        return ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) > 0;
    }
    // The server hung up (with bytes it sent, a TLS session ticket say, still unread),
    // or does within `waitMs`.
    bool closedByServer(int waitMs = 0) const
    {
        pollfd p{fd, POLLRDHUP, 0};
        return ::poll(&p, 1, waitMs) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
    }
};

namespace {

// From `source` (a 127/8 address; empty: the kernel's choice).
int connectLoopbackFrom(int port, const std::string &source = {})
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (!source.empty()) {
        sockaddr_in from{};
        from.sin_family = AF_INET;
        ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
        if (::bind(fd, reinterpret_cast<sockaddr *>(&from), sizeof from) != 0) {
            ::close(fd);
            return -1;
        }
    }
    // A server that never answers (its backlog full, its workers taken) costs 2 s, not
    // the test: connect and the TLS handshake give up then.
    const timeval limit{2, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0)
        return fd;
    ::close(fd);
    return -1;
}

}  // namespace

SilentClients::SilentClients(int port, const std::string &caFile, int count, Silence how,
                             int dripEveryMs)
    : m_dripEveryMs(dripEveryMs)
{
    ignoreBrokenPipes();  // OpenSSL writes with write(2): a closed door must not end the test
    SSL_CTX *context = nullptr;
    if (!caFile.empty()) {
        context = SSL_CTX_new(TLS_client_method());
        SSL_CTX_load_verify_locations(context, caFile.c_str(), nullptr);
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
        m_tlsContext = context;
    }
    for (int i = 0; i < count; ++i) {
        auto client = std::make_unique<Client>();
        client->fd = connectLoopbackFrom(port);
        if (client->fd < 0)
            continue;
        if (context) {
            client->tls = SSL_new(context);
            SSL_set_fd(client->tls, client->fd);
            if (SSL_connect(client->tls) != 1)
                continue;
        }
        if (how == Silence::AfterHttp2Preface && !client->send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"))
            continue;
        if (how == Silence::DrippingHttpHeaders && !client->send("GET /metrics HTTP/1.1\r\n"))
            continue;
        m_clients.push_back(std::move(client));
    }
    if (how == Silence::DrippingHttpHeaders)
        m_dripper = std::thread([this] { drip(); });
}

SilentClients::~SilentClients()
{
    m_stop = true;
    if (m_dripper.joinable())
        m_dripper.join();
    m_clients.clear();
    if (m_tlsContext)
        SSL_CTX_free(static_cast<SSL_CTX *>(m_tlsContext));
}

int SilentClients::closedByServer() const
{
    int closed = 0;
    for (const auto &client : m_clients)
        closed += client->closedByServer();
    return closed;
}

void SilentClients::drip()
{
    for (int line = 0; !m_stop; ++line) {
        for (int waited = 0; waited < m_dripEveryMs && !m_stop; waited += 50)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        for (const auto &client : m_clients) {
            if (!client->closedByServer())
                client->send("X-Drip-" + std::to_string(line) + ": a\r\n");
        }
    }
}

ChurningClients::ChurningClients(int port, const std::string &caFile,
                                 const std::string &firstAddress, int addresses)
    : m_port(port)
{
    ignoreBrokenPipes();
    if (!caFile.empty()) {
        SSL_CTX *context = SSL_CTX_new(TLS_client_method());
        SSL_CTX_load_verify_locations(context, caFile.c_str(), nullptr);
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
        m_tlsContext = context;
    }
    in_addr first{};
    ::inet_pton(AF_INET, firstAddress.c_str(), &first);
    for (int i = 0; i < addresses; ++i) {
        in_addr source{htonl(ntohl(first.s_addr) + static_cast<uint32_t>(i))};
        char text[INET_ADDRSTRLEN];
        ::inet_ntop(AF_INET, &source, text, sizeof text);
        m_threads.emplace_back([this, address = std::string(text)] { churn(address); });
    }
}

ChurningClients::~ChurningClients()
{
    m_stop = true;
    for (std::thread &thread : m_threads)
        thread.join();
    if (m_tlsContext)
        SSL_CTX_free(static_cast<SSL_CTX *>(m_tlsContext));
}

void ChurningClients::churn(const std::string &source)
{
    while (!m_stop) {
        SilentClients::Client client;
        client.fd = connectLoopbackFrom(m_port, source);
        if (client.fd < 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        ++m_connections;
        if (m_tlsContext) {
            client.tls = SSL_new(static_cast<SSL_CTX *>(m_tlsContext));
            SSL_set_fd(client.tls, client.fd);
            if (SSL_connect(client.tls) != 1) {
                ++m_closed;
                continue;
            }
        }
        // Silent until the server hangs up, then straight back. Asleep in poll(2) until
        // then: sixty clients waking every few milliseconds would load the machine more
        // than the door they attack.
        while (!m_stop && !client.closedByServer(100)) {
        }
        m_closed += !m_stop;
    }
}

}  // namespace meridian::test
