// Opening one of our SQLite files safely: a file that is not ours, is damaged, or was
// written by a newer version is named and left untouched; ours is put in WAL mode and
// migrated (PRAGMA user_version) in one transaction, safe under concurrent openers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace SQLite {
class Database;
}

namespace meridian {

struct SqliteSchema {
    int applicationId = 0;  // PRAGMA application_id: tells our files from anyone else's
    std::string what;       // "Meridian agent ledger", for messages
    std::vector<std::string> migrations;  // migrations[i] takes user_version i to i + 1
};

Result<std::unique_ptr<SQLite::Database>> openSqliteFile(const std::string &path,
                                                         const SqliteSchema &schema);

// Read-only, writing nothing, for readers of a file another process writes; on a
// read-only mount, where a WAL file's shared memory cannot be made, opened immutable.
// Throws SQLite::Exception as SQLiteCpp does.
std::unique_ptr<SQLite::Database> openSqliteForReading(const std::string &path);

}  // namespace meridian
