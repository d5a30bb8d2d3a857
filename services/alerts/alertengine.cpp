#include "alertengine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace meridian {

const char *alertKindName(AlertKind kind)
{
    switch (kind) {
    case AlertKind::DataCenterDark: return "data center dark";
    case AlertKind::AgentUnreachable: return "agent unreachable";
    case AlertKind::AgentStale: return "agent stale";
    case AlertKind::Xid: return "Xid";
    case AlertKind::EccDoubleBit: return "ECC double-bit";
    case AlertKind::ThermalThrottle: return "thermal throttling";
    case AlertKind::LinkDown: return "link down";
    case AlertKind::LinkFlap: return "link flapping";
    case AlertKind::PfcStorm: return "PFC storm";
    case AlertKind::PaidButIdle: return "paid but idle";
    }
    return "alert";
}

namespace {

std::string nodeName(const FleetLayout &l, NodeHandle n)
{
    return l.nodeId[n].empty() ? l.nodeAddress[n] : l.nodeId[n];
}

}  // namespace

AlertEngine::AlertEngine(AlertRules rules) : m_rules(rules)
{}

Alert &AlertEngine::raise(const std::string &key, AlertKind kind, AlertSeverity severity,
                          int64_t nowMs)
{
    auto [it, fresh] = m_alerts.try_emplace(key);
    Alert &a = it->second;
    if (fresh || !a.active) {
        // New, or back after it had cleared: a new occurrence that needs eyes again.
        if (fresh) {
            a.key = key;
            a.firstSeenMs = nowMs;
        }
        a.active = true;
        a.acknowledgedMs.reset();
        a.acknowledgedBy.clear();
    }
    a.kind = kind;
    a.severity = severity;
    a.lastSeenMs = nowMs;
    return a;
}

void AlertEngine::clearCondition(const std::string &key, int64_t nowMs)
{
    const auto it = m_alerts.find(key);
    if (it != m_alerts.end() && it->second.active) {
        it->second.active = false;
        it->second.lastSeenMs = nowMs;
    }
}

void AlertEngine::applyEvent(const FleetSnapshot &s, const FleetEvent &fleetEvent)
{
    const Event &e = fleetEvent.event;
    const FleetLayout &l = *s.layout;
    const NodeHandle n = fleetEvent.node;
    if (n >= l.nodeCount())
        return;
    const std::string node = nodeName(l, n);
    std::optional<CardHandle> card;
    if (e.cardIndex && *e.cardIndex < l.nodeCards[n].size())
        card = l.nodeCards[n][*e.cardIndex];
    const auto placeKey = [&](const char *kind) {
        if (e.cardIndex)
            return fmt::format("{}/{}/card{}", kind, node, *e.cardIndex);
        if (!e.netdev.empty())
            return fmt::format("{}/{}/{}", kind, node, e.netdev);
        return fmt::format("{}/{}", kind, node);
    };
    const auto subject = [&] {
        if (e.cardIndex)
            return fmt::format("{} card {}", node, *e.cardIndex);
        if (!e.netdev.empty())
            return fmt::format("{} {}", node, e.netdev);
        return node;
    };
    const int64_t when = e.timeUnixMs ? e.timeUnixMs : s.takenUnixMs;
    const auto occurred = [&](const char *name, AlertKind kind, AlertSeverity severity) {
        Alert &a = raise(placeKey(name), kind, severity, when);
        a.dataCenter = l.nodeDataCenter[n];
        a.node = n;
        a.card = card;
        a.netdev = e.netdev;
        a.subject = subject();
        a.message = e.message;
        ++a.count;
    };
    switch (e.kind) {
    case EventKind::Xid: occurred("xid", AlertKind::Xid, AlertSeverity::Critical); break;
    case EventKind::EccUncorrected:
        occurred("ecc", AlertKind::EccDoubleBit, AlertSeverity::Critical);
        break;
    case EventKind::ThermalThrottle:
        occurred("thermal", AlertKind::ThermalThrottle, AlertSeverity::Warning);
        break;
    case EventKind::ThermalThrottleCleared: clearCondition(placeKey("thermal"), when); break;
    case EventKind::LinkDown: occurred("link", AlertKind::LinkDown, AlertSeverity::Critical); break;
    case EventKind::LinkUp: clearCondition(placeKey("link"), when); break;
    case EventKind::LinkFlap: occurred("flap", AlertKind::LinkFlap, AlertSeverity::Critical); break;
    case EventKind::PfcStorm: occurred("pfc", AlertKind::PfcStorm, AlertSeverity::Critical); break;
    default: break;
    }
}

