#include "prometheussource.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/callwatch.h"
#include "core/cardcatalog.h"
#include "history/historystore.h"

namespace meridian {

struct PrometheusSource::Node : StoreNode {
    std::string instance;  // the scrape target, for `up`
    NodeHandle handle = 0;
    int64_t lastRecordedMs = 0;
    std::vector<uint32_t> lastXid;  // by position; an exporter shows only the latest Xid
    uint64_t eventSequence = 0;
    bool shown = false;  // in FleetState: from its first readings on, never stale before
};

namespace {

std::string nodeKey(const ExporterDialect &dialect, const std::string &host)
{
    return std::string(dialect.name) + '|' + host;
}

std::string labelOr(const PromSample &sample, std::string_view name, const std::string &fallback)
{
    const std::string *value = name.empty() ? nullptr : sample.label(name);
    return value && !value->empty() ? *value : fallback;
}

// PromQL string literal: backslash and quote escaped.
std::string promqlString(const std::string &value)
{
    std::string out = "\"";
    for (char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c;
    }
    return out + '"';
}

uint32_t numericIndex(const std::string &index)
{
    char *end = nullptr;
    const unsigned long value = std::strtoul(index.c_str(), &end, 10);
    return end && *end == '\0' && value < 4096 ? static_cast<uint32_t>(value) : 4096;
}

// What each round asks of a dialect: one reading per query, only the card's key labels
// kept, so a 100,000-card answer is a few megabytes before gzip.
enum class Field {
    Utilization,
    Temperature,
    Power,
    MemoryUsed,
    MemoryFree,
    MemoryTotal,
    Xid,
    Time
};

std::vector<std::pair<Field, std::string_view>> fieldsOf(const ExporterDialect &dialect)
{
    return {{Field::Utilization, dialect.utilization},
            {Field::Temperature, dialect.temperature},
            {Field::Power, dialect.power},
            {Field::MemoryUsed, dialect.memoryUsed},
            {Field::MemoryFree, dialect.memoryFree},
            {Field::MemoryTotal, dialect.memoryTotal},
            {Field::Xid, dialect.lastXid},
            {Field::Time, dialect.utilization}};
}

// A host's inventory from its cards' samples (sorted here by index): where it stands, and
// each card once (the same card under two jobs: the first wins), with `positionOf` each
// index's place among them.
NodeInventory hostInventory(const ExporterDialect &dialect, const std::string &host,
                            std::vector<const PromSample *> &samples,
                            const std::string &defaultDataCenter, const std::string &collector,
                            std::map<std::string, uint32_t> &positionOf)
{
    std::sort(samples.begin(), samples.end(), [&](const PromSample *a, const PromSample *b) {
        return numericIndex(*a->label(dialect.indexLabel)) <
               numericIndex(*b->label(dialect.indexLabel));
    });
    const PromSample &first = *samples.front();
    NodeInventory inventory;
    inventory.hostname = host;
    inventory.nodeId = labelOr(first, "node", host);
    inventory.dataCenter = labelOr(first, "dc", defaultDataCenter);
    inventory.rack = labelOr(first, "rack", {});
    inventory.collector = collector;
    for (const PromSample *sample : samples) {
        const std::string index = *sample->label(dialect.indexLabel);
        if (positionOf.count(index))
            continue;  // the same card under two jobs: the first wins
        CardInfo card;
        card.index = numericIndex(index) < 4096 ? numericIndex(index) : uint32_t(positionOf.size());
        card.vendor = dialect.vendor != Vendor::Unknown
                          ? dialect.vendor
                          : (sample->label("vendor") ? vendorFromName(*sample->label("vendor"))
                                                     : Vendor::Nvidia);
        // dcgm-exporter's modelName is the driver's ("NVIDIA A100-SXM4-80GB").
        card.model =
            canonicalCardModel(labelOr(*sample, dialect.modelLabel, labelOr(*sample, "model", {})));
        // Without a UUID a card is known by where it sits.
        card.uuid =
            labelOr(*sample, dialect.uuidLabel, fmt::format("{}:{}:{}", dialect.name, host, index));
        positionOf[index] = static_cast<uint32_t>(inventory.cards.size());
        inventory.cards.push_back(std::move(card));
    }
    return inventory;
}

}  // namespace

// Readings of one round, per node, before they are recorded.
struct PrometheusSource::Reading {
    std::vector<CardSample> cards;
    std::vector<double> memoryUsed, memoryFree, memoryTotal;  // in the exporter's unit
    int64_t sampleMs = 0;

