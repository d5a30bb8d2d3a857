// The history file opened for reading: the cards and services its rows refer to, and the
// usage rows of any period, each read at the coarsest grain that covers it exactly
// (rollupplan). Rows stream in key order, one at a time, so a year of 6,000 cards is
// never held at once. Read-only; one per thread. Other rooms' tables in the same file
// (the cost records, the scaling journal) are read through database().
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cardtypes.h"
#include "core/result.h"
#include "rollupplan.h"

namespace SQLite {
class Database;
class Statement;
}  // namespace SQLite

namespace meridian {

// What usage rows refer to.
struct CardCatalog {
    std::vector<std::optional<CardPlace>> cards;  // by card id; empty: not a card we know
    std::map<int64_t, std::string> services;      // by service id
};

// One card's usage over one minute, hour or day.
struct UsageRow {
    int64_t card = 0;  // id in the catalog
    int64_t service = 0;
    double observedSeconds = 0;
    double busySeconds = 0;
    double energyJoules = 0;
    double utilizationSeconds = 0;  // observed seconds that carried a utilisation reading
    double utilizationPercentSeconds = 0;
};

class UsageRows {
public:
    // A file that is missing, not ours, or older than the roll-ups is refused with a
    // message that says what to do. A file on a read-only mount is read as it stands.
    static Result<std::unique_ptr<UsageRows>> open(const std::string &historyFile);
    ~UsageRows();

    const CardCatalog &catalog() const { return m_catalog; }
    const std::string &path() const { return m_path; }
    // Every row whose start lies in [fromUnixS, toUnixS), in turn; an error names the file.
    Status read(int64_t fromUnixS, int64_t toUnixS,
                const std::function<void(const UsageRow &)> &row);
    // The connection, for the other tables of the file.
    SQLite::Database &database() { return *m_db; }

private:
    UsageRows(std::unique_ptr<SQLite::Database> db, std::string path);
    void load();

    std::unique_ptr<SQLite::Database> m_db;
    std::string m_path;
    CardCatalog m_catalog;
    KeptRange m_kept;
    std::map<Grain, std::unique_ptr<SQLite::Statement>> m_statements;  // one per grain, reused
};

}  // namespace meridian
