// Starting one replica's process, and the facts about a process the runner watches by.
// Two ways to start it: as the agent's child in a session of its own (inheriting the
// agent's environment), or as a transient systemd unit of its own (systemd-run: its own
// control group, starting from systemd's environment). Either way it gets the variables
// the launch names and appends its output to the launch's log file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct ReplicaLaunch {
    std::vector<std::string> argv;
    std::map<std::string, std::string> variables;  // the service's, the cards', the id
    std::string logPath;
    std::string unit;  // the systemd unit's name, when started as one
    double graceSeconds = 30;
};

struct LaunchedProcess {
    int pid = 0;
    std::string unit;  // empty: the agent's child
};

Result<LaunchedProcess> launchAsChild(const ReplicaLaunch &launch);
Result<LaunchedProcess> launchAsUnit(const ReplicaLaunch &launch, const std::string &systemdRun,
                                     const std::string &systemctl);

// Asks a replica to stop (SIGTERM) or ends it (SIGKILL). A unit goes through systemd:
// `systemctl stop` sends SIGTERM to its main process and, once that has exited, SIGKILL
// to whatever else its control group still holds, however it forked (KillMode=mixed);
// `systemctl kill` ends the whole group at once. A child, or a unit systemctl cannot
// reach, is signalled as its process group.
void signalReplica(int pid, const std::string &unit, int signal, const std::string &systemctl);

// When the process started, in clock ticks since boot (field 22 of /proc/PID/stat): a
// pid and this tell a process from a later one given the same pid. 0: no such process.
uint64_t processStartTicks(int pid);
// "exited with status 3", "was killed by signal 9 (Killed)", from a waitpid status.
std::string describeExit(int status);

}  // namespace meridian
