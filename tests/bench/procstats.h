// Processes for the footprint benchmarks: start one, read its CPU time and memory from /proc.
#pragma once

#include <spawn.h>
#include <sys/types.h>

#include <unistd.h>
#include <vector>

extern char **environ;
#include <fstream>
#include <sstream>
#include <string>

namespace meridian::bench {

// User + system CPU seconds the process has used so far.
inline double cpuSeconds(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t close = text.rfind(')');
    std::istringstream fields(text.substr(close + 2));
    std::string skip;
    for (int i = 0; i < 11; ++i)  // fields 3..13
        fields >> skip;
    unsigned long utime = 0;
    unsigned long stime = 0;
    fields >> utime >> stime;
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// A line of /proc/PID/status in MiB ("VmRSS", "VmHWM").
inline double statusMiB(pid_t pid, const std::string &key)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key + ":", 0) == 0)
            return std::stod(line.substr(key.size() + 1)) / 1024.0;
    }
    return 0;
}

// Starts a program (searched on PATH) without a shell; -1 when it cannot start.
inline pid_t spawnProcess(std::vector<std::string> args)
{
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
        return -1;
    return pid;
}

}  // namespace meridian::bench
