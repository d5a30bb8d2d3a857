#include "systemdusermanager.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/toolrunner.h"
#include "testsupport.h"

namespace meridian::test {

namespace {

void writeScript(const std::string &path, const std::string &text)
{
    std::ofstream(path) << "#!/bin/sh\n" << text;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

// The program's own path, found before the wrappers go on anyone's PATH: a wrapper that
// called it by name would find itself.
std::string onPath(const std::string &program)
{
    return findOnPath(program).value_or(program);
}

bool bootedWithSystemd()
{
    std::error_code ec;
    return std::filesystem::is_directory("/run/systemd/system", ec);
}

}  // namespace

SystemdUserManager::SystemdUserManager(const std::string &directory) : m_directory(directory)
{
    const std::string runtime = directory + "/runtime";
    std::filesystem::create_directories(runtime);
    std::filesystem::permissions(runtime, std::filesystem::perms::owner_all);
    // The clients find the manager by its runtime directory, never a desktop's bus.
    const std::string reach =
        "export XDG_RUNTIME_DIR=" + runtime + "; unset DBUS_SESSION_BUS_ADDRESS\n";
    writeScript(systemdRun(), reach + "exec " + onPath("systemd-run") + " --user \"$@\"\n");
    writeScript(systemctl(), reach + "exec " + onPath("systemctl") + " --user \"$@\"\n");

    std::vector<std::string> argv = {"env", "-u", "DBUS_SESSION_BUS_ADDRESS",
                                     "XDG_RUNTIME_DIR=" + runtime};
    if (bootedWithSystemd()) {
        argv.insert(argv.end(), {"systemd", "--user"});
    } else if (::geteuid() != 0) {
        m_problem =
            "systemd is not PID 1 here, and only root can give a user manager the "
            "private /run it then needs: run the tests as root";
        return;
    } else {
        const std::string start = directory + "/start-manager";
        writeScript(start,
                    "mount -t tmpfs -o mode=755 meridian-test-run /run || exit 1\n"
                    "mkdir -p /run/systemd/system\n"
                    "exec systemd --user\n");
        argv.insert(argv.end(), {"unshare", "--mount", "--propagation", "private", start});
        m_privateRun = true;
    }
    m_manager = std::make_unique<ChildProcess>(argv, directory + "/manager.log");
    const bool answers = waitUntil(
        [&] {
            if (m_manager->ended())
                return true;
            std::error_code ec;
            return std::filesystem::exists(runtime + "/systemd/private", ec);
        },
        std::chrono::seconds(20));
    if (!answers || m_manager->ended())
        m_problem = "the systemd user manager did not start: " + m_manager->log();
}

std::vector<std::string> SystemdUserManager::seeingIt(const std::vector<std::string> &command) const
{
    std::vector<std::string> argv;
    if (m_privateRun && m_manager && m_manager->started())
        argv = {"nsenter", "--target", std::to_string(m_manager->pid()), "--mount", "--"};
    const char *path = std::getenv("PATH");
    argv.insert(argv.end(), {"env", "PATH=" + m_directory + ":" + (path ? path : "/usr/bin:/bin")});
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

SystemdUserManager::~SystemdUserManager()
{
    // SIGTERM: the manager stops its units, then exits.
    m_manager.reset();
}

}  // namespace meridian::test
