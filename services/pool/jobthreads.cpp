#include "jobthreads.h"

namespace meridian {

JobThreads::~JobThreads()
{
    stop();
}

bool JobThreads::run(std::function<void()> job)
{
    std::lock_guard lock(m_mutex);
    if (m_stopping)
        return false;
    for (auto it = m_workers.begin(); it != m_workers.end();) {
        if (it->done->load()) {
            it->thread.join();
            it = m_workers.erase(it);
        } else {
            ++it;
        }
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    m_workers.push_back({std::thread([job = std::move(job), done] {
                             job();
                             *done = true;
                         }),
                         done});
    return true;
}

void JobThreads::stop()
{
    std::vector<Worker> workers;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        workers.swap(m_workers);
    }
    // A job still running may ask for another: refused, as the pool is stopping.
    for (Worker &w : workers)
        w.thread.join();
}

bool JobThreads::stopping() const
{
    std::lock_guard lock(m_mutex);
    return m_stopping;
}

}  // namespace meridian
