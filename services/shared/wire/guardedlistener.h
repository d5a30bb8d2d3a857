// The agent's own front door. gRPC 1.51 neither bounds HTTP/2 abuse before its token
// check nor recovers once accept() runs out of files, so the agent accepts clients on
// its own sockets: at most maxConnections at a time, each on a thread that terminates
// TLS and checks the client's frames (guardedconnection.h), and only then hands the
// connection to the gRPC server through a socketpair.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "guardedconnection.h"
#include "http2guard.h"

namespace grpc {
class Server;
}

namespace meridian {

class TlsServerContext;

struct GuardOptions {
    size_t maxConnections = 256;  // also kept below the open-file limit
    int handshakeTimeoutMs = 10'000;
    Http2Budget budget;
    std::function<void(const std::string &)> log;  // default: stderr
};

class GuardedListener {
public:
    // Binds every address ("host:port"; port 0 picks a free one, written to the matching
    // selectedPorts entry when that is not null) and starts accepting for `server`.
    static Result<std::unique_ptr<GuardedListener>> start(grpc::Server &server,
                                                          const std::vector<std::string> &addresses,
                                                          const std::vector<int *> &selectedPorts,
                                                          std::shared_ptr<TlsServerContext> tls,
                                                          GuardOptions options);
    // Stops accepting, ends every connection and waits for their threads.
    ~GuardedListener();

    size_t openConnections() const { return m_open; }

private:
    struct Connection {
        std::thread thread;
        std::atomic<bool> done{false};
    };
    GuardedListener(grpc::Server &server, std::vector<int> sockets,
                    std::shared_ptr<TlsServerContext> tls, GuardOptions options);
    void acceptLoop();
    void acceptOne(int listening);
    void startRelay(ConnectionSetup setup);
    void reapFinished();
    void log(const std::string &message);

    grpc::Server &m_server;
    std::vector<int> m_sockets;
    std::shared_ptr<TlsServerContext> m_tls;
    GuardOptions m_options;
    int m_spareFd = -1;  // released to accept-and-close when out of files
    int m_wake[2] = {-1, -1};
    std::atomic<bool> m_stopping{false};
    std::atomic<size_t> m_open{0};
    std::list<Connection> m_connections;  // accept thread only
    std::mutex m_logMutex;
    int64_t m_lastRefusalLogMs = 0;
    std::thread m_acceptor;
};

}  // namespace meridian
