#include "historystore.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <utility>

#include "cost/pricebook.h"
#include "rollupdeltas.h"
#include "sqlitebind.h"
#include "sqlitefile.h"

namespace meridian {

namespace {

constexpr int kApplicationId = 1296388424;  // "MERH": the console's history
constexpr size_t kQueueLimit = 256;         // batches; a full queue makes submitters wait
constexpr size_t kBatchesPerTransaction = 64;

// Schema 2: who the minutes served, hourly and daily roll-ups (the minutes age out, the
// days never do), what was kept, cloud leases, and the prices for the cost views.
const char *const kRollupsServicesLeasesPrices = R"(
    CREATE TABLE service (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    -- Minutes keyed by time first, so the live minute of 6,000 cards appends at one end
    -- of the tree instead of touching a page per card; service 0: none.
    CREATE TABLE usage_minute_v2 (
        minute_start_unix_s INTEGER NOT NULL,
        card INTEGER NOT NULL REFERENCES card(id),
        service INTEGER NOT NULL DEFAULT 0,
        observed_seconds REAL NOT NULL,
        busy_seconds REAL NOT NULL,
        mean_utilization_percent REAL,
        energy_joules REAL,
        PRIMARY KEY (minute_start_unix_s, card)
    ) WITHOUT ROWID;
    INSERT INTO usage_minute_v2
        SELECT minute_start_unix_s, card, 0, observed_seconds, busy_seconds,
               mean_utilization_percent, energy_joules
        FROM usage_minute;
    DROP VIEW v_usage_by_dc_day;
    DROP TABLE usage_minute;
    ALTER TABLE usage_minute_v2 RENAME TO usage_minute;
    -- Where each node's back-fill resumes: its newest minute stored.
    CREATE TABLE node_progress (
        node INTEGER PRIMARY KEY REFERENCES node(id),
        last_minute_unix_s INTEGER NOT NULL
    );
    INSERT INTO node_progress
        SELECT c.node, max(u.minute_start_unix_s) FROM usage_minute u
        JOIN card c ON c.id = u.card GROUP BY c.node;
    -- utilization_seconds: observed time with a utilisation reading;
    -- utilization_percent_seconds / utilization_seconds is the mean utilisation.
    -- Keyed by time first: reports and retention read and drop whole time ranges.
    CREATE TABLE usage_hour (
        card INTEGER NOT NULL REFERENCES card(id),
        hour_start_unix_s INTEGER NOT NULL,
        service INTEGER NOT NULL,
        minutes INTEGER NOT NULL,
        observed_seconds REAL NOT NULL,
        busy_seconds REAL NOT NULL,
        utilization_seconds REAL NOT NULL,
        utilization_percent_seconds REAL NOT NULL,
        energy_joules REAL,
        PRIMARY KEY (hour_start_unix_s, card, service)
    ) WITHOUT ROWID;
    CREATE TABLE usage_day (
        card INTEGER NOT NULL REFERENCES card(id),
        day_start_unix_s INTEGER NOT NULL,
        service INTEGER NOT NULL,
        minutes INTEGER NOT NULL,
        observed_seconds REAL NOT NULL,
        busy_seconds REAL NOT NULL,
        utilization_seconds REAL NOT NULL,
        utilization_percent_seconds REAL NOT NULL,
        energy_joules REAL,
        PRIMARY KEY (day_start_unix_s, card, service)
    ) WITHOUT ROWID;
    INSERT INTO usage_hour
        SELECT card, minute_start_unix_s / 3600 * 3600, service, count(*),
               sum(observed_seconds), sum(busy_seconds),
               sum(CASE WHEN mean_utilization_percent IS NULL THEN 0 ELSE observed_seconds END),
               sum(coalesce(mean_utilization_percent * observed_seconds, 0)), sum(energy_joules)
        FROM usage_minute GROUP BY 1, 2, 3;
    INSERT INTO usage_day
        SELECT card, hour_start_unix_s / 86400 * 86400, service, sum(minutes),
               sum(observed_seconds), sum(busy_seconds), sum(utilization_seconds),
               sum(utilization_percent_seconds), sum(energy_joules)
        FROM usage_hour GROUP BY 1, 2, 3;
    -- Rows of a level start at from_unix_s; older ones were dropped by retention.
    CREATE TABLE kept_range (
        level TEXT PRIMARY KEY,
        from_unix_s INTEGER NOT NULL
    );
    INSERT INTO kept_range VALUES ('minute', 0), ('hour', 0), ('day', 0);
    CREATE TABLE cloud_lease (
        lease_id TEXT PRIMARY KEY,
        region TEXT NOT NULL,
        card_model TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        nodes INTEGER NOT NULL,
        cards_per_node INTEGER NOT NULL,
        cny_per_card_hour REAL NOT NULL,
        billing_increment_seconds INTEGER NOT NULL,
        created_unix_s INTEGER NOT NULL,
        released_unix_s INTEGER
    );
    CREATE TABLE cloud_lease_node (
        lease_id TEXT NOT NULL REFERENCES cloud_lease(lease_id),
        node_id TEXT NOT NULL,
        PRIMARY KEY (lease_id, node_id)
    );
    CREATE INDEX cloud_lease_node_by_node ON cloud_lease_node (node_id);
    -- The price book in force ('' matches anything), mirrored for the cost views.
    CREATE TABLE price_rule (
        model TEXT NOT NULL,
        vendor TEXT NOT NULL,
        data_center TEXT NOT NULL,
        cny_per_card_hour REAL NOT NULL,
        from_unix_s INTEGER NOT NULL,
        to_unix_s INTEGER
    );
    CREATE TABLE contract (
        customer TEXT NOT NULL,
        data_center TEXT NOT NULL,
        node_id TEXT NOT NULL,
        model TEXT NOT NULL,
        from_unix_s INTEGER NOT NULL,
        to_unix_s INTEGER NOT NULL,
        discount_percent REAL NOT NULL
    );

    CREATE VIEW v_usage_by_dc_day AS
        SELECT n.data_center,
               date(d.day_start_unix_s, 'unixepoch') AS day,
               count(DISTINCT d.card) AS cards,
               sum(d.observed_seconds) / 3600.0 AS observed_card_hours,
               sum(d.busy_seconds) / 3600.0 AS busy_card_hours,
               sum(d.utilization_percent_seconds) / nullif(sum(d.utilization_seconds), 0)
                   AS mean_utilization_percent,
               sum(d.energy_joules) / 3.6e6 AS energy_kwh
        FROM usage_day d JOIN card c ON c.id = d.card JOIN node n ON n.id = c.node
        GROUP BY n.data_center, day;
    -- Each card-day with the price of a card-hour at the start of that day: the lease's
    -- price for a rented cloud node, else the most specific price rule less the largest
    -- contract discount. NULL when nothing prices the card.
    CREATE VIEW v_card_day_price AS
        SELECT d.card, d.day_start_unix_s, coalesce(s.name, '') AS service,
               n.data_center, n.node_id, c.vendor, c.model,
               d.observed_seconds, d.busy_seconds, d.energy_joules,
               coalesce(
                   (SELECT l.cny_per_card_hour FROM cloud_lease_node ln
                    JOIN cloud_lease l ON l.lease_id = ln.lease_id WHERE ln.node_id = n.node_id),
                   (SELECT p.cny_per_card_hour FROM price_rule p
                    WHERE (p.model = '' OR p.model = c.model)
                      AND (p.vendor = '' OR p.vendor = c.vendor)
                      AND (p.data_center = '' OR p.data_center = n.data_center)
                      AND p.from_unix_s <= d.day_start_unix_s
                      AND (p.to_unix_s IS NULL OR d.day_start_unix_s < p.to_unix_s)
                    ORDER BY (p.model <> '') * 4 + (p.vendor <> '') * 2 + (p.data_center <> '')
                             DESC, p.from_unix_s DESC
                    LIMIT 1)
                   * (1 - coalesce((SELECT max(k.discount_percent) FROM contract k
                      WHERE k.from_unix_s <= d.day_start_unix_s AND d.day_start_unix_s < k.to_unix_s
                        AND (k.data_center = '' OR k.data_center = n.data_center)
                        AND (k.node_id = '' OR k.node_id = n.node_id)
                        AND (k.model = '' OR k.model = c.model)), 0) / 100.0)
               ) AS cny_per_card_hour
        FROM usage_day d JOIN card c ON c.id = d.card JOIN node n ON n.id = c.node
        LEFT JOIN service s ON s.id = d.service;
    CREATE VIEW v_cost_by_dc_day AS
        SELECT data_center, date(day_start_unix_s, 'unixepoch') AS day,
               count(DISTINCT card) AS cards,
               sum(observed_seconds) / 3600.0 AS card_hours,
               sum(busy_seconds) / 3600.0 AS busy_card_hours,
               sum(observed_seconds * cny_per_card_hour) / 3600.0 AS cost_cny,
               sum(max(observed_seconds - busy_seconds, 0) * cny_per_card_hour) / 3600.0
                   AS idle_cost_cny,
               coalesce(sum(observed_seconds) FILTER (WHERE cny_per_card_hour IS NULL), 0)
                   / 3600.0 AS unpriced_card_hours
        FROM v_card_day_price GROUP BY data_center, day;
    CREATE VIEW v_cost_by_service_day AS
        SELECT service, date(day_start_unix_s, 'unixepoch') AS day,
               count(DISTINCT card) AS cards,
               sum(observed_seconds) / 3600.0 AS card_hours,
               sum(busy_seconds) / 3600.0 AS busy_card_hours,
               sum(observed_seconds * cny_per_card_hour) / 3600.0 AS cost_cny
        FROM v_card_day_price GROUP BY service, day;
)";

const SqliteSchema kSchema{kApplicationId,
                           "Meridian history file",
                           {R"(
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
)",
                            kRollupsServicesLeasesPrices}};

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

Result<std::unique_ptr<HistoryStore>> HistoryStore::open(const std::string &path,
                                                         HistoryRetention retention)
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
        new HistoryStore(std::move(writer).value(), std::move(reader).value(), path, retention));
}

