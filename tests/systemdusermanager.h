// A systemd user manager of a test's own: the real systemd, for what the agent asks of
// systemd-run and systemctl. It runs on a private runtime directory, so it shares
// nothing with a manager the machine may already run.
//
// systemd starts a user manager only on a system booted with it (/run/systemd/system).
// Where systemd is not PID 1 (a container, the CI machine), the manager runs in a mount
// namespace of its own with a private /run that carries that mark; the
// machine's /run is never touched, and nothing else is led to think systemd runs. That
// needs root, as does the agent's systemd path itself.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "childprocess.h"

namespace meridian::test {

class SystemdUserManager {
public:
    // Its runtime directory, log and the two wrappers live under `directory`.
    explicit SystemdUserManager(const std::string &directory);
    ~SystemdUserManager();

    // Empty once it answers; otherwise why it does not, with its log.
    const std::string &problem() const { return m_problem; }
    // systemd-run and systemctl that reach this manager (--user, its runtime directory).
    std::string systemdRun() const { return m_directory + "/systemd-run"; }
    std::string systemctl() const { return m_directory + "/systemctl"; }
    // `command` as a program that looks for systemd finds this manager: those two first
    // on its PATH and, where the manager has a private /run, inside its mount namespace.
    // Each step execs the next, so the pid is the program's.
    std::vector<std::string> seeingIt(const std::vector<std::string> &command) const;

private:
    std::string m_directory;
    std::string m_problem;
    bool m_privateRun = false;
    std::unique_ptr<ChildProcess> m_manager;
};

}  // namespace meridian::test
