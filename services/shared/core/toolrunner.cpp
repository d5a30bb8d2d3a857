#include "toolrunner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "brokenpipes.h"
#include "clock.h"

extern char **environ;

namespace meridian {

namespace {

std::string firstLine(const std::string &text)
{
    const size_t end = text.find('\n');
    return text.substr(0, std::min<size_t>(end, 200));
}

// A tool's timeout is real time: it runs on the machine, not on a test's clock.
int64_t msUntil(int64_t deadlineSteadyMs)
{
    return deadlineSteadyMs - SystemClock::instance().steadyMs();
}

// Waits for the tool until the deadline. A tool may close its output and keep running
// (or ignore SIGTERM), so this never blocks in waitpid: it polls, then kills the tool's
// whole process group, which also takes any helper it started.
bool reapBefore(pid_t pid, int64_t deadlineSteadyMs, int &status)
{
    for (int pauseMs = 1;; pauseMs = std::min(pauseMs * 2, 50)) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            return true;
        if (msUntil(deadlineSteadyMs) <= 0)
            return false;
        usleep(static_cast<useconds_t>(pauseMs) * 1000);
    }
}

void killAndReap(pid_t pid, int &status)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

// The tool's stdout and stderr, and its stdin when it is given input.
struct Pipes {
    int out[2] = {-1, -1};
    int err[2] = {-1, -1};
    int in[2] = {-1, -1};

    bool open(bool withInput)
    {
        return pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0 &&
               (!withInput || pipe2(in, O_CLOEXEC) == 0);
    }
    // The tool's ends, once it has them (or once it failed to start).
    void closeChildEnds()
    {
        closeOne(out[1]);
        closeOne(err[1]);
        closeOne(in[0]);
    }
    void closeAll()
    {
        closeChildEnds();
        closeOne(out[0]);
        closeOne(err[0]);
        closeOne(in[1]);
    }
    static void closeOne(int &fd)
    {
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
};

// Started in a process group of its own, so a timeout kills the tool and whatever it
// spawned; the spawn's error number, 0 on success.
int spawnTool(const ToolRun &run, const Pipes &pipes, pid_t &pid)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipes.out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipes.err[1], STDERR_FILENO);
    if (pipes.in[0] >= 0)
        posix_spawn_file_actions_adddup2(&actions, pipes.in[0], STDIN_FILENO);
    else
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    restoreBrokenPipesOnSpawn(attributes);
    std::vector<char *> argv;
    for (const std::string &arg : run.argv)
        argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    const int spawned =
        posix_spawnp(&pid, run.argv.front().c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return spawned;
}

struct Output {
    std::string out;
    std::string err;
    bool overflow = false;
    bool timedOut = false;
};

// Reads both streams until the tool closes them, the deadline passes, or it prints more
// than the cap; closes the read ends.
Output readOutput(Pipes &pipes, int64_t deadline, size_t maxOutputBytes)
{
    Output output;
    pollfd fds[2] = {{pipes.out[0], POLLIN, 0}, {pipes.err[0], POLLIN, 0}};
    int open = 2;
    char buffer[65536];
    while (open > 0) {
        const int64_t left = msUntil(deadline);
        if (left <= 0) {
            output.timedOut = true;
            break;
        }
        if (poll(fds, 2, static_cast<int>(left)) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n <= 0) {
                fds[i].fd = -1;
                --open;
                continue;
            }
            std::string &sink = i == 0 ? output.out : output.err;
            if (sink.size() + static_cast<size_t>(n) > maxOutputBytes) {
                output.overflow = true;
                open = 0;
                break;
            }
            sink.append(buffer, static_cast<size_t>(n));
        }
    }
    Pipes::closeOne(pipes.out[0]);
    Pipes::closeOne(pipes.err[0]);
    return output;
}

}  // namespace

Result<std::string> runTool(const ToolRun &run)
{
    if (run.argv.empty())
        return Error{"no command given"};
    const std::string &program = run.argv.front();
    if (run.input.size() > 60 * 1024)
        return Error{fmt::format("{}: more than 60 KB of input", program)};
    Pipes pipes;
    if (!pipes.open(!run.input.empty())) {
        const int why = errno;
        pipes.closeAll();
        return Error{fmt::format("{}: cannot create a pipe: {}", program, std::strerror(why))};
    }
    pid_t pid = 0;
    const int spawned = spawnTool(run, pipes, pid);
    pipes.closeChildEnds();
    if (spawned != 0) {
        pipes.closeAll();
        return Error{fmt::format("{}: cannot run it: {}", program, std::strerror(spawned))};
    }
    if (pipes.in[1] >= 0) {
        // Fits the pipe's buffer: written whole whether or not the tool reads it; a tool
        // that exits unread is an EPIPE, not the end of this process.
        ignoreBrokenPipes();
        (void)!write(pipes.in[1], run.input.data(), run.input.size());
        Pipes::closeOne(pipes.in[1]);
    }
    const int64_t deadline = SystemClock::instance().steadyMs() + run.timeoutMs;
    Output output = readOutput(pipes, deadline, run.maxOutputBytes);
    int status = 0;
    if (output.timedOut || output.overflow || !reapBefore(pid, deadline, status)) {
        output.timedOut = output.timedOut || !output.overflow;
        killAndReap(pid, status);
    }
    if (output.timedOut)
        return Error{fmt::format("{}: no answer within {} ms; killed it", program, run.timeoutMs)};
    if (output.overflow)
        return Error{
            fmt::format("{}: printed more than {} bytes; killed it", program, run.maxOutputBytes)};
    if (WIFSIGNALED(status))
        return Error{fmt::format("{}: killed by signal {}", program, WTERMSIG(status))};
    if (WEXITSTATUS(status) != 0) {
        return Error{fmt::format("{}: exit status {}: {}", program, WEXITSTATUS(status),
                                 firstLine(output.err.empty() ? output.out : output.err))};
    }
    return std::move(output.out);
}

std::optional<std::string> findOnPath(const std::string &program)
{
    const char *path = std::getenv("PATH");
    if (!path)
        return std::nullopt;
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        if (access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return std::nullopt;
}

bool toolOnPath(const std::string &program)
{
    return findOnPath(program).has_value();
}

}  // namespace meridian
