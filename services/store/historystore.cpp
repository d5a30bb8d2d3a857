#include "historystore.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "sqlitefile.h"

namespace meridian {

namespace {

constexpr int kApplicationId = 1296388424;  // "MERH": the console's history
constexpr size_t kQueueLimit = 256;         // batches; a full queue makes submitters wait
constexpr size_t kBatchesPerTransaction = 64;

const SqliteSchema kSchema{kApplicationId, "Meridian history file", {R"(
    CREATE TABLE node (
        id INTEGER PRIMARY KEY,
        node_id TEXT NOT NULL UNIQUE,
        data_center TEXT NOT NULL,
        rack TEXT NOT NULL,
        hostname TEXT NOT NULL
    );
    CREATE TABLE card (
        id INTEGER PRIMARY KEY,
        uuid TEXT NOT NULL UNIQUE,
        node INTEGER NOT NULL REFERENCES node(id),
        card_index INTEGER NOT NULL,
        vendor TEXT NOT NULL,
        model TEXT NOT NULL
    );
    -- One row per card per minute; seconds and energy as the agent measured them.
    CREATE TABLE usage_minute (
        card INTEGER NOT NULL REFERENCES card(id),
        minute_start_unix_s INTEGER NOT NULL,
        observed_seconds REAL NOT NULL,
        busy_seconds REAL NOT NULL,
        mean_utilization_percent REAL,
        energy_joules REAL,
        PRIMARY KEY (card, minute_start_unix_s)
    ) WITHOUT ROWID;
    CREATE INDEX usage_minute_by_time ON usage_minute (minute_start_unix_s);
    -- For analysts in the sqlite3 shell: busy and observed card-hours per data center and day.
    CREATE VIEW v_usage_by_dc_day AS
        SELECT n.data_center,
               date(u.minute_start_unix_s, 'unixepoch') AS day,
               count(DISTINCT u.card) AS cards,
               sum(u.observed_seconds) / 3600.0 AS observed_card_hours,
               sum(u.busy_seconds) / 3600.0 AS busy_card_hours,
               sum(u.energy_joules) / 3.6e6 AS energy_kwh
        FROM usage_minute u JOIN card c ON c.id = u.card JOIN node n ON n.id = c.node
        GROUP BY n.data_center, day;
)"}};

}  // namespace

std::string HistoryStore::defaultPath()
{
    std::filesystem::path base;
    if (const char *xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char *home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local/share";
    else
        base = ".";
    return (base / "meridian" / "history.db").string();
}

Result<std::unique_ptr<HistoryStore>> HistoryStore::open(const std::string &path)
{
    std::error_code ec;
    const auto directory = std::filesystem::path(path).parent_path();
    if (!directory.empty())
        std::filesystem::create_directories(directory, ec);
    if (ec)
        return Error{
            fmt::format("{}: cannot create {}: {}", path, directory.string(), ec.message())};
    auto writer = openSqliteFile(path, kSchema);
    if (!writer)
        return writer.error();
    auto reader = openSqliteFile(path, kSchema);
    if (!reader)
        return reader.error();
    return std::unique_ptr<HistoryStore>(
        new HistoryStore(std::move(writer).value(), std::move(reader).value(), path));
}

HistoryStore::HistoryStore(std::unique_ptr<SQLite::Database> writer,
                           std::unique_ptr<SQLite::Database> reader, std::string path)
    : m_writer(std::move(writer)), m_reader(std::move(reader)), m_path(std::move(path))
{
    m_thread = std::thread([this] { run(); });
}

HistoryStore::~HistoryStore()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    m_thread.join();  // drains the queue first: nothing submitted is lost on a clean exit
}

void HistoryStore::submit(UsageBatch batch)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.size() < kQueueLimit || m_stopping; });
    m_queue.push_back(std::move(batch));
    ++m_submitted;
    m_changed.notify_all();
}

Status HistoryStore::flush()
{
    std::unique_lock lock(m_mutex);
    const uint64_t target = m_submitted;
    m_changed.wait(lock, [&] { return m_written >= target; });
    return m_firstError;
}

