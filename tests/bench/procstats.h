// CPU time and memory of another process, from /proc, for the footprint benchmarks.
#pragma once

#include <sys/types.h>

#include <unistd.h>
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

}  // namespace meridian::bench
