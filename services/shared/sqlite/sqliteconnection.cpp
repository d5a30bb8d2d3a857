#include "sqliteconnection.h"

#include <SQLiteCpp/Database.h>

namespace meridian {

SqliteConnection::SqliteConnection(std::unique_ptr<SQLite::Database> own)
    : m_own(std::move(own)), m_db(m_own.get()), m_lock(&m_ownLock)
{}

SqliteConnection::SqliteConnection(SQLite::Database &lender, std::mutex &lock)
    : m_db(&lender), m_lock(&lock)
{}

SqliteConnection::~SqliteConnection() = default;

}  // namespace meridian