bool AlertEngine::isIncident(int agents, int down) const
{
    return down >= m_rules.massOutageAgents || (agents >= m_rules.darkDataCenterMinimumAgents &&
                                                down >= m_rules.darkDataCenterShare * agents);
}

void AlertEngine::evaluateAgents(const FleetSnapshot &s)
{
    const FleetLayout &l = *s.layout;
    const int64_t now = s.takenUnixMs;
    // Right after the console starts every agent is "never heard from": that is the
    // console connecting, not the fleet failing. Refused connections still count at once.
    const bool settling = now - m_firstEvaluationMs < m_rules.startupGraceMs;
    const auto down = [&](NodeHandle n) {
        if (s.nodeConnection[n] == ConnectionState::Unreachable)
            return true;
        return s.nodeStale(n) && !(settling && s.nodeLastSeenMs[n] == 0);
    };
    struct Tally {
        int agents = 0;
        int down = 0;
    };
    std::map<std::string, Tally> perDc;
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        Tally &t = perDc[l.nodeDataCenter[n]];
        ++t.agents;
        if (down(n))
            ++t.down;
    }
    for (const auto &[dc, t] : perDc) {
        const bool dark = isIncident(t.agents, t.down);
        const std::string key = "dark/" + dc;
        if (dark) {
            Alert &a = raise(key, AlertKind::DataCenterDark, AlertSeverity::Critical, now);
            a.dataCenter = dc;
            a.subject = dc;
            a.count = static_cast<uint64_t>(t.down);
            a.message = fmt::format("{} of {} agents unreachable or silent", t.down, t.agents);
        } else {
            clearCondition(key, now);
        }
    }
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        const std::string &dc = l.nodeDataCenter[n];
        const Tally &t = perDc[dc];
        const bool dcDark = isIncident(t.agents, t.down);
        const bool unreachable = s.nodeConnection[n] == ConnectionState::Unreachable;
        const bool stale = !unreachable && down(n);
        const std::string unreachableKey = "unreachable/" + l.nodeAddress[n];
        const std::string staleKey = "stale/" + l.nodeAddress[n];
        // Inside a dark data center the incident speaks for every agent.
        if (unreachable && !dcDark) {
            Alert &a =
                raise(unreachableKey, AlertKind::AgentUnreachable, AlertSeverity::Critical, now);
            a.dataCenter = dc;
            a.node = n;
            a.subject = nodeName(l, n);
            a.message = s.nodeError[n];
            a.count = 1;
        } else {
            clearCondition(unreachableKey, now);
        }
        if (stale && !dcDark) {
            Alert &a = raise(staleKey, AlertKind::AgentStale, AlertSeverity::Warning, now);
            a.dataCenter = dc;
            a.node = n;
            a.subject = nodeName(l, n);
            a.message = s.nodeLastSeenMs[n] > 0 ? fmt::format("no telemetry for {:.0f} s",
                                                              (now - s.nodeLastSeenMs[n]) / 1000.0)
                                                : "no telemetry yet";
            a.count = 1;
        } else {
            clearCondition(staleKey, now);
        }
    }
}

