#include "fleettimemachine.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include <fmt/format.h>

#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include "alerts/alert.h"
#include "history/cardusageseries.h"
#include "history/fleetutilizationat.h"
#include "history/usagerows.h"
#include "models/alerts/alertguidance.h"

namespace meridian {

namespace {

constexpr int64_t kStepsLookBackMs = 3600 * 1000;
constexpr int64_t kAlertsLookBackMs = 7 * 24 * 3600 * 1000LL;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Every node of a data center dark then: unreachable, as the live view draws them, and as
// the past table counts them.
void markDark(FleetSnapshot &s, const AlertIncident &incident)
{
    const std::string &dc = incident.dataCenter.empty() ? incident.subject : incident.dataCenter;
    const FleetLayout &l = *s.layout;
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        if (l.nodeDataCenter[n] == dc)
            s.nodeConnection[n] = ConnectionState::Unreachable;
    }
}

void markCard(FleetSnapshot &s, NodeHandle node, uint32_t index, std::optional<AlertKind> kind)
{
    const FleetLayout &l = *s.layout;
    for (CardHandle c = 0; c < l.cardCount(); ++c) {
        if (l.cardNode[c] != node || l.cardIndex[c] != index)
            continue;
        if (kind == AlertKind::ThermalThrottle) {
            s.cardFaults[c] |= kFaultThermal;
        } else {
            s.cardFaults[c] |= kind == AlertKind::EccDoubleBit ? kFaultEccUncorrected : kFaultXid;
            s.errors[c] = std::max<uint32_t>(s.errors[c], 1);
        }
    }
}

// What an alert open then marks, as live marks it: "node card 3" a card; "node" or
// "node NIC" (a link down, flapping or storming) its node; a dark data center its nodes.
void markAlert(FleetSnapshot &s, const AlertIncident &incident,
               const std::unordered_map<std::string, NodeHandle> &nodes)
{
    const auto kind = alertKindFromName(incident.kind);
    if (kind == AlertKind::DataCenterDark) {
        markDark(s, incident);
        return;
    }
    const std::string &subject = incident.subject;
    const auto node = nodes.find(subject.substr(0, subject.find(' ')));
    if (node == nodes.end())
        return;
    if (const size_t card = subject.find(" card "); card != std::string::npos) {
        markCard(s, node->second, static_cast<uint32_t>(std::atoi(subject.c_str() + card + 6)),
                 kind);
        return;
    }
    if (kind == AlertKind::LinkDown || kind == AlertKind::LinkFlap || kind == AlertKind::PfcStorm)
        s.nodeLinkFault[node->second] = 1;
    else if (kind == AlertKind::AgentUnreachable)
        s.nodeConnection[node->second] = ConnectionState::Unreachable;
    else if (kind == AlertKind::AgentStale)
        s.nodeLastSeenMs[node->second] = 0;
}

// `live`'s layout at a past moment with nothing known yet: every reading NaN, every node
// reporting (an alert open then says otherwise).
std::shared_ptr<FleetSnapshot> blankPast(const FleetSnapshot &live, int64_t atUnixMs)
{
    auto past = std::make_shared<FleetSnapshot>(live);
    const size_t cards = live.cardCount();
    past->takenUnixMs = atUnixMs;
    past->utilization.assign(cards, kNaN);
    past->memoryPercent.assign(cards, kNaN);
    past->temperature.assign(cards, kNaN);
    past->power.assign(cards, kNaN);
    past->errors.assign(cards, 0);
    past->cardFaults.assign(cards, 0);
    past->cardLastSeenMs.assign(cards, atUnixMs);
    // Nodes as reporting then; an alert open then says otherwise below.
    past->nodeConnection.assign(live.nodeCount(), ConnectionState::Connected);
    past->nodeError.assign(live.nodeCount(), std::string());
    past->nodeLastSeenMs.assign(live.nodeCount(), atUnixMs);
    past->nodeLinkFault.assign(live.nodeCount(), 0);
    return past;
}

}  // namespace