HistoryStore::HistoryStore(std::unique_ptr<SQLite::Database> writer,
                           std::unique_ptr<SQLite::Database> reader, std::string path,
                           HistoryRetention retention)
    : m_writer(std::move(writer))
    , m_reader(std::move(reader))
    , m_path(std::move(path))
    , m_retention(retention)
{
    // A month of roll-ups for 6,000 cards is tens of MB: keep the hot pages in memory.
    for (SQLite::Database *db : {m_writer.get(), m_reader.get()})
        db->exec("PRAGMA cache_size = -32768");
    m_minuteHorizon =
        m_writer->execAndGet("SELECT from_unix_s FROM kept_range WHERE level = 'minute'")
            .getInt64();
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
    return std::exchange(m_firstError, Status{});
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

template <typename Work>
Status HistoryStore::onWriter(const char *what, Work work)
{
    std::lock_guard lock(m_writerMutex);
    try {
        SQLite::Transaction tx(*m_writer);
        work(*m_writer);
        tx.commit();
        return {};
    } catch (const SQLite::Exception &e) {
        // Rows written in the rolled-back transaction are gone again.
        m_serviceIds.clear();
        m_nodeRows.clear();
        m_cardRows.clear();
        return Error{fmt::format("{}: cannot {}: {}", m_path, what, e.what())};
    }
}

int64_t HistoryStore::serviceId(const std::string &name)
{
    if (name.empty())
        return 0;
    if (const auto it = m_serviceIds.find(name); it != m_serviceIds.end())
        return it->second;
    SQLite::Statement upsert(*m_writer, R"(
        INSERT INTO service (name) VALUES (?1)
        ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id)");
    upsert.bind(1, name);
    upsert.executeStep();
    return m_serviceIds[name] = upsert.getColumn(0).getInt64();
}

int64_t HistoryStore::nodeRow(const NodeInventory &node)
{
    const auto known = m_nodeRows.find(node.nodeId);
    if (known != m_nodeRows.end() && known->second.dataCenter == node.dataCenter &&
        known->second.rack == node.rack && known->second.hostname == node.hostname)
        return known->second.row;
    SQLite::Statement upsert(*m_writer, R"(
        INSERT INTO node (node_id, data_center, rack, hostname) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (node_id) DO UPDATE SET data_center = excluded.data_center,
            rack = excluded.rack, hostname = excluded.hostname
        RETURNING id)");
    upsert.bind(1, node.nodeId);
    upsert.bind(2, node.dataCenter);
    upsert.bind(3, node.rack);
    upsert.bind(4, node.hostname);
    upsert.executeStep();
    const int64_t row = upsert.getColumn(0).getInt64();
    m_nodeRows[node.nodeId] = {row, node.dataCenter, node.rack, node.hostname};
    return row;
}

int64_t HistoryStore::cardRow(const CardInfo &card, int64_t nodeRow)
{
    const auto known = m_cardRows.find(card.uuid);
    if (known != m_cardRows.end() && known->second.nodeRow == nodeRow &&
        known->second.index == card.index && known->second.vendor == card.vendor &&
        known->second.model == card.model)
        return known->second.row;
    SQLite::Statement upsert(*m_writer, R"(
        INSERT INTO card (uuid, node, card_index, vendor, model) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (uuid) DO UPDATE SET node = excluded.node, card_index = excluded.card_index,
            vendor = excluded.vendor, model = excluded.model
        RETURNING id)");
    upsert.bind(1, card.uuid);
    upsert.bind(2, nodeRow);
    upsert.bind(3, static_cast<int64_t>(card.index));
    upsert.bind(4, std::string(vendorName(card.vendor)));
    upsert.bind(5, card.model);
    upsert.executeStep();
    const int64_t row = upsert.getColumn(0).getInt64();
    m_cardRows[card.uuid] = {row, nodeRow, card.index, card.vendor, card.model};
    return row;
}

Status HistoryStore::write(const std::vector<UsageBatch> &batches)
{
    return onWriter("write usage", [&](SQLite::Database &db) {
        SQLite::Statement insertNew(db, R"(
            INSERT OR IGNORE INTO usage_minute (card, minute_start_unix_s, observed_seconds,
                busy_seconds, mean_utilization_percent, energy_joules, service)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7))");
        SQLite::Statement previous(db, R"(
            SELECT observed_seconds, busy_seconds, mean_utilization_percent, energy_joules, service
            FROM usage_minute WHERE card = ?1 AND minute_start_unix_s = ?2)");
        SQLite::Statement replace(db, R"(
            UPDATE usage_minute SET observed_seconds = ?3, busy_seconds = ?4,
                mean_utilization_percent = ?5, energy_joules = ?6, service = ?7
            WHERE card = ?1 AND minute_start_unix_s = ?2)");
        SQLite::Statement progress(db, R"(
            INSERT INTO node_progress VALUES (?1, ?2) ON CONFLICT (node) DO UPDATE
            SET last_minute_unix_s = max(last_minute_unix_s, excluded.last_minute_unix_s))");
        RollupDeltas rollups;
        for (const UsageBatch &batch : batches) {
            const int64_t nodeRowId = nodeRow(batch.node);
            std::map<std::string, int64_t> cardRows;
            for (const CardInfo &info : batch.node.cards)
                cardRows[info.uuid] = cardRow(info, nodeRowId);
            int64_t newestMinute = -1;
            for (const UsageMinute &m : batch.minutes) {
                const auto row = cardRows.find(m.cardUuid);
                if (row == cardRows.end())
                    continue;  // a card the inventory does not name: nothing to bill it to
                if (m.minuteStartUnixS < m_minuteHorizon)
                    continue;  // its day is final: the other minutes of it are gone
                const int64_t cardRow = row->second;
                newestMinute = std::max(newestMinute, m.minuteStartUnixS);
                const int64_t service = serviceId(m.service);
                const MinuteFigures figures{m.observedSeconds, m.busySeconds,
                                            m.meanUtilizationPercent, m.energyJoules};
                const auto bindMinute = [&](SQLite::Statement &statement) {
                    statement.bind(1, cardRow);
                    statement.bind(2, static_cast<int64_t>(m.minuteStartUnixS));
                    statement.bind(3, m.observedSeconds);
                    statement.bind(4, m.busySeconds);
                    bindOptional(statement, 5, m.meanUtilizationPercent);
                    bindOptional(statement, 6, m.energyJoules);
                    statement.bind(7, service);
                };
                bindMinute(insertNew);
                const int inserted = insertNew.exec();
                insertNew.reset();
                if (inserted == 1) {
                    rollups.add(cardRow, m.minuteStartUnixS, service, figures, +1);
                    continue;
                }
                // Written before: the agent's newer word replaces it, in the roll-ups too.
                previous.bind(1, cardRow);
                previous.bind(2, static_cast<int64_t>(m.minuteStartUnixS));
                if (!previous.executeStep()) {
                    previous.reset();
                    continue;  // refused by a constraint (a NaN from a broken agent)
                }
                const MinuteFigures old{
                    previous.getColumn(0).getDouble(), previous.getColumn(1).getDouble(),
                    optionalDouble(previous.getColumn(2)), optionalDouble(previous.getColumn(3))};
                const int64_t oldService = previous.getColumn(4).getInt64();
                previous.reset();
                rollups.add(cardRow, m.minuteStartUnixS, oldService, old, -1);
                bindMinute(replace);
                replace.exec();
                replace.reset();
                rollups.add(cardRow, m.minuteStartUnixS, service, figures, +1);
            }
            if (newestMinute >= 0) {
                progress.bind(1, nodeRowId);
                progress.bind(2, newestMinute);
                progress.exec();
                progress.reset();
            }
        }
        rollups.apply(db);
    });
}

