// The one writer of a SQLite file in this process, as its other users see it: they hand
// their work to it instead of opening the file again and contending for its lock.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteWriter {
public:
    // Runs `work` on the writer's connection and returns when it is done; whatever it
    // throws is thrown here. Called on the writer thread itself, it runs at once.
    virtual void runOnWriter(const std::function<void(SQLite::Database &)> &work) = 0;
    // The file it writes, for messages.
    virtual const std::string &path() const = 0;

protected:
    ~SqliteWriter() = default;
};

// `work` in one transaction on the writer, rolled back if it throws; the error names the
// file and what could not be done ("record prices").
Status writeInTransaction(SqliteWriter &writer, std::string_view what,
                          const std::function<void(SQLite::Database &)> &work);

}  // namespace meridian