void AlertEngine::evaluateIdleCards(const FleetSnapshot &s)
{
    const FleetLayout &l = *s.layout;
    m_idleSinceMs.resize(l.cardCount(), 0);
    for (CardHandle c = 0; c < l.cardCount(); ++c) {
        const NodeHandle n = l.cardNode[c];
        const float util = s.utilization[c];
        if (s.nodeStale(n) || std::isnan(util))
            continue;  // no evidence either way: keep what we knew
        // Keys are built only when an alert can change: this runs for every card per tick.
        if (util >= m_rules.idleUtilizationPercent) {
            if (m_idleSinceMs[c] != 0) {
                m_idleSinceMs[c] = 0;
                clearCondition(fmt::format("idle/{}", l.cardUuid[c]), s.takenUnixMs);
            }
            continue;
        }
        if (m_idleSinceMs[c] == 0)
            m_idleSinceMs[c] = s.takenUnixMs;
        const int64_t idleFor = s.takenUnixMs - m_idleSinceMs[c];
        if (idleFor >= m_rules.idleForMs) {
            Alert &a = raise(fmt::format("idle/{}", l.cardUuid[c]), AlertKind::PaidButIdle,
                             AlertSeverity::Warning, s.takenUnixMs);
            a.dataCenter = l.nodeDataCenter[n];
            a.node = n;
            a.card = c;
            a.subject = fmt::format("{} card {}", nodeName(l, n), l.cardIndex[c]);
            a.message = fmt::format("below {:.0f}% utilisation for {:.0f} min",
                                    m_rules.idleUtilizationPercent, idleFor / 60000.0);
            a.count = 1;
        }
    }
}

void AlertEngine::evaluate(const FleetSnapshot &snapshot, const std::vector<FleetEvent> &events)
{
    if (m_firstEvaluationMs == 0)
        m_firstEvaluationMs = snapshot.takenUnixMs;
    for (const FleetEvent &e : events)
        applyEvent(snapshot, e);
    evaluateAgents(snapshot);
    evaluateIdleCards(snapshot);
    // Forget what has been resolved (or acknowledged and quiet) for a while.
    std::erase_if(m_alerts, [&](const auto &entry) {
        const Alert &a = entry.second;
        const bool settled = !a.active || a.acknowledgedMs;
        return settled && snapshot.takenUnixMs - a.lastSeenMs > m_rules.resolvedKeptMs;
    });
}

std::vector<Alert> AlertEngine::alerts() const
{
    std::vector<Alert> out;
    out.reserve(m_alerts.size());
    for (const auto &[key, alert] : m_alerts)
        out.push_back(alert);
    std::sort(out.begin(), out.end(), [](const Alert &a, const Alert &b) {
        return a.lastSeenMs != b.lastSeenMs ? a.lastSeenMs > b.lastSeenMs : a.key < b.key;
    });
    return out;
}

const Alert *AlertEngine::find(const std::string &key) const
{
    const auto it = m_alerts.find(key);
    return it == m_alerts.end() ? nullptr : &it->second;
}

int AlertEngine::openCount(const std::string &dataCenter, int64_t nowMs) const
{
    int open = 0;
    for (const auto &[key, alert] : m_alerts)
        open += alert.dataCenter == dataCenter && alert.open(nowMs);
    return open;
}

bool AlertEngine::acknowledge(const std::string &key, const std::string &who, int64_t nowMs)
{
    const auto it = m_alerts.find(key);
    if (it == m_alerts.end())
        return false;
    it->second.acknowledgedMs = nowMs;
    it->second.acknowledgedBy = who;
    return true;
}

bool AlertEngine::silence(const std::string &key, int64_t untilMs)
{
    const auto it = m_alerts.find(key);
    if (it == m_alerts.end())
        return false;
    it->second.silencedUntilMs = untilMs;
    return true;
}

bool AlertEngine::setNote(const std::string &key, const std::string &note)
{
    const auto it = m_alerts.find(key);
    if (it == m_alerts.end())
        return false;
    it->second.note = note;
    return true;
}

}  // namespace meridian
