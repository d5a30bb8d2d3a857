// A thread that owns a file's one writer connection and runs work on it, one piece at a
// time. Other writers of the same file in the process hand their work to it instead of
// opening the file again and contending for its lock.
#pragma once

#include <functional>

namespace SQLite {
class Database;
}

namespace meridian {

class SqliteWriter {
public:
    // Runs `work` on the writer thread and returns when it is done; whatever it throws is
    // thrown here. Called on the writer thread itself, it runs at once.
    virtual void runOnWriter(const std::function<void(SQLite::Database &)> &work) = 0;

protected:
    ~SqliteWriter() = default;
};

}  // namespace meridian
