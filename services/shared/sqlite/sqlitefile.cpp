#include "sqlitefile.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace meridian {

namespace {

// Opening a file is checks, a switch to WAL and perhaps a migration: several SQLite
// operations, and between them SQLite's own locks let a second process opening the same
// new file (four `meridian sync` from cron) see it half made, or answer "database is
// locked" without waiting. So processes take turns for the opening, holding an advisory
// flock on the file's folder; once open, SQLite's locks serve as before. Not on the file
// itself: closing any descriptor of a database file drops every fcntl lock the process
// holds on it, the locks SQLite's open connections rely on.
class OpeningTurn {
public:
    explicit OpeningTurn(const std::string &path)
        : m_fd(::open(folderOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    {
        for (int waitedMs = 0; m_fd >= 0 && waitedMs < 10'000; waitedMs += 20) {
            if (::flock(m_fd, LOCK_EX | LOCK_NB) == 0)
                return;
            ::usleep(20'000);
        }
    }
    ~OpeningTurn()
    {
        if (m_fd >= 0)
            ::close(m_fd);  // releases the flock
    }
    OpeningTurn(const OpeningTurn &) = delete;
    OpeningTurn &operator=(const OpeningTurn &) = delete;

private:
    static std::string folderOf(const std::string &path)
    {
        const std::string folder = std::filesystem::path(path).parent_path().string();
        return folder.empty() ? std::string(".") : folder;
    }
    // -1 where the folder cannot be opened: SQLite then says why. After 10 s without a
    // turn, opening goes on anyway, relying on SQLite's locks.
    int m_fd;
};

// Every step in one write transaction taken before the version is read again: of several
// processes opening a new file at once (four `meridian sync` from cron), one creates the
// schema and the others, waiting on the lock, find it done.
void migrate(SQLite::Database &db, const SqliteSchema &schema)
{
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    const int latest = static_cast<int>(schema.migrations.size());
    const int version = db.execAndGet("PRAGMA user_version").getInt();
    for (int step = version; step < latest; ++step) {
        if (step == 0)
            db.exec(fmt::format("PRAGMA application_id = {}", schema.applicationId));
        db.exec(schema.migrations[static_cast<size_t>(step)]);
        db.exec(fmt::format("PRAGMA user_version = {}", step + 1));
    }
    tx.commit();
}

}  // namespace

Result<std::unique_ptr<SQLite::Database>> openSqliteFile(const std::string &path,
                                                         const SqliteSchema &schema)
{
    const int latest = static_cast<int>(schema.migrations.size());
    // SQLite would answer a FIFO or a device with "disk I/O error"; say what it is.
    if (struct stat info{}; ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
        return Error{fmt::format("{}: not a regular file; left untouched", path)};
    const OpeningTurn turn(path);
    try {
        auto db =
            std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db->setBusyTimeout(5000);
        // Reading the schema is the first thing that fails on a file that is not SQLite.
        // Emptiness first: the tables and the application id are committed together, so
        // should an opener get no turn, an id read after seeing tables is theirs too.
        const bool empty = db->execAndGet("SELECT count(*) FROM sqlite_master").getInt() == 0;
        const int appId = db->execAndGet("PRAGMA application_id").getInt();
        const int version = db->execAndGet("PRAGMA user_version").getInt();
        if (!empty && appId != schema.applicationId) {
            return Error{
                fmt::format("{} is not a {} (application_id {}); left untouched. Move it "
                            "away or choose another file",
                            path, schema.what, appId)};
        }
        if (version > latest) {
            return Error{
                fmt::format("{} was written by a newer Meridian (schema {} > {}); left "
                            "untouched",
                            path, version, latest)};
        }
        const std::string check = db->execAndGet("PRAGMA quick_check").getString();
        if (check != "ok") {
            return Error{
                fmt::format("{} is damaged ({}); left untouched. Move it away to start a "
                            "new one",
                            path, check)};
        }
        db->exec("PRAGMA journal_mode = WAL");
        db->exec("PRAGMA synchronous = NORMAL");
        db->exec("PRAGMA foreign_keys = ON");
        if (version < latest)
            migrate(*db, schema);
        return db;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}; left untouched", path, e.what())};
    }
}

namespace {

// "file:" URI for SQLite: the characters a URI gives meaning to are escaped.
std::string sqliteUri(const std::string &path, std::string_view query)
{
    std::string uri = "file:";
    for (const char c : std::filesystem::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#')
            uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            uri += c;
    }
    return uri + "?" + std::string(query);
}

}  // namespace

// A WAL-mode file is read through a -shm file beside it, which SQLite must be able to
// create. On a read-only mount (a backup, a copy handed to a manager) it cannot, so the
// file is opened immutable there: read as it stands, which is right, for nothing can be
// writing it.
std::unique_ptr<SQLite::Database> openSqliteForReading(const std::string &path)
{
    try {
        auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READONLY);
        db->setBusyTimeout(5000);
        db->execAndGet("PRAGMA user_version");
        return db;
    } catch (const SQLite::Exception &e) {
        const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
        // SQLITE_READONLY(_CANTINIT) or SQLITE_CANTOPEN, depending on what is missing.
        const bool noSharedMemory =
            e.getErrorCode() == SQLITE_READONLY || e.getErrorCode() == SQLITE_CANTOPEN;
        if (!noSharedMemory || access(folder.c_str(), W_OK) == 0)
            throw;
    }
    return std::make_unique<SQLite::Database>(sqliteUri(path, "immutable=1"),
                                              SQLite::OPEN_READONLY | SQLite::OPEN_URI);
}

}  // namespace meridian
