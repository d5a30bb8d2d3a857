// Where a SQLite user's statements run: on a connection of its own, under its own lock,
// or on the file's writer thread in this process (the history store's, for the scaling
// journal and the alert triage log, so the history file has one writer).
#pragma once

#include <functional>
#include <memory>
#include <mutex>

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteWriter;

class SqliteConnection {
public:
    explicit SqliteConnection(std::unique_ptr<SQLite::Database> own);
    // `writer` must outlive this.
    explicit SqliteConnection(SqliteWriter &writer);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection &) = delete;
    SqliteConnection &operator=(const SqliteConnection &) = delete;

    // Runs `work` one at a time with every other use of the connection; what it throws
    // is thrown here.
    void run(const std::function<void(SQLite::Database &)> &work) const;
    // True when the work runs on another owner's writer connection, whose settings
    // (synchronous mode) are that owner's.
    bool onSharedWriter() const { return m_writer != nullptr; }

private:
    std::unique_ptr<SQLite::Database> m_own;
    mutable std::mutex m_ownLock;
    SqliteWriter *m_writer = nullptr;
};

}  // namespace meridian
