#include "openfiles.h"

#include <fmt/format.h>
#include <sys/resource.h>

namespace meridian {

namespace {

// Files the console keeps for itself: the history file and its WAL, Qt, fonts, logs.
constexpr uint64_t kReservedFiles = 256;
// An agent's channel is one connection; its usage back-fill opens a second one.
constexpr uint64_t kFilesPerAgent = 2;
// In-process simulated nodes add their listening socket and the accepted connections.
constexpr uint64_t kFilesPerEmbeddedNode = kFilesPerAgent + 3;

}  // namespace

uint64_t raiseOpenFileLimit()
{
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0)
        return 1024;
    if (files.rlim_cur < files.rlim_max) {
        rlimit raised = files;
        raised.rlim_cur = files.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            files = raised;
    }
    return static_cast<uint64_t>(files.rlim_cur);
}

Status checkRoomForAgents(size_t agents, uint64_t openFileLimit, bool embeddedFleet)
{
    const uint64_t perAgent = embeddedFleet ? kFilesPerEmbeddedNode : kFilesPerAgent;
    const uint64_t needed = kReservedFiles + perAgent * agents;
    if (needed <= openFileLimit)
        return {};
    const uint64_t fits =
        openFileLimit > kReservedFiles ? (openFileLimit - kReservedFiles) / perAgent : 0;
    return Error{fmt::format(
        "{} {} need about {} open files, but this process may open only {} (room for about "
        "{}); raise the limit to at least {} (ulimit -n, or LimitNOFILE= in a systemd unit)",
        agents, embeddedFleet ? "simulated nodes" : "agents", needed, openFileLimit, fits, needed)};
}

}  // namespace meridian
