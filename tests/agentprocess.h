// A real meridian-agent process for integration tests, and the client-side helpers that
// talk to it over loopback gRPC.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "meridian/v1/node_agent.grpc.pb.h"
#include "transport/security.h"

namespace meridian::test {

// A loopback TCP port nobody listens on now.
int freePort();

class AgentProcess {
public:
    // openFileLimit > 0: the agent runs with that soft and hard limit on open files.
    explicit AgentProcess(std::vector<std::string> args, int openFileLimit = 0);
    ~AgentProcess() { stop(SIGTERM); }
    void stop(int signal);
    // Exit status if it has ended, -1 while it runs.
    int exitedWith();
    int waitExit();
    pid_t pid() const { return m_pid; }

private:
    pid_t m_pid = -1;
};

// The process's resident memory now, in MiB (0 once it is gone).
double residentMiB(pid_t pid);

std::unique_ptr<v1::NodeAgent::Stub> connect(const std::string &address,
                                             const ClientSecurity &security = {});

void withDeadline(grpc::ClientContext &context, std::chrono::seconds s = std::chrono::seconds(5));

// After a restart the first call may ride a connection to the old, dead process and
// fail UNAVAILABLE; like any client, retry that (and only that) until the agent answers.
bool untilAnswering(v1::NodeAgent::Stub &stub);

}  // namespace meridian::test
