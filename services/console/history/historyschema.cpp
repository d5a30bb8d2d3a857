#include "historyschema.h"

namespace meridian {

namespace {

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

// Schema 3: the scaling journal (every step written before it is taken) and the audit
// log of who did what and why.
const char *const kScalingJournal = R"(
    CREATE TABLE scaling_step (
        id INTEGER PRIMARY KEY,
        service TEXT NOT NULL,
        idempotency_key TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL,
        offer_id TEXT NOT NULL,
        lease_id TEXT NOT NULL DEFAULT '',
        node_id TEXT NOT NULL DEFAULT '',
        cny_per_hour REAL NOT NULL DEFAULT 0,
        requested_by TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_unix_ms INTEGER NOT NULL,
        updated_unix_ms INTEGER NOT NULL
    );
    CREATE INDEX scaling_step_open ON scaling_step (state) WHERE state NOT IN ('done', 'failed');
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at_unix_ms INTEGER NOT NULL,
        who TEXT NOT NULL,
        what TEXT NOT NULL,
        why TEXT NOT NULL
    );
)";

// A headless controller's own journal file, schema 2: what operators set that must
// outlive a restart (the approval mode).
const char *const kControllerSetting = R"(
    CREATE TABLE controller_setting (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_unix_ms INTEGER NOT NULL
    );
)";

// Schema 4: what people did about alerts (acknowledged, noted) and the silences they set,
// shared by every console on the file.
const char *const kAlertTriage = R"(
    CREATE TABLE alert_action (
        id INTEGER PRIMARY KEY,
        at_unix_ms INTEGER NOT NULL,
        alert_key TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('acknowledge', 'note')),
        who TEXT NOT NULL,
        text TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE alert_silence (
        id INTEGER PRIMARY KEY,
        created_unix_ms INTEGER NOT NULL,
        alert_key TEXT NOT NULL DEFAULT '',
        kind TEXT NOT NULL DEFAULT '',
        node TEXT NOT NULL DEFAULT '',
        data_center TEXT NOT NULL DEFAULT '',
        until_unix_ms INTEGER NOT NULL,
        who TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        lifted_unix_ms INTEGER
    );
    CREATE INDEX alert_silence_until ON alert_silence (until_unix_ms);
)";

// Schema 5 of the history file, 3 of a controller's own journal: the arrival rate each
// service saw, minute by minute, so the daily-shape forecast outlives a restart.
const char *const kDemandMinute = R"(
    CREATE TABLE demand_minute (
        service TEXT NOT NULL,
        minute_index INTEGER NOT NULL,
        arrival_rps_sum REAL NOT NULL,
        samples INTEGER NOT NULL CHECK (samples > 0),
        PRIMARY KEY (service, minute_index)
    ) WITHOUT ROWID;
)";

// Schema 6: which alerts the receivers were told are firing (and not yet that they
// resolved), so that a console started again, or another on the same file, does not tell
// them twice.
const char *const kAlertDelivery = R"(
    CREATE TABLE alert_delivery (
        alert_key TEXT PRIMARY KEY,
        firing_sent_unix_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
)";

// Schema 8 of the history file, 4 of a controller's own journal: each service's demand
// by the hour, the mean of its minutes' arrival rates, kept as long as the usage roll-ups
// (400 days) for the capacity plan, where the minutes are kept only for the daily forecast.
const char *const kDemandHour = R"(
    CREATE TABLE demand_hour (
        service TEXT NOT NULL,
        hour_index INTEGER NOT NULL,
        arrival_rps_mean REAL NOT NULL CHECK (arrival_rps_mean >= 0),
        minutes INTEGER NOT NULL CHECK (minutes BETWEEN 1 AND 60),
        PRIMARY KEY (service, hour_index)
    ) WITHOUT ROWID;
)";

// Schema 7: the fault-response clock. Each occurrence of an alert the receivers were
// told of: when it began and was sent, when and by whom it was acknowledged, and when it
// resolved. Managers' reports read how long each took (alerts/responseclock.h).
const char *const kAlertIncident = R"(
    CREATE TABLE alert_incident (
        id INTEGER PRIMARY KEY,
        alert_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        severity TEXT NOT NULL,
        data_center TEXT NOT NULL DEFAULT '',
        subject TEXT NOT NULL DEFAULT '',
        started_unix_ms INTEGER NOT NULL,
        sent_unix_ms INTEGER NOT NULL,
        acknowledged_unix_ms INTEGER,
        acknowledged_by TEXT NOT NULL DEFAULT '',
        resolved_unix_ms INTEGER,
        UNIQUE (alert_key, started_unix_ms)
    );
    CREATE INDEX alert_incident_by_sent ON alert_incident (sent_unix_ms);
)";

const SqliteSchema kSchema{kHistoryApplicationId,
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
                            kRollupsServicesLeasesPrices, kScalingJournal, kAlertTriage,
                            kDemandMinute, kAlertDelivery, kAlertIncident, kDemandHour}};

}  // namespace

const SqliteSchema &historySchema()
{
    return kSchema;
}

const SqliteSchema &scalingJournalSchema()
{
    static const SqliteSchema schema{
        kScalingJournalApplicationId,
        "Meridian scaling journal",
        {kScalingJournal, kControllerSetting, kDemandMinute, kDemandHour}};
    return schema;
}

}  // namespace meridian
