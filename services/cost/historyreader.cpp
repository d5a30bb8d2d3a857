#include "historyreader.h"

#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/textutil.h"

namespace meridian {

namespace {

constexpr int kHistoryApplicationId = 1296388424;  // the console's history file
constexpr int kRollupSchema = 2;                   // the first schema with roll-ups

// Every read returns, per row: card, service, observed, busy, energy, seconds with a
// utilisation reading, and utilisation × seconds. No GROUP BY: rows stream in key order
// and are summed by group as they come.
const char *readSql(Grain grain)
{
    switch (grain) {
    case Grain::Day:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         utilization_seconds, utilization_percent_seconds
                  FROM usage_day WHERE day_start_unix_s >= ?1 AND day_start_unix_s < ?2)";
    case Grain::Hour:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         utilization_seconds, utilization_percent_seconds
                  FROM usage_hour WHERE hour_start_unix_s >= ?1 AND hour_start_unix_s < ?2)";
    case Grain::Minute:
        return R"(SELECT card, service, observed_seconds, busy_seconds, energy_joules,
                         CASE WHEN mean_utilization_percent IS NULL THEN 0
                              ELSE observed_seconds END,
                         coalesce(mean_utilization_percent * observed_seconds, 0)
                  FROM usage_minute WHERE minute_start_unix_s >= ?1 AND minute_start_unix_s < ?2)";
    }
    return "";
}

// Where prices may change inside the period: each rule's and contract's edges.
std::vector<int64_t> priceSegments(const PriceBook &prices, int64_t from, int64_t to)
{
    std::set<int64_t> edges{from, to};
    const auto add = [&](int64_t t) {
        if (t > from && t < to)
            edges.insert(t);
    };
    for (const PriceRule &rule : prices.rules()) {
        add(rule.fromUnixS);
        if (rule.toUnixS)
            add(*rule.toUnixS);
    }
    for (const Contract &contract : prices.contracts()) {
        add(contract.fromUnixS);
        add(contract.toUnixS);
    }
    return {edges.begin(), edges.end()};
}

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

// A WAL-mode file is read through a -shm file beside it, which SQLite must be able to
// create. On a read-only mount (a backup, a copy handed to a manager) it cannot, so the
// file is opened immutable there: read as it stands, which is right, for nothing can be
// writing it.
std::unique_ptr<SQLite::Database> openForReading(const std::string &path)
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

}  // namespace

Result<std::unique_ptr<HistoryReader>> HistoryReader::open(const std::string &historyFile)
{
    if (!std::filesystem::exists(historyFile)) {
        return Error{fmt::format("{}: no history yet; run the console or 'meridian sync' first",
                                 historyFile)};
    }
    try {
        auto db = openForReading(historyFile);
        const int appId = db->execAndGet("PRAGMA application_id").getInt();
        const int version = db->execAndGet("PRAGMA user_version").getInt();
        if (appId != kHistoryApplicationId)
            return Error{fmt::format("{} is not a Meridian history file", historyFile)};
        if (version < kRollupSchema) {
            return Error{fmt::format(
                "{} has an older schema ({}); run 'meridian sync' or the console once to "
                "upgrade it",
                historyFile, version)};
        }
        std::unique_ptr<HistoryReader> reader(new HistoryReader(std::move(db), historyFile));
        reader->load();
        return reader;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", historyFile, e.what())};
    }
}

