#include "replicalaunch.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/toolrunner.h"

extern char **environ;

namespace meridian {

namespace {

// The agent's environment with the launch's variables over it, as KEY=value lines.
std::vector<std::string> environmentOf(const ReplicaLaunch &launch)
{
    std::map<std::string, std::string> environment;
    for (char **entry = environ; entry && *entry; ++entry) {
        const std::string text(*entry);
        const size_t equals = text.find('=');
        if (equals != std::string::npos)
            environment[text.substr(0, equals)] = text.substr(equals + 1);
    }
    for (const auto &[key, value] : launch.variables)
        environment[key] = value;
    std::vector<std::string> lines;
    for (const auto &[key, value] : environment)
        lines.push_back(key + "=" + value);
    return lines;
}

}  // namespace

Result<LaunchedProcess> launchAsChild(const ReplicaLaunch &launch)
{
    // Everything the child needs is made before fork: after it, only system calls.
    std::vector<std::string> envText = environmentOf(launch);
    std::vector<std::string> argv = launch.argv;
    std::vector<char *> args;
    for (std::string &a : argv)
        args.push_back(a.data());
    args.push_back(nullptr);
    std::vector<char *> envp;
    for (std::string &e : envText)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const std::string &program = launch.argv.front();
    const int log = ::open(launch.logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (log < 0)
        return Error{fmt::format("{}: cannot write the replica's log: {}", launch.logPath,
                                 std::strerror(errno))};
    int failurePipe[2];
    if (::pipe2(failurePipe, O_CLOEXEC) != 0) {
        ::close(log);
        return Error{fmt::format("cannot start {}: {}", program, std::strerror(errno))};
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        // A session of its own: the replica outlives the agent and is stopped as a group.
        ::setsid();
        ::dup2(log, STDOUT_FILENO);
        ::dup2(log, STDERR_FILENO);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            ::dup2(devnull, STDIN_FILENO);
        ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
        std::signal(SIGPIPE, SIG_DFL);
        ::execvpe(args[0], args.data(), envp.data());
        const int error = errno;
        (void)!::write(failurePipe[1], &error, sizeof error);
        ::_exit(127);
    }
    ::close(failurePipe[1]);
    ::close(log);
    if (pid < 0) {
        ::close(failurePipe[0]);
        return Error{fmt::format("cannot start {}: {}", program, std::strerror(errno))};
    }
    // The pipe closes unread when exec succeeds; an exec that failed writes its errno.
    int execError = 0;
    const ssize_t got = ::read(failurePipe[0], &execError, sizeof execError);
    ::close(failurePipe[0]);
    if (got == sizeof execError) {
        ::waitpid(pid, nullptr, 0);
        return Error{fmt::format("cannot start {}: {}", program, std::strerror(execError))};
    }
    return LaunchedProcess{pid, {}};
}

Result<LaunchedProcess> launchAsUnit(const ReplicaLaunch &launch, const std::string &systemdRun,
                                     const std::string &systemctl)
{
    std::vector<std::string> run = {
        systemdRun,
        "--unit=" + launch.unit,
        "--collect",
        "--quiet",
        "--property=KillMode=mixed",
        fmt::format("--property=TimeoutStopSec={:.0f}s", std::ceil(launch.graceSeconds)),
        "--property=StandardOutput=append:" + launch.logPath,
        "--property=StandardError=append:" + launch.logPath};
    for (const auto &[key, value] : launch.variables)
        run.push_back("--setenv=" + key + "=" + value);
    run.push_back("--");
    run.insert(run.end(), launch.argv.begin(), launch.argv.end());
    if (auto launched = runTool({run, 15'000}); !launched)
        return Error{fmt::format("cannot start {} as {}: {}", launch.argv.front(), launch.unit,
                                 launched.error().message)};
    auto shown =
        runTool({{systemctl, "show", "--property=MainPID", "--value", launch.unit}, 5'000});
    const int pid = shown ? std::atoi(shown->c_str()) : 0;
    if (pid <= 0)
        return Error{
            fmt::format("{} has no running process: it ended at once (see journalctl -u {} and {})",
                        launch.unit, launch.unit, launch.logPath)};
    return LaunchedProcess{pid, launch.unit};
}

void signalReplica(int pid, const std::string &unit, int signal, const std::string &systemctl)
{
    if (!unit.empty()) {
        const std::vector<std::string> asked =
            signal == SIGKILL
                ? std::vector<std::string>{systemctl, "kill", "--signal=SIGKILL", unit}
                : std::vector<std::string>{systemctl, "stop", "--no-block", unit};
        if (runTool({asked, 5'000}))
            return;
    }
    if (pid > 0)
        ::kill(-pid, signal);
}

uint64_t processStartTicks(int pid)
{
    std::ifstream in(fmt::format("/proc/{}/stat", pid));
    std::string stat;
    std::getline(in, stat);
    const size_t close = stat.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i == 22)
            return std::strtoull(field.c_str(), nullptr, 10);
    }
    return 0;
}

std::string describeExit(int status)
{
    if (WIFEXITED(status))
        return fmt::format("exited with status {}", WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                           strsignal(WTERMSIG(status)));
    return "ended";
}

}  // namespace meridian