Status HistoryStore::applyRetention(int64_t nowUnixS)
{
    // Whole days, so an hour or a day is never half kept.
    const auto cutoff = [nowUnixS](int days) {
        return (nowUnixS - int64_t{days} * 86400) / 86400 * 86400;
    };
    const int64_t minuteCutoff = cutoff(m_retention.minuteDays);
    const int64_t hourCutoff = cutoff(m_retention.hourDays);
    Status status = onWriter("apply retention", [&](SQLite::Database &db) {
        SQLite::Statement dropMinutes(db,
                                      "DELETE FROM usage_minute WHERE minute_start_unix_s < ?1");
        dropMinutes.bind(1, minuteCutoff);
        dropMinutes.exec();
        SQLite::Statement dropHours(db, "DELETE FROM usage_hour WHERE hour_start_unix_s < ?1");
        dropHours.bind(1, hourCutoff);
        dropHours.exec();
        SQLite::Statement keep(db, R"(
            UPDATE kept_range SET from_unix_s = max(from_unix_s, ?2) WHERE level = ?1)");
        for (const auto &[level, from] :
             {std::pair{"minute", minuteCutoff}, {"hour", hourCutoff}}) {
            keep.bind(1, level);
            keep.bind(2, from);
            keep.exec();
            keep.reset();
        }
    });
    if (status) {
        std::lock_guard lock(m_writerMutex);
        m_minuteHorizon = std::max(m_minuteHorizon, minuteCutoff);
    }
    return status;
}

