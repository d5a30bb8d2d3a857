// The agent's own front door. gRPC 1.51 neither bounds HTTP/2 abuse before its token
// check nor recovers once accept() runs out of files, so the agent accepts clients on
// its own sockets: at most maxConnections at a time, each on a thread that terminates
// TLS and checks the client's frames (guardedconnection.h), and only then hands the
// connection to the gRPC server through a socketpair.
// - Clients that have not yet authenticated are capped, per network and in all, and
//   make room for newcomers from the network with the most of them, so churn from many
//   addresses cannot push out a real client from elsewhere.
// - Authenticated connections take a slot in a ClientRoom: capped per token and per
//   address, with a reserve only operators may use, so a read-only token holding every
//   door it can still leaves operators and other tokens served.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "clientroom.h"
#include "core/result.h"
#include "guardedconnection.h"
#include "guardedpeer.h"
#include "http2guard.h"

namespace grpc {
class Server;
}

namespace meridian {

class TlsServerContext;

struct GuardOptions {
    size_t maxConnections = 256;  // also kept below the open-file limit
    // A connection is pending from being accepted until it makes a call that passes the
    // token check, which it must do within this time (the TLS handshake included).
    int authenticateWithinMs = 10'000;
    // Pending connections may hold at most a quarter of the slots, and those from one
    // network (an IPv4 /24, an IPv6 /64) at most maxPendingPerNetwork. Past the network's
    // cap one of its own makes room for the newcomer; past the total cap, or when every
    // slot is taken, one from the network holding the most pending connections does.
    // Within a network the first to go is one refused room for its token, then one
    // silent a second after its TLS handshake, then one still in its handshake, oldest
    // first; one that has just finished its handshake is about to call and goes last.
    // So churning or idle clients from other networks cannot push out a client with a
    // token at all, and those in its own network only by outpacing its handshake.
    size_t maxPendingPerNetwork = 16;
    // Authenticated connections: RoomLimits::sharing(maxConnections) (a quarter per
    // token and per address, an eighth only for operators).
    std::string serverName;  // in messages; default: this program's name
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
        std::shared_ptr<GuardedPeer> state;
        std::string network;  // its fair-share network (fairShareNetworkOf)
        std::atomic<bool> done{false};
    };
    GuardedListener(grpc::Server &server, std::vector<int> sockets,
                    std::shared_ptr<TlsServerContext> tls, GuardOptions options);
    void acceptLoop();
    void acceptOne(int listening);
    bool admit(const std::string &network, const std::string &peer);
    void startRelay(ConnectionSetup setup, std::string network);
    void reapFinished();
    void log(const std::string &message);

    grpc::Server &m_server;
    std::vector<int> m_sockets;
    std::shared_ptr<TlsServerContext> m_tls;
    GuardOptions m_options;
    size_t m_maxPending = 0;
    std::shared_ptr<ClientRoom> m_authenticated;
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
