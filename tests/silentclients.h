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

private:
    struct Client;
    void drip();

    std::vector<std::unique_ptr<Client>> m_clients;
    void *m_tlsContext = nullptr;  // SSL_CTX
    int m_dripEveryMs;
    std::atomic<bool> m_stop{false};
    std::thread m_dripper;
};

}  // namespace meridian::test
