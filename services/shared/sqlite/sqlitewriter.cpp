#include "sqlitewriter.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Transaction.h>
#include <fmt/format.h>

namespace meridian {

Status writeInTransaction(SqliteWriter &writer, std::string_view what,
                          const std::function<void(SQLite::Database &)> &work)
{
    try {
        writer.runOnWriter([&](SQLite::Database &db) {
            SQLite::Transaction transaction(db);
            work(db);
            transaction.commit();
        });
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot {}: {}", writer.path(), what, e.what())};
    }
}

}  // namespace meridian
