// What the guarded listener and a connection's relay share about one client: whether it
// has made a call that passed the token check, the slot its token holds in the server's
// room for connections, and a way to end it from the listener's thread. The token check
// happens inside gRPC, which knows the connection only as the descriptor it was handed
// ("fd:N" as its peer), so the relay registers that descriptor here and Authorizer::check
// admits it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "clientroom.h"
#include "core/result.h"

namespace meridian {

struct TokenGrant;

class GuardedPeer : public std::enable_shared_from_this<GuardedPeer> {
public:
    // `room`: where authenticated connections take their slot (null: no caps).
    GuardedPeer(int clientFd, std::string address, int64_t acceptedMs,
                std::shared_ptr<ClientRoom> room = nullptr);
    ~GuardedPeer();

    const std::string &address() const { return m_address; }  // the peer's IP, no port
    int64_t acceptedMs() const { return m_acceptedMs; }
    int clientFd() const { return m_clientFd; }
    bool authenticated() const { return m_authenticated; }
    // A call passed the token check: the connection takes a slot for `grant` (none is
    // needed without tokens, `grant` null) and is authenticated, or, its token or
    // address at their cap, is refused and stays unauthenticated.
    Status authenticate(const TokenGrant *grant, int64_t nowMs);
    // When a call on it was last refused room (0: never); such a connection is closed
    // once the refusal has reached its client.
    int64_t refusedMs() const { return m_refusedMs; }
    // When its TLS handshake finished (plaintext: when the relay began); 0 before.
    int64_t handshakenMs() const { return m_handshakenMs; }
    void markHandshaken(int64_t nowMs) { m_handshakenMs = nowMs; }

    // From the listener: wakes the relay, which then ends the connection. Safe against
    // the relay closing the descriptor at the same time.
    void evict();
    bool evicted() const { return m_evicted; }
    // From the relay, once: closes the client's descriptor.
    void closeClient();

    // gRPC's end of this connection's socketpair, so a passed token check finds it.
    void watchGrpcEnd(int grpcFd);

private:
    mutable std::mutex m_fdMutex;
    int m_clientFd;
    int m_grpcFd = -1;
    std::string m_address;
    int64_t m_acceptedMs;
    std::atomic<bool> m_authenticated{false};
    std::atomic<bool> m_evicted{false};
    std::atomic<int64_t> m_refusedMs{0};
    std::atomic<int64_t> m_handshakenMs{0};
    std::mutex m_authMutex;
    std::shared_ptr<ClientRoom> m_room;
    ClientRoom::Slot m_slot;
};

// Called where a token check passed: the guarded connection behind `grpcPeer` ("fd:N"),
// if there is one, is authenticated as `grant` (null without tokens), or refused room.
// Other peers (a plain gRPC listener's "ipv4:…") are not guarded and always pass.
Status admitGuardedPeer(std::string_view grpcPeer, const TokenGrant *grant);

// The client's IP address behind gRPC's peer string: a guarded connection's real
// client, or the address in "ipv4:a.b.c.d:port" / "ipv6:[…]:port".
std::string clientAddressOf(std::string_view grpcPeer);

}  // namespace meridian
