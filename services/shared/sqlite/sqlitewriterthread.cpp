#include "sqlitewriterthread.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>

namespace meridian {

SqliteWriterThread::SqliteWriterThread(std::unique_ptr<SQLite::Database> writer, std::string path)
    : m_writer(std::move(writer)), m_path(std::move(path))
{
    m_thread = std::thread([this] { run(); });
}

SqliteWriterThread::~SqliteWriterThread()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    m_thread.join();  // runs what was posted first: nothing handed over is lost
}

void SqliteWriterThread::run()
{
    for (;;) {
        std::deque<std::packaged_task<void()>> urgent;
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock,
                           [this] { return !m_urgent.empty() || !m_jobs.empty() || m_stopping; });
            if (m_urgent.empty() && m_jobs.empty()) {
                m_stopped = true;
                return;
            }
            // Urgent work first: a journal step is waited for by a scale-up in flight,
            // usage only by the next report.
            urgent.swap(m_urgent);
            if (urgent.empty()) {
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
        }
        for (auto &task : urgent)
            task();  // its outcome, exceptions included, goes to whoever waits for it
        if (!job)
            continue;
        try {
            job(*m_writer);
        } catch (...) {
            // A job reports its own failures; one that escaped must not end the writer.
        }
    }
}

void SqliteWriterThread::runOnWriter(const Job &work)
{
    if (onWriterThread()) {
        work(*m_writer);
        return;
    }
    std::packaged_task<void()> task([&] { work(*m_writer); });
    std::future<void> done = task.get_future();
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            throw SQLite::Exception(m_path + ": the file's writer has stopped");
        m_urgent.push_back(std::move(task));
    }
    m_changed.notify_all();
    done.get();
}

void SqliteWriterThread::post(Job job)
{
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_changed.notify_all();
}

}  // namespace meridian
