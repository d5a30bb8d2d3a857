// What the guarded listener and a connection's relay share about one client: whether it
// has made a call that passed the token check, and a way to end it from the listener's
// thread. The token check happens inside gRPC, which knows the connection only as the
// descriptor it was handed ("fd:N" as its peer), so the relay registers that descriptor
// here and Authorizer::check marks it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace meridian {

class GuardedPeer : public std::enable_shared_from_this<GuardedPeer> {
public:
    GuardedPeer(int clientFd, std::string address, int64_t acceptedMs);
    ~GuardedPeer();

    const std::string &address() const { return m_address; }  // the peer's IP, no port
    int64_t acceptedMs() const { return m_acceptedMs; }
    int clientFd() const { return m_clientFd; }
    bool authenticated() const { return m_authenticated; }
    void markAuthenticated() { m_authenticated = true; }

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
};

// Called where a token check passed: marks the guarded connection behind `grpcPeer`
// ("fd:N"), if there is one, as authenticated. Other peers (a plain gRPC listener's
// "ipv4:…") are not guarded and are ignored.
void markPeerAuthenticated(std::string_view grpcPeer);

}  // namespace meridian
