// HAProxy's runtime API (the "stats socket ipv4@host:port level admin" line of its
// configuration), as the controller uses it: list a backend's servers with their state
// and open sessions, add a server, drain one, delete one. One command a connection, each
// under a deadline, its answer capped: the API is a socket like any other. Blocking:
// called from the controller's pass, never the UI.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct BalancedServer {
    std::string name;
    std::string address;  // host:port
    std::string status;   // as HAProxy says it: UP, DOWN, MAINT, DRAIN, "no check"; with
                          // checks, their progress after it ("DRAIN 1/3")
    int sessions = 0;     // open now
    bool draining() const;
};

// What a backend holds now: its servers, and what waits at the balancer itself.
struct BackendState {
    std::vector<BalancedServer> servers;
    // Requests waiting for a server: every server is at its `maxconn`, so the queue is
    // here rather than in the replicas.
    int queued = 0;
    int open = 0;  // held by the backend now: at a server, or queued
    // HTTP requests the backend has finished since HAProxy started (one still queued or
    // at a server is not in it yet): with `open`, every request that came in. None when
    // the statistics have no count that reads as one.
    std::optional<uint64_t> requestsTotal;
};

// `backend` out of the answer to `show stat` (CSV); `place` names the runtime API in
// errors. An answer that is not statistics, or lacks the backend, is an error.
Result<BackendState> backendFromStatistics(const std::string &answer, const std::string &backend,
                                           const std::string &place);

class HaproxyRuntime {
public:
    explicit HaproxyRuntime(std::string runtimeApi, int timeoutMs = 2000);

    Result<BackendState> backend(const std::string &backend) const;
    Result<std::vector<BalancedServer>> servers(const std::string &backend) const;
    // Added ready to take requests (HAProxy adds a server in maintenance), health-checked
    // by HAProxy as the backend says (`option httpchk GET /health`; a TCP connect without).
    // `options` are more server keywords ("maxconn 16 inter 2s").
    Status addServer(const std::string &backend, const std::string &name,
                     const std::string &address, const std::string &options = {}) const;
    // No new requests; those under way finish.
    Status drainServer(const std::string &backend, const std::string &name) const;
    // Takes requests again after a drain.
    Status readyServer(const std::string &backend, const std::string &name) const;
    // Out of the backend for good (HAProxy deletes only a server in maintenance).
    Status deleteServer(const std::string &backend, const std::string &name) const;

    // One command and its whole answer.
    Result<std::string> command(const std::string &line) const;

private:
    Status expectQuiet(const std::string &line) const;

    std::string m_runtimeApi;
    int m_timeoutMs;
};

}  // namespace meridian