Status HistoryStore::recordLeases(const std::vector<CloudLease> &leases)
{
    return onWriter("record cloud leases", [&](SQLite::Database &db) {
        SQLite::Statement lease(db, R"(
            INSERT OR REPLACE INTO cloud_lease VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10))");
        SQLite::Statement node(db, "INSERT OR IGNORE INTO cloud_lease_node VALUES (?1, ?2)");
        for (const CloudLease &l : leases) {
            lease.bind(1, l.leaseId);
            lease.bind(2, l.region);
            lease.bind(3, l.cardModel);
            lease.bind(4, l.requestedBy);
            lease.bind(5, static_cast<int64_t>(l.nodes));
            lease.bind(6, static_cast<int64_t>(l.cardsPerNode));
            lease.bind(7, l.cnyPerCardHour);
            lease.bind(8, l.billingIncrementSeconds);
            lease.bind(9, l.createdUnixS);
            if (l.releasedUnixS)
                lease.bind(10, *l.releasedUnixS);
            else
                lease.bind(10);
            lease.exec();
            lease.reset();
            for (const std::string &nodeId : l.nodeIds) {
                node.bind(1, l.leaseId);
                node.bind(2, nodeId);
                node.exec();
                node.reset();
            }
        }
    });
}

Status HistoryStore::recordPrices(const PriceBook &prices)
{
    return onWriter("record prices", [&](SQLite::Database &db) {
        db.exec("DELETE FROM price_rule; DELETE FROM contract;");
        SQLite::Statement rule(db, "INSERT INTO price_rule VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        for (const PriceRule &r : prices.rules()) {
            rule.bind(1, r.model);
            rule.bind(
                2, r.vendor == Vendor::Unknown ? std::string() : std::string(vendorName(r.vendor)));
            rule.bind(3, r.dataCenter);
            rule.bind(4, r.cnyPerCardHour);
            rule.bind(5, r.fromUnixS);
            if (r.toUnixS)
                rule.bind(6, *r.toUnixS);
            else
                rule.bind(6);
            rule.exec();
            rule.reset();
        }
        SQLite::Statement contract(db, "INSERT INTO contract VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        for (const Contract &c : prices.contracts()) {
            contract.bind(1, c.customer);
            contract.bind(2, c.dataCenter);
            contract.bind(3, c.nodeId);
            contract.bind(4, c.model);
            contract.bind(5, c.fromUnixS);
            contract.bind(6, c.toUnixS);
            contract.bind(7, c.discountPercent);
            contract.exec();
            contract.reset();
        }
    });
}

int64_t HistoryStore::lastMinute(const std::string &nodeId)
{
    std::lock_guard lock(m_readerMutex);
    try {
        SQLite::Statement query(*m_reader, R"(
            SELECT coalesce(max(p.last_minute_unix_s), 0) FROM node_progress p
            JOIN node n ON n.id = p.node WHERE n.node_id = ?1)");
        query.bind(1, nodeId);
        query.executeStep();
        const int64_t horizon =
            m_reader->execAndGet("SELECT from_unix_s FROM kept_range WHERE level = 'minute'")
                .getInt64();
        return std::max(query.getColumn(0).getInt64(), horizon);
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