void HistoryStore::run()
{
    while (true) {
        std::vector<UsageBatch> batches;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return !m_queue.empty() || m_stopping; });
            if (m_queue.empty() && m_stopping)
                return;
            while (!m_queue.empty() && batches.size() < kBatchesPerTransaction) {
                batches.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
        }
        m_changed.notify_all();  // room in the queue
        Status status = write(batches);
        {
            std::lock_guard lock(m_mutex);
            m_written += batches.size();
            if (!status && m_firstError.ok())
                m_firstError = status;
        }
        m_changed.notify_all();
    }
}

Status HistoryStore::write(const std::vector<UsageBatch> &batches)
{
    try {
        SQLite::Database &db = *m_writer;
        SQLite::Transaction tx(db);
        SQLite::Statement node(db, R"(
            INSERT INTO node (node_id, data_center, rack, hostname) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (node_id) DO UPDATE SET data_center = excluded.data_center,
                rack = excluded.rack, hostname = excluded.hostname
            RETURNING id)");
        SQLite::Statement card(db, R"(
            INSERT INTO card (uuid, node, card_index, vendor, model) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (uuid) DO UPDATE SET node = excluded.node, card_index = excluded.card_index,
                vendor = excluded.vendor, model = excluded.model
            RETURNING id)");
        SQLite::Statement minute(db, R"(
            INSERT OR REPLACE INTO usage_minute VALUES (?1, ?2, ?3, ?4, ?5, ?6))");
        for (const UsageBatch &batch : batches) {
            node.bind(1, batch.node.nodeId);
            node.bind(2, batch.node.dataCenter);
            node.bind(3, batch.node.rack);
            node.bind(4, batch.node.hostname);
            node.executeStep();
            const int64_t nodeRow = node.getColumn(0).getInt64();
            node.reset();
            std::map<std::string, int64_t> cardRows;
            for (const CardInfo &info : batch.node.cards) {
                card.bind(1, info.uuid);
                card.bind(2, nodeRow);
                card.bind(3, static_cast<int64_t>(info.index));
                card.bind(4, std::string(vendorName(info.vendor)));
                card.bind(5, info.model);
                card.executeStep();
                cardRows[info.uuid] = card.getColumn(0).getInt64();
                card.reset();
            }
            for (const UsageMinute &m : batch.minutes) {
                const auto row = cardRows.find(m.cardUuid);
                if (row == cardRows.end())
                    continue;  // a card the inventory does not name: nothing to bill it to
                minute.bind(1, row->second);
                minute.bind(2, static_cast<int64_t>(m.minuteStartUnixS));
                minute.bind(3, m.observedSeconds);
                minute.bind(4, m.busySeconds);
                if (m.meanUtilizationPercent)
                    minute.bind(5, *m.meanUtilizationPercent);
                else
                    minute.bind(5);
                if (m.energyJoules)
                    minute.bind(6, *m.energyJoules);
                else
                    minute.bind(6);
                minute.exec();
                minute.reset();
            }
        }
        tx.commit();
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot write usage: {}", m_path, e.what())};
    }
}

int64_t HistoryStore::lastMinute(const std::string &nodeId)
{
    std::lock_guard lock(m_readerMutex);
    try {
        SQLite::Statement query(*m_reader, R"(
            SELECT coalesce(max(u.minute_start_unix_s), 0) FROM usage_minute u
            JOIN card c ON c.id = u.card JOIN node n ON n.id = c.node WHERE n.node_id = ?1)");
        query.bind(1, nodeId);
        query.executeStep();
        return query.getColumn(0).getInt64();
    } catch (const SQLite::Exception &) {
        return 0;  // then the backfill fetches everything the agent has: still no double count
    }
}

int64_t HistoryStore::minuteCount()
{
    std::lock_guard lock(m_readerMutex);
    return m_reader->execAndGet("SELECT count(*) FROM usage_minute").getInt64();
}

}  // namespace meridian
