// A SQLite connection and the lock it is used under: one of its own, or one borrowed
// from the file's main writer in this process (the history store lends its writer
// connection to the scaling journal and the alert triage log, so they take turns instead
// of contending for the file).
#pragma once

#include <memory>
#include <mutex>

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteConnection {
public:
    explicit SqliteConnection(std::unique_ptr<SQLite::Database> own);
    // `lender` and `lock` must outlive this.
    SqliteConnection(SQLite::Database &lender, std::mutex &lock);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection &) = delete;
    SqliteConnection &operator=(const SqliteConnection &) = delete;

    SQLite::Database &db() const { return *m_db; }
    std::mutex &lock() const { return *m_lock; }
    bool borrowed() const { return !m_own; }

private:
    std::unique_ptr<SQLite::Database> m_own;
    mutable std::mutex m_ownLock;
    SQLite::Database *m_db;
    std::mutex *m_lock;
};

}  // namespace meridian
