// One client connection of the guarded listener, on its own thread: the TLS handshake
// (when configured) and the first authenticated call under a deadline, then bytes
// relayed between the client and gRPC's end of a socketpair, every client frame header
// checked by an Http2Guard on the way.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "http2guard.h"

namespace meridian {

class GuardedPeer;
class TlsServerContext;

struct ConnectionSetup {
    // The accepted, non-blocking client; its descriptor is the relay's to close.
    std::shared_ptr<GuardedPeer> state;
    std::string peer;                       // "ip:port", for messages
    std::shared_ptr<TlsServerContext> tls;  // null: plaintext (loopback only)
    // From being accepted, the TLS handshake included, until the first call that passes
    // the token check; a client that has made none by then is closed.
    int authenticateWithinMs = 10'000;
    Http2Budget budget;
    // Hands gRPC its end of the socketpair (it takes ownership).
    std::function<void(int fd)> attach;
    std::function<void(const std::string &)> log;
};

// Runs until either side closes, the client breaks its budget or its deadline, the
// listener evicts it, or `stopping` is set.
void relayConnection(ConnectionSetup setup, const std::atomic<bool> &stopping);

}  // namespace meridian
