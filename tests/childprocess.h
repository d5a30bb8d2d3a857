// A real program started by a test (meridian-sim, Prometheus, VictoriaMetrics), its
// output in a log file, stopped with SIGTERM (or whatever the test sends) at the end.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace meridian::test {

class ChildProcess {
public:
    // argv[0] is looked up on PATH when it has no slash.
    ChildProcess(std::vector<std::string> argv, std::string logFile);
    ~ChildProcess();
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    bool started() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    void kill(int signal);
    // True once the process has ended by itself; waitStatus() then says how.
    bool ended();
    int waitStatus() const { return m_waitStatus; }
    // Once it has ended: the processor time it took, user and system. A bound on work
    // done holds on a busy machine, where one on the wall clock would not.
    double cpuSeconds() const { return m_cpuSeconds; }
    std::string log() const;
    // Waits until its output says `words` (a server's "serving on") or it has ended;
    // false on neither within `timeout`. A client that calls a server before it listens
    // finds the port closed, and gRPC does not try that channel again for seconds.
    bool untilLogSays(const std::string &words,
                      std::chrono::milliseconds timeout = std::chrono::seconds(30));

private:
    pid_t m_pid = -1;
    int m_waitStatus = 0;
    double m_cpuSeconds = 0;
    std::string m_logFile;
};

// Calls `ready` every 25 ms until it is true or `timeout` passes; false on timeout.
// For real processes' start-up and scrapes, which no virtual clock can advance.
bool waitUntil(const std::function<bool()> &ready,
               std::chrono::milliseconds timeout = std::chrono::seconds(30));

// Calls `holds` every 100 ms for `window`: false at the first call that finds it false.
// For a claim that something does NOT happen (no second page, no third node), which no
// event marks: the claim is checked all along the window, not once after a sleep.
bool holdsFor(const std::function<bool()> &holds, std::chrono::milliseconds window);

// The SimControl address of a meridian-sim started with `--inventory-out inventory`
// (the inventory's capacity_pool), once it has written the file; "" if not within 30 s.
std::string simControlOnceWritten(const std::string &inventory);

// The whole body of http://127.0.0.1:port/path, or "" when it does not answer 200.
std::string httpGet(int port, const std::string &path);
// POSTs JSON to http://127.0.0.1:port/path; the status, or 0 when nothing answered.
int httpPost(int port, const std::string &path, const std::string &json);

}  // namespace meridian::test
