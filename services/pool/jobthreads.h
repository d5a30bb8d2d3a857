// Threads for the pool's provider calls, one a job: each runs to its end (a provider may
// take minutes to bring a node up), and is joined when a later job starts or when the pool
// stops, so a pool that runs for months keeps no finished thread per lease it ever made.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace meridian {

class JobThreads {
public:
    JobThreads() = default;
    JobThreads(const JobThreads &) = delete;
    JobThreads &operator=(const JobThreads &) = delete;
    ~JobThreads();

    // Runs `job` on a thread of its own; false (and nothing run) once stopping.
    bool run(std::function<void()> job);
    // Takes no new job and waits for those running.
    void stop();
    bool stopping() const;

private:
    struct Worker {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    mutable std::mutex m_mutex;
    std::vector<Worker> m_workers;
    bool m_stopping = false;
};

}  // namespace meridian
