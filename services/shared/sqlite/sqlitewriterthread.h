// A thread that owns a SQLite file's writer connection and runs every write to it, one
// at a time: urgent work (a scaling step, an alert acknowledged) that its caller waits
// for, ahead of background jobs (batches of usage minutes) that nobody waits for. One
// writer per file per process, so the file's users never contend for its write lock.
// Thread-safe; the destructor runs the jobs already posted, then ends the thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "sqlitewriter.h"

namespace meridian {

class SqliteWriterThread final : public SqliteWriter {
public:
    using Job = std::function<void(SQLite::Database &)>;

    SqliteWriterThread(std::unique_ptr<SQLite::Database> writer, std::string path);
    ~SqliteWriterThread();
    SqliteWriterThread(const SqliteWriterThread &) = delete;
    SqliteWriterThread &operator=(const SqliteWriterThread &) = delete;

    // Urgent: runs ahead of the jobs waiting, and returns when done (see SqliteWriter).
    // Once the thread has ended it throws SQLite::Exception naming the file.
    void runOnWriter(const Job &work) override;
    const std::string &path() const override { return m_path; }
    // In the background, after the urgent work and the jobs posted before it. A job
    // reports its own outcome; what it throws is dropped.
    void post(Job job);
    bool onWriterThread() const { return std::this_thread::get_id() == m_thread.get_id(); }

private:
    void run();

    std::unique_ptr<SQLite::Database> m_writer;  // used on the writer thread only
    std::string m_path;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::packaged_task<void()>> m_urgent;
    std::deque<Job> m_jobs;
    bool m_stopping = false;
    bool m_stopped = false;  // the thread has ended: nothing more runs
    std::thread m_thread;
};

}  // namespace meridian
