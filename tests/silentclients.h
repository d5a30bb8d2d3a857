// Clients that take a server's connection slots and then do next to nothing, as an
// attacker holding a server's doors does: a TLS handshake finished and then silence, the
// HTTP/2 preface and then silence, or an HTTP request dripped one header line at a time.
// Loopback only.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace meridian::test {

enum class Silence { AfterHandshake, AfterHttp2Preface, DrippingHttpHeaders };

class SilentClients {
public:
    // Opens `count` connections to 127.0.0.1:port, with TLS when `caFile` is set. Those
    // that drip send a header line every `dripEveryMs` from a thread of their own.
    SilentClients(int port, const std::string &caFile, int count, Silence how,
                  int dripEveryMs = 1000);
    ~SilentClients();

    // How many connected (and finished their TLS handshake, with TLS).
    int opened() const { return static_cast<int>(m_clients.size()); }
    // How many of those the server has closed since.
    int closedByServer() const;

    struct Client;  // one connection; churners use it too

private:
    void drip();

    std::vector<std::unique_ptr<Client>> m_clients;
    void *m_tlsContext = nullptr;  // SSL_CTX
    int m_dripEveryMs;
    std::atomic<bool> m_stop{false};
    std::thread m_dripper;
};

// Clients that churn a server's door from many source addresses: each of `addresses`
// (127.0.1.1 upwards from `firstAddress`, loopback only) connects from its own address,
// says nothing past its TLS handshake (or nothing at all, without TLS), and connects
// again as soon as the server closes it, as a botnet holding a door open does.
class ChurningClients {
public:
    ChurningClients(int port, const std::string &caFile, const std::string &firstAddress,
                    int addresses);
    ~ChurningClients();
    // Connections made so far, and of those how many the server closed.
    int connections() const { return m_connections; }
    int closedByServer() const { return m_closed; }

private:
    void churn(const std::string &source);

    int m_port;
    void *m_tlsContext = nullptr;  // SSL_CTX
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_connections{0};
    std::atomic<int> m_closed{0};
    std::vector<std::thread> m_threads;
};

}  // namespace meridian::test
