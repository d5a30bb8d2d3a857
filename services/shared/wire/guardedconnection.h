// One client connection of the guarded listener, on its own thread: the TLS handshake
// (when configured) under a deadline, then bytes relayed between the client and gRPC's
// end of a socketpair, every client frame header checked by an Http2Guard on the way.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "http2guard.h"

namespace meridian {

class TlsServerContext;

struct ConnectionSetup {
    int clientFd = -1;  // accepted, non-blocking; owned by the connection from here
    std::string peer;   // "ip:port", for messages
    std::shared_ptr<TlsServerContext> tls;  // null: plaintext (loopback only)
    int handshakeTimeoutMs = 10'000;
    Http2Budget budget;
    // Hands gRPC its end of the socketpair (it takes ownership).
    std::function<void(int fd)> attach;
    std::function<void(const std::string &)> log;
};

// Runs until either side closes, the client breaks its budget, or `stopping` is set.
void relayConnection(ConnectionSetup setup, const std::atomic<bool> &stopping);

}  // namespace meridian
