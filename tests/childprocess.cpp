#include "childprocess.h"

#include <fcntl.h>
#include <httplib.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string_view>
#include <thread>

#include "core/brokenpipes.h"
#include "testsupport.h"

extern char **environ;

namespace meridian::test {

ChildProcess::ChildProcess(std::vector<std::string> argv, std::string logFile)
    : m_logFile(std::move(logFile))
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, m_logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char *> args;
    for (std::string &arg : argv)
        args.push_back(arg.data());
    args.push_back(nullptr);
    // Started as a shell starts it, whatever this process did with SIGPIPE.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    restoreBrokenPipesOnSpawn(attributes);
    // posix_spawn, not fork: gRPC's fork handlers would disturb this process's channels.
    if (posix_spawnp(&m_pid, args[0], &actions, &attributes, args.data(), environ) != 0)
        m_pid = -1;
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
}

ChildProcess::~ChildProcess()
{
    kill(SIGTERM);
}

void ChildProcess::kill(int signal)
{
    if (m_pid <= 0)
        return;
    ::kill(m_pid, signal);
    // A store flushing its data may take a moment; past ten seconds it is killed. Looked
    // at every 5 ms: most programs are gone within a few, and every case stops several
    // (at 100 ms a look, each stop cost a tenth of a second).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        if (waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
            m_pid = -1;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(m_pid, SIGKILL);
    waitpid(m_pid, nullptr, 0);
    m_pid = -1;
}

bool ChildProcess::ended()
{
    if (m_pid <= 0)
        return true;
    rusage usage{};
    if (wait4(m_pid, &m_waitStatus, WNOHANG, &usage) != m_pid)
        return false;
    m_cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                   static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    m_pid = -1;
    return true;
}

std::string ChildProcess::log() const
{
    return readFile(m_logFile);
}

bool ChildProcess::untilLogSays(const std::string &words, std::chrono::milliseconds timeout)
{
    return waitUntil([&] { return log().find(words) != std::string::npos || ended(); }, timeout);
}

bool waitUntil(const std::function<bool()> &ready, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (ready())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return ready();
}

std::string simControlOnceWritten(const std::string &inventory)
{
    constexpr std::string_view kPool = "capacity_pool: ";
    std::string text;
    if (!waitUntil([&] {
            text = readFile(inventory);
            return text.find('\n', text.find(kPool)) != std::string::npos;
        }))
        return {};
    const size_t at = text.find(kPool) + kPool.size();
    return text.substr(at, text.find('\n', at) - at);
}

bool holdsFor(const std::function<bool()> &holds, std::chrono::milliseconds window)
{
    const auto end = std::chrono::steady_clock::now() + window;
    while (std::chrono::steady_clock::now() < end) {
        if (!holds())
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return holds();
}

std::string httpGet(int port, const std::string &path)
{
    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(2, 0);
    client.set_read_timeout(10, 0);
    auto response = client.Get(path.c_str());
    return response && response->status == 200 ? response->body : std::string();
}

int httpPost(int port, const std::string &path, const std::string &json)
{
    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(2, 0);
    client.set_read_timeout(10, 0);
    auto response = client.Post(path.c_str(), json, "application/json");
    return response ? response->status : 0;
}

}  // namespace meridian::test
