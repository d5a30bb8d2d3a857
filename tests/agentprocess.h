// A real meridian-agent process for integration tests, and the client-side helpers that
// talk to it over loopback gRPC.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "meridian/v1/node_agent.grpc.pb.h"
#include "wire/security.h"

namespace meridian::test {

// A TCP port nobody listens on now, and that no other test running beside this one is
// given: this process's from now on.
int freePort();

// A self-signed certificate for localhost and 127.0.0.1 on an EC key, made with openssl; false
// when openssl is missing or failed.
bool makeLocalhostCertificate(const std::string &keyFile, const std::string &certFile);

// A TLS client that completes its handshake and then resets the connection, as a port
// scanner, a load balancer's probe or a console killed while it connects does. Returns
// whether the handshake completed.
bool handshakeAndReset(int port, const std::string &caFile);

class TempDir;

// Writes dir/agent.yaml for a simulated agent with TLS, its certificate made fresh as
// dir/agent.crt (the clients' CA file) and dir/agent.key, and `moreYaml` after it (its
// listen addresses, its tokens). Returns the file's path; "" when openssl failed.
std::string writeTlsAgentConfig(const TempDir &dir, const std::string &moreYaml);

// Limits an agent runs under (0: none). A thread limit needs a user it applies to (root
// is exempt from RLIMIT_NPROC), so with one the agent runs as nobody, from a copy of its
// binary in `scratchDir` (the checkout may be where nobody cannot reach); the data dir
// must be writable by nobody too.
struct AgentLimits {
    int openFiles = 0;
    int threads = 0;
    std::string scratchDir;
    // The agent's command line is passed through this (SystemdUserManager::seeingIt,
    // say), which must exec it in place so the pid stays the agent's.
    std::function<std::vector<std::string>(std::vector<std::string>)> runUnder;
};

class AgentProcess {
public:
    explicit AgentProcess(std::vector<std::string> args, AgentLimits limits = {});
    ~AgentProcess() { stop(SIGTERM); }
    void stop(int signal);
    // Exit status if it has ended, -1 while it runs.
    int exitedWith();
    // Waits for it to end: its exit status, or -1 (killed, or already stopped).
    int waitExit();
    pid_t pid() const { return m_pid; }

private:
    pid_t m_pid = -1;
};

// The process's resident memory now, in MiB (0 once it is gone).
double residentMiB(pid_t pid);

// The process's thread count now (0 once it is gone).
int threadCount(pid_t pid);

// Whether a loopback port ("host:port", reached on 127.0.0.1) accepts a TCP connection
// within `within`.
bool untilListening(const std::string &address, std::chrono::milliseconds within);

// A stub on a channel that is connected (or failed to connect within 10 s); the port is
// waited for first, so a channel to a process just started skips gRPC's back-off.
std::unique_ptr<v1::NodeAgent::Stub> connect(const std::string &address,
                                             const ClientSecurity &security = {});

void withDeadline(grpc::ClientContext &context, std::chrono::seconds s = std::chrono::seconds(5));

// `service` served in this process on a loopback port of its own, without TLS: a stand-in
// for a peer (a pool, a wrong server) that a client under test calls. Null, with a failed
// check, when it cannot listen.
std::unique_ptr<grpc::Server> serveOnLoopback(grpc::Service &service, int &port);

// After a restart the first call may ride a connection to the old, dead process and
// fail UNAVAILABLE; like any client, retry that (and only that) until the agent answers.
bool untilAnswering(v1::NodeAgent::Stub &stub);

}  // namespace meridian::test