    explicit Reading(size_t cardCount)
        : cards(cardCount)
        , memoryUsed(cardCount, NAN)
        , memoryFree(cardCount, NAN)
        , memoryTotal(cardCount, NAN)
    {
        for (size_t i = 0; i < cardCount; ++i)
            cards[i].index = static_cast<uint32_t>(i);
    }

    void set(Field field, size_t position, double value)
    {
        CardSample &card = cards[position];
        switch (field) {
        case Field::Utilization: card.utilizationPercent = value; break;
        case Field::Temperature: card.temperatureCelsius = value; break;
        case Field::Power: card.powerWatts = value; break;
        case Field::MemoryUsed: memoryUsed[position] = value; break;
        case Field::MemoryFree: memoryFree[position] = value; break;
        case Field::MemoryTotal: memoryTotal[position] = value; break;
        case Field::Xid:
            if (value > 0 && value < 1e6)
                card.lastXid = static_cast<uint32_t>(value);
            break;
        case Field::Time: sampleMs = std::max(sampleMs, static_cast<int64_t>(value * 1000)); break;
        }
    }
};

PrometheusSource::PrometheusSource(FleetState &state, const Clock &clock,
                                   PrometheusSourceOptions options)
    : m_state(state)
    , m_clock(clock)
    , m_options(std::move(options))
    , m_calls(std::make_shared<CallWatch>())
    , m_polls(clock)
{
    if (m_options.pollIntervalMs <= 0)
        m_options.pollIntervalMs = m_options.scrapeIntervalMs;
}

PrometheusSource::~PrometheusSource()
{
    stop();
}

// The client is made on first use, so a source made with a bad URL says so when used.
Status PrometheusSource::makeClient(std::unique_ptr<PromClient> &client) const
{
    if (client)
        return {};
    auto made = PromClient::create(m_options.endpoint, m_calls);
    if (!made)
        return made.error();
    client = std::move(made).value();
    return {};
}

Status PrometheusSource::start()
{
    if (Status made = makeClient(m_client); !made)
        return made;
    m_polls.start(std::chrono::milliseconds(m_options.pollIntervalMs), [this] { pollRound(); });
    return {};
}

void PrometheusSource::stop()
{
    m_calls->abortAll();
    m_polls.stop();
}

void PrometheusSource::pollRound()
{
    // A failed round is shown on the nodes it serves and by lastProblem(); the next round
    // tries again.
    const Status round = pollOnce();
    std::lock_guard problemLock(m_problemMutex);
    m_lastProblem = round ? std::string() : round.message();
}

std::string PrometheusSource::lastProblem() const
{
    std::lock_guard lock(m_problemMutex);
    return m_lastProblem;
}

size_t PrometheusSource::nodeCount() const
{
    std::lock_guard lock(m_mutex);
    return m_nodes.size();
}

Status PrometheusSource::pollOnce()
{
    if (Status made = makeClient(m_client); !made)
        return made;
    if (m_round++ % std::max(1, m_options.discoverEveryRounds) == 0 || nodeCount() == 0) {
        if (Status found = discover(); !found) {
            markUnreachable(found.message());
            return found;
        }
    }
    if (Status read = readSnapshots(); !read) {
        markUnreachable(read.message());
        return read;
    }
    if (HistoryStore *history = m_usageHistory.load()) {
        // One hour of usage minutes a round at most, so a long gap never delays readings.
        if (auto done = backfillUsage(*history, m_clock.nowUnixMs() / 1000); !done)
            return Error{"usage minutes: " + done.error().message};
    }
    return {};
}

void PrometheusSource::setUsageHistory(HistoryStore *history)
{
    m_usageHistory.store(history);
}

Result<bool> PrometheusSource::backfillUsage(HistoryStore &history, int64_t nowUnixS, int maxHours)
{
    const int64_t lastFull = nowUnixS / 60 * 60;  // the minute in progress is not done
    const int64_t oldest = lastFull - int64_t(maxHours) * 3600;
    std::map<const ExporterDialect *, std::vector<const StoreNode *>> byDialect;
    std::unique_lock lock(m_mutex);
    if (m_usageFromS == 0) {
        // Where the history left off, per node; the earliest of them, within maxHours.
        m_usageFromS = lastFull;
        for (const auto &[key, node] : m_nodes) {
            const int64_t last = history.lastMinute(node->inventory.nodeId);
            m_usageFromS = std::min(m_usageFromS, last > 0 ? last + 60 : oldest);
        }
    }
    m_usageFromS = std::max(m_usageFromS, oldest);
    if (m_usageFromS >= lastFull || m_nodes.empty())
        return true;
    for (const auto &[key, node] : m_nodes)
        byDialect[node->dialect].push_back(node.get());
    // Nodes are never removed, and only this thread (the poller's) changes them.
    lock.unlock();
    const int64_t to = std::min(m_usageFromS + 3600, lastFull);
    for (const auto &[dialect, nodes] : byDialect) {
        auto minutes = readStoreUsage(*m_client, *dialect, nodes, m_usageFromS, to,
                                      std::max(1, m_options.scrapeIntervalMs / 1000));
        if (!minutes)
            return minutes.error();
        for (const StoreNode *node : nodes) {
            auto found = minutes->find(node->inventory.nodeId);
            if (found != minutes->end())
                history.submit({node->inventory, std::move(found->second)});
        }
    }
    m_usageFromS = to;
    return to >= lastFull;
}

Status PrometheusSource::discover()
{
    for (const ExporterDialect &dialect : exporterDialects()) {
        if (Status status = discoverDialect(dialect); !status)
            return status;
    }
    return {};
}

Status PrometheusSource::discoverDialect(const ExporterDialect &dialect)
{
    std::set<std::string_view> names = {dialect.hostLabel,
                                        dialect.indexLabel,
                                        dialect.uuidLabel,
                                        dialect.modelLabel,
                                        "instance",
                                        "dc",
                                        "vendor",
                                        "node",
                                        "rack",
                                        "model"};
    std::string by;
    for (std::string_view name : names)
        by += (by.empty() ? "" : ",") + std::string(name);
    auto found = m_client->instant(fmt::format("count by ({}) ({})", by, dialect.utilization));
    if (!found)
        return found.error();

    std::map<std::string, std::vector<const PromSample *>> byHost;
    for (const PromSample &sample : found.value()) {
        const std::string host =
            labelOr(sample, dialect.hostLabel, labelOr(sample, "instance", {}));
        if (!host.empty() && sample.label(dialect.indexLabel))
            byHost[host].push_back(&sample);
    }
    std::lock_guard lock(m_mutex);
    for (auto &[host, samples] : byHost) {
        std::map<std::string, uint32_t> positionOf;
        NodeInventory inventory = hostInventory(
            dialect, host, samples, m_options.dataCenter.empty() ? "unknown" : m_options.dataCenter,
            std::string(dialect.name) + " via " + m_options.endpoint.url, positionOf);
        const PromSample &first = *samples.front();
        auto &node = m_nodes[nodeKey(dialect, host)];
        if (!node) {
            node = std::make_unique<Node>();
            node->dialect = &dialect;
            node->host = host;
        }
        node->instance = labelOr(first, "instance", host);
        const auto uuids = [](const NodeInventory &inv) {
            std::vector<std::string> out;
            for (const CardInfo &c : inv.cards)
                out.push_back(c.uuid + c.model);
            return out;
        };
        if (uuids(node->inventory) != uuids(inventory) ||
            node->inventory.nodeId != inventory.nodeId) {
            if (node->shown)
                m_state.setInventory(node->handle, inventory, m_options.scrapeIntervalMs);
            node->inventory = std::move(inventory);
            node->positionOf = std::move(positionOf);
        }
    }
    return {};
}

Status PrometheusSource::readSnapshots()
{
    std::map<std::string, Reading> readings;  // by node key
    for (const ExporterDialect &dialect : exporterDialects()) {
        {
            std::lock_guard lock(m_mutex);
            const bool any = std::any_of(m_nodes.begin(), m_nodes.end(), [&](const auto &entry) {
                return entry.second->dialect == &dialect;
            });
            if (!any)
                continue;
        }
        if (Status read = readDialect(dialect, readings); !read)
            return read;
    }
    auto up = scrapeHealth();
    if (!up)
        return up.error();
    std::lock_guard lock(m_mutex);
    for (auto &[key, node] : m_nodes) {
        const auto found = readings.find(key);
        if (found != readings.end() && found->second.sampleMs > node->lastRecordedMs)
            recordReading(*node, found->second);
        const auto target = up->find(node->instance);
        if (node->shown && target != up->end() && target->second < 1) {
            m_state.setConnection(node->handle, ConnectionState::Unreachable,
                                  fmt::format("{}: the last scrape of {} failed (up = 0)",
                                              m_options.endpoint.url, node->instance));
        }
    }
    return {};
}

Status PrometheusSource::readDialect(const ExporterDialect &dialect,
                                     std::map<std::string, Reading> &readings)
{
    for (const auto &[field, metric] : fieldsOf(dialect)) {
        if (metric.empty())
            continue;
        const std::string selector =
            field == Field::Time ? fmt::format("timestamp({})", metric) : std::string(metric);
        auto answer = m_client->instant(
            fmt::format("max by ({},{}) ({})", dialect.hostLabel, dialect.indexLabel, selector));
        if (!answer)
            return answer.error();
        std::lock_guard lock(m_mutex);
        for (const PromSample &sample : answer.value()) {
            const std::string *host = sample.label(dialect.hostLabel);
            const std::string *index = sample.label(dialect.indexLabel);
            if (!host || !index || !std::isfinite(sample.value))
                continue;
            const auto node = m_nodes.find(nodeKey(dialect, *host));
            if (node == m_nodes.end())
                continue;  // a card found after the last discovery: the next one adds it
            const auto position = node->second->positionOf.find(*index);
            if (position == node->second->positionOf.end())
                continue;
            auto reading = readings.find(node->first);
            if (reading == readings.end())
                reading = readings.emplace(node->first, node->second->inventory.cards.size()).first;
            reading->second.set(field, position->second, sample.value);
        }
    }
    return {};
}

// Each scrape target's `up`, the lowest where a target has several series.
Result<std::map<std::string, double>> PrometheusSource::scrapeHealth()
{
    auto targets = m_client->instant("up");
    if (!targets)
        return targets.error();
    std::map<std::string, double> up;
    for (const PromSample &sample : targets.value()) {
        if (const std::string *instance = sample.label("instance"))
            up[*instance] = std::min(up.count(*instance) ? up[*instance] : 1.0, sample.value);
    }
    return up;
}

void PrometheusSource::recordReading(Node &node, Reading &reading)
{
    if (!node.shown) {
        // Shown with its first readings: a node found but not yet read is not "stale",
        // and a 12,500-node store must not raise 12,500 alerts at start.
        node.handle = m_state.addNode(storeNodeAddress(node.host), node.inventory.dataCenter);
        m_state.setInventory(node.handle, node.inventory, m_options.scrapeIntervalMs);
        node.shown = true;
    }
    const double unit = node.dialect->memoryUnitBytes;
    for (size_t i = 0; i < reading.cards.size(); ++i) {
        const double used = reading.memoryUsed[i];
        const double total = std::isfinite(reading.memoryTotal[i]) ? reading.memoryTotal[i]
                                                                   : used + reading.memoryFree[i];
        if (std::isfinite(used) && used >= 0)
            reading.cards[i].memoryUsedBytes = static_cast<uint64_t>(used * unit);
        if (std::isfinite(total) && total > 0)
            reading.cards[i].memoryTotalBytes = static_cast<uint64_t>(total * unit);
    }
    recordNewXids(node, reading.cards, reading.sampleMs);
    TelemetrySample sample;
    sample.sampleTimeUnixMs = reading.sampleMs;
    sample.cards = std::move(reading.cards);
    m_state.recordTelemetry(node.handle, sample, reading.sampleMs);
    node.lastRecordedMs = reading.sampleMs;
}

// The store holds only each card's latest Xid; a change of it is the event an agent's
// stream would have carried, so alerts and the error count work on this source too.
void PrometheusSource::recordNewXids(Node &node, const std::vector<CardSample> &cards,
                                     int64_t timeMs)
{
    node.lastXid.resize(cards.size(), 0);
    for (size_t i = 0; i < cards.size(); ++i) {
        const uint32_t xid = cards[i].lastXid.value_or(0);
        if (xid == 0 || xid == node.lastXid[i]) {
            node.lastXid[i] = xid;
            continue;
        }
        node.lastXid[i] = xid;
        Event event;
        event.sequence = ++node.eventSequence;
        event.timeUnixMs = timeMs;
        event.kind = EventKind::Xid;
        event.severity = Severity::Critical;
        event.cardIndex = static_cast<uint32_t>(i);
        event.xid = xid;
        event.message = fmt::format("card {}: Xid {} (seen in {})", node.inventory.cards[i].index,
                                    xid, m_options.endpoint.url);
        m_state.recordEvent(node.handle, event);
    }
}

void PrometheusSource::markUnreachable(const std::string &why)
{
    std::lock_guard lock(m_mutex);
    for (const auto &[key, node] : m_nodes) {
        if (node->shown)
            m_state.setConnection(node->handle, ConnectionState::Unreachable, why);
    }
}

Result<std::vector<HistoryPoint>> PrometheusSource::history(const std::string &cardUuid,
                                                            CardMetric metric, int64_t fromUnixS,
                                                            int64_t toUnixS, int64_t stepS)
{
    std::string query;
    {
        std::lock_guard lock(m_mutex);
        for (const auto &[key, node] : m_nodes) {
            const ExporterDialect &d = *node->dialect;
            for (const auto &[index, position] : node->positionOf) {
                if (node->inventory.cards[position].uuid != cardUuid)
                    continue;
                const std::string selector =
                    fmt::format("{{{}={},{}={}}}", d.hostLabel, promqlString(node->host),
                                d.indexLabel, promqlString(index));
                const auto one = [&](std::string_view name) {
                    return fmt::format("max({}{})", name, selector);
                };
                switch (metric) {
                case CardMetric::Utilization: query = one(d.utilization); break;
                case CardMetric::Temperature: query = one(d.temperature); break;
                case CardMetric::Power: query = one(d.power); break;
                case CardMetric::Memory:
                    query =
                        d.memoryTotal.empty()
                            ? fmt::format("100 * {} / ({} + {})", one(d.memoryUsed),
                                          one(d.memoryUsed), one(d.memoryFree))
                            : fmt::format("100 * {} / {}", one(d.memoryUsed), one(d.memoryTotal));
                    break;
                }
            }
        }
    }
    if (query.empty())
        return Error{fmt::format("card {} is not in {}", cardUuid, m_options.endpoint.url)};
    // Its own connection: an HTTP client serves one request at a time, and the poller's
    // may be busy with a snapshot.
    std::lock_guard historyLock(m_historyMutex);
    if (Status made = makeClient(m_historyClient); !made)
        return made.error();
    auto series = m_historyClient->range(query, fromUnixS, toUnixS, stepS);
    if (!series)
        return series.error();
    std::vector<HistoryPoint> out;
    for (const PromSeries &s : series.value()) {
        for (const auto &[time, value] : s.points)
            out.push_back({static_cast<int64_t>(time * 1000), static_cast<float>(value)});
    }
    std::sort(out.begin(), out.end(), [](const HistoryPoint &a, const HistoryPoint &b) {
        return a.timeUnixMs < b.timeUnixMs;
    });
    return out;
}

}  // namespace meridian