HistoryReader::HistoryReader(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_db(std::move(db)), m_path(std::move(path))
{}

HistoryReader::~HistoryReader() = default;

void HistoryReader::load()
{
    SQLite::Statement cards(*m_db, R"(
        SELECT c.id, c.model, c.vendor, n.data_center, n.node_id
        FROM card c JOIN node n ON n.id = c.node)");
    while (cards.executeStep()) {
        const int64_t id = cards.getColumn(0).getInt64();
        if (id < 0 || id > 10'000'000)
            continue;  // not a row this program wrote
        if (static_cast<size_t>(id) >= m_cards.size())
            m_cards.resize(static_cast<size_t>(id) + 1);
        m_cards[static_cast<size_t>(id)] = CardPlace{
            cards.getColumn(1).getString(), vendorFromName(cards.getColumn(2).getString()),
            cards.getColumn(3).getString(), cards.getColumn(4).getString()};
    }
    SQLite::Statement services(*m_db, "SELECT id, name FROM service");
    while (services.executeStep())
        m_services[services.getColumn(0).getInt64()] = services.getColumn(1).getString();
    SQLite::Statement kept(*m_db, "SELECT level, from_unix_s FROM kept_range");
    while (kept.executeStep()) {
        const std::string level = kept.getColumn(0).getString();
        if (level == "minute")
            m_kept.minutesFromUnixS = kept.getColumn(1).getInt64();
        else if (level == "hour")
            m_kept.hoursFromUnixS = kept.getColumn(1).getInt64();
    }
    SQLite::Statement leases(*m_db, R"(
        SELECT lease_id, region, card_model, requested_by, nodes, cards_per_node,
               cny_per_card_hour, billing_increment_seconds, created_unix_s, released_unix_s
        FROM cloud_lease ORDER BY created_unix_s, lease_id)");
    while (leases.executeStep()) {
        CloudLease lease;
        lease.leaseId = leases.getColumn(0).getString();
        lease.region = leases.getColumn(1).getString();
        lease.cardModel = leases.getColumn(2).getString();
        lease.requestedBy = leases.getColumn(3).getString();
        lease.nodes = static_cast<uint32_t>(leases.getColumn(4).getInt64());
        lease.cardsPerNode = static_cast<uint32_t>(leases.getColumn(5).getInt64());
        lease.cnyPerCardHour = leases.getColumn(6).getDouble();
        lease.billingIncrementSeconds = leases.getColumn(7).getInt64();
        lease.createdUnixS = leases.getColumn(8).getInt64();
        if (!leases.getColumn(9).isNull())
            lease.releasedUnixS = leases.getColumn(9).getInt64();
        m_leases.push_back(std::move(lease));
    }
    // Which inference service each lease was rented for, from the scaling journal (files
    // from before the journal have none: their leases are the autoscaler's nobody knows).
    if (m_db->tableExists("scaling_step")) {
        SQLite::Statement owners(*m_db, R"(
            SELECT lease_id, min(service) FROM scaling_step WHERE lease_id != ''
            GROUP BY lease_id)");
        while (owners.executeStep())
            m_leaseService[owners.getColumn(0).getString()] = owners.getColumn(1).getString();
    }
    SQLite::Statement leasedNodes(*m_db, R"(
        SELECT ln.node_id, l.cny_per_card_hour FROM cloud_lease_node ln
        JOIN cloud_lease l ON l.lease_id = ln.lease_id)");
    while (leasedNodes.executeStep())
        m_leasePriceByNode[leasedNodes.getColumn(0).getString()] =
            leasedNodes.getColumn(1).getDouble();
}

std::string HistoryReader::groupKey(ReportGroup group, const CardPlace &card, int64_t serviceId,
                                    const Contract *contract) const
{
    switch (group) {
    case ReportGroup::Customer: return contract ? contract->customer : std::string("(no contract)");
    case ReportGroup::DataCenter: return card.dataCenter;
    case ReportGroup::Vendor: return std::string(vendorName(card.vendor));
    case ReportGroup::Model: return card.model;
    case ReportGroup::Node: return card.nodeId;
    case ReportGroup::Service: {
        const auto it = m_services.find(serviceId);
        return it == m_services.end() ? std::string("(no service)") : it->second;
    }
    }
    return {};
}

Result<UsageReport> HistoryReader::report(const PriceBook &prices, const ReportRequest &request)
{
    if (request.toUnixS <= request.fromUnixS)
        return Error{fmt::format("{}: an empty period", m_path)};
    UsageReport report;
    report.fromUnixS = request.fromUnixS;
    report.toUnixS = request.toUnixS;
    report.group = request.group;
    // Hundreds of thousands of rows a month: everything per row is an array index.
    const size_t cardSlots = m_cards.size();
    std::map<std::string, size_t> groupIndex;
    std::vector<ReportRow> rows;
    std::vector<std::vector<bool>> cardSeen;  // per group, by card id
    std::vector<bool> anySeen(cardSlots);
    const auto groupOf = [&](size_t cardId, int64_t serviceId, const Contract *contract) {
        const std::string key = groupKey(request.group, *m_cards[cardId], serviceId, contract);
        auto [it, fresh] = groupIndex.try_emplace(key, rows.size());
        if (fresh) {
            rows.emplace_back().group = key;
            cardSeen.emplace_back(cardSlots);
        }
        return it->second;
    };
    const bool byService = request.group == ReportGroup::Service;
    std::vector<std::optional<size_t>> groupOfCard(cardSlots);  // when not by service
    std::map<int64_t, size_t> groupOfService;
    try {
        std::map<Grain, std::unique_ptr<SQLite::Statement>> statements;
        const std::vector<int64_t> edges =
            priceSegments(prices, request.fromUnixS, request.toUnixS);
        for (size_t i = 0; i + 1 < edges.size(); ++i) {
            // Contracts begin and end on segment edges: by customer, a card's group is
            // decided afresh each segment.
            if (request.group == ReportGroup::Customer)
                std::fill(groupOfCard.begin(), groupOfCard.end(), std::nullopt);
            // Prices hold still within a segment: each card is priced once, at its start.
            std::vector<std::optional<std::optional<double>>> priceOfCard(cardSlots);
            for (const RollupRead &read : planRollupReads(edges[i], edges[i + 1], m_kept)) {
                auto &statement = statements[read.grain];
                if (!statement)
                    statement = std::make_unique<SQLite::Statement>(*m_db, readSql(read.grain));
                statement->reset();
                statement->bind(1, read.fromUnixS);
                statement->bind(2, read.toUnixS);
                while (statement->executeStep()) {
                    const int64_t rawId = statement->getColumn(0).getInt64();
                    if (rawId < 0 || static_cast<size_t>(rawId) >= cardSlots ||
                        !m_cards[static_cast<size_t>(rawId)])
                        continue;
                    const auto cardId = static_cast<size_t>(rawId);
                    const CardPlace &card = *m_cards[cardId];
                    const int64_t serviceId = statement->getColumn(1).getInt64();
                    size_t g = 0;
                    if (byService) {
                        const auto it = groupOfService.find(serviceId);
                        g = it != groupOfService.end()
                                ? it->second
                                : (groupOfService[serviceId] = groupOf(cardId, serviceId, nullptr));
                    } else {
                        if (!groupOfCard[cardId])
                            groupOfCard[cardId] =
                                groupOf(cardId, 0, prices.contractFor(card, edges[i]));
                        g = *groupOfCard[cardId];
                    }
                    ReportRow &row = rows[g];
                    cardSeen[g][cardId] = true;
                    anySeen[cardId] = true;
                    const double observed = statement->getColumn(2).getDouble();
                    const double busy = statement->getColumn(3).getDouble();
                    row.cardHours += observed / 3600.0;
                    row.busyCardHours += busy / 3600.0;
                    row.energyKwh += statement->getColumn(4).getDouble() / 3.6e6;
                    row.utilizationSeconds += statement->getColumn(5).getDouble();
                    row.utilizationPercentSeconds += statement->getColumn(6).getDouble();
                    auto &price = priceOfCard[cardId];
                    if (!price) {
                        const auto lease = m_leasePriceByNode.find(card.nodeId);
                        price = lease != m_leasePriceByNode.end()
                                    ? std::optional<double>(lease->second)
                                    : prices.price(card, edges[i]);
                    }
                    if (*price) {
                        row.costCny += **price * observed / 3600.0;
                        row.idleCostCny += **price * std::max(0.0, observed - busy) / 3600.0;
                    } else {
                        row.unpricedCardHours += observed / 3600.0;
                    }
                }
            }
        }
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", m_path, e.what())};
    }
    for (size_t g = 0; g < rows.size(); ++g)
        rows[g].cards = static_cast<int>(std::count(cardSeen[g].begin(), cardSeen[g].end(), true));
    std::sort(rows.begin(), rows.end(),
              [](const ReportRow &a, const ReportRow &b) { return naturalLess(a.group, b.group); });
    ReportRow &total = report.total;
    total.group = "total";
    for (const ReportRow &row : rows) {
        total.cardHours += row.cardHours;
        total.busyCardHours += row.busyCardHours;
        total.costCny += row.costCny;
        total.idleCostCny += row.idleCostCny;
        total.energyKwh += row.energyKwh;
        total.utilizationSeconds += row.utilizationSeconds;
        total.utilizationPercentSeconds += row.utilizationPercentSeconds;
        total.unpricedCardHours += row.unpricedCardHours;
        report.rows.push_back(row);
    }
    total.cards = static_cast<int>(std::count(anySeen.begin(), anySeen.end(), true));
    for (const CloudLease &lease : m_leases) {
        const double hours =
            leaseBilledHours(lease, request.fromUnixS, request.toUnixS, request.nowUnixS);
        if (hours <= 0)
            continue;
        const double cost =
            leaseSpendCny(lease, request.fromUnixS, request.toUnixS, request.nowUnixS);
        const auto owner = m_leaseService.find(lease.leaseId);
        report.cloud.push_back({lease.leaseId, lease.region, lease.cardModel, lease.requestedBy,
                                static_cast<int>(lease.cards()), lease.cnyPerCardHour, hours, cost,
                                owner == m_leaseService.end() ? "" : owner->second});
        report.cloudSpendCny += cost;
    }
    return report;
}

}  // namespace meridian