FleetMoment readFleetMoment(const std::string &historyFile, const FleetSnapshot &live,
                            int64_t atUnixMs, int64_t nowUnixMs)
{
    FleetMoment moment;
    const int64_t grainS = nowUnixMs - atUnixMs <= kTimeMachineMinutesForS * 1000 ? 60 : 3600;
    // One read-only connection for all of it: no check of the file, no write.
    auto rows = UsageRows::open(historyFile);
    if (!rows) {
        moment.problem = rows.error().message;
        return moment;
    }
    auto recorded = readFleetUtilizationAt(*rows.value(), atUnixMs / 1000, grainS);
    if (!recorded) {
        moment.problem = recorded.error().message;
        return moment;
    }
    moment.grainS = recorded->grainS;
    moment.atUnixMs = recorded->fromUnixS * 1000;
    if (const auto begins = readHistoryBeginsUnixS(*rows.value());
        begins.ok() && begins->has_value())
        moment.historyBeginsUnixMs = begins->value() * 1000;

    auto past = blankPast(live, moment.atUnixMs);
    const size_t cards = live.cardCount();
    const FleetLayout &l = *live.layout;
    std::unordered_map<std::string, CardHandle> byUuid;
    byUuid.reserve(cards);
    for (CardHandle c = 0; c < cards; ++c)
        byUuid.emplace(l.cardUuid[c], c);
    for (const auto &[uuid, percent] : recorded->cards) {
        if (const auto it = byUuid.find(uuid); it != byUuid.end()) {
            past->utilization[it->second] = percent;
            ++moment.cardsRecorded;
        }
    }

    // The alerts and scaling steps of then, from the same file.
    SQLite::Database &db = rows.value()->database();
    try {
        moment.openAlerts =
            incidentsOpenAtLocked(db, moment.atUnixMs + grainS * 1000 - 1, kAlertsLookBackMs);
    } catch (const SQLite::Exception &e) {
        moment.problem = fmt::format("{}: {}", historyFile, e.what());
    }
    if (auto steps = journalStepsCreatedBetween(db, moment.atUnixMs - kStepsLookBackMs,
                                                moment.atUnixMs + grainS * 1000, 20))
        moment.steps = std::move(steps).value();
    std::unordered_map<std::string, NodeHandle> nodes;
    for (NodeHandle n = 0; n < live.nodeCount(); ++n)
        nodes.emplace(l.nodeId[n], n);
    for (const AlertIncident &incident : moment.openAlerts)
        markAlert(*past, incident, nodes);
    moment.snapshot = std::move(past);
    return moment;
}

FleetTimeMachine::FleetTimeMachine(std::string historyFile, QObject *parent)
    : QObject(parent), m_historyFile(std::move(historyFile))
{
    connect(&m_watcher, &QFutureWatcher<FleetMoment>::finished, this, &FleetTimeMachine::finished);
}

FleetTimeMachine::~FleetTimeMachine()
{
    m_watcher.waitForFinished();  // one read of the file, milliseconds
}

void FleetTimeMachine::request(int64_t atUnixMs, std::shared_ptr<const FleetSnapshot> live,
                               int64_t nowUnixMs)
{
    if (!live)
        return;
    Ask ask{atUnixMs, nowUnixMs, std::move(live)};
    if (m_watcher.isRunning()) {
        m_pending = std::move(ask);  // the newest wins: a drag asks many times
        return;
    }
    launch(std::move(ask));
}

void FleetTimeMachine::launch(Ask ask)
{
    m_pending.reset();
    m_watcher.setFuture(QtConcurrent::run([file = m_historyFile, ask = std::move(ask)] {
        return readFleetMoment(file, *ask.live, ask.atUnixMs, ask.nowUnixMs);
    }));
}

void FleetTimeMachine::finished()
{
    m_latest = m_watcher.result();
    if (m_pending)
        launch(std::move(*m_pending));
    Q_EMIT momentReady();
}

QString openAlertLine(const AlertIncident &incident)
{
    return QStringLiteral("%1 %2").arg(alertKindTitleOfName(incident.kind),
                                       QString::fromStdString(incident.subject));
}

}  // namespace meridian
