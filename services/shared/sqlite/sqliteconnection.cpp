#include "sqliteconnection.h"

#include <SQLiteCpp/Database.h>

#include "sqlitewriter.h"

namespace meridian {

SqliteConnection::SqliteConnection(std::unique_ptr<SQLite::Database> own) : m_own(std::move(own))
{}

SqliteConnection::SqliteConnection(SqliteWriter &writer) : m_writer(&writer)
{}

SqliteConnection::~SqliteConnection() = default;

void SqliteConnection::run(const std::function<void(SQLite::Database &)> &work) const
{
    if (m_writer) {
        m_writer->runOnWriter(work);
        return;
    }
    std::lock_guard lock(m_ownLock);
    work(*m_own);
}

}  // namespace meridian
