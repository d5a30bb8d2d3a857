#include "alertengine.h"

#include "alertpayloads.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/inferenceservice.h"

namespace meridian {

bool SilenceRule::matches(const Alert &alert) const
{
    return matchers.empty() ? matches(alert, {}) : matches(alert, alertLabels(alert));
}

bool SilenceRule::matches(const Alert &alert, const AlertLabels &labels) const
{
    if (!matchers.empty())
        return allMatch(matchers, labels);
    if (!alertKey.empty() && alertKey != alert.key)
        return false;
    if (kind && *kind != alert.kind)
        return false;
    if (!node.empty() && node != alert.nodeName)
        return false;
    return dataCenter.empty() || dataCenter == alert.dataCenter;
}

std::string SilenceRule::matchersText() const
{
    std::string text;
    for (const LabelMatcher &m : matchers)
        text += (text.empty() ? "" : ", ") + m.text();
    return text;
}

namespace {

// Who a node is, as alerts name it: the agent's own word, or the inventory's until the
// agent has spoken; an address only for a node with neither (a port may change with
// every restart, and an alert keyed by it would come back as another).
std::string nodeName(const FleetLayout &l, NodeHandle n)
{
    if (!l.nodeId[n].empty())
        return l.nodeId[n];
    return l.nodeHint[n].empty() ? l.nodeAddress[n] : l.nodeHint[n];
}

// What a service over its objective shows: the latency the objective is on, and the
// time to first token beside it where that is not the same reading.
std::string serviceOverText(const ServiceObservation &o, double held)
{
    if (!o.queueDelayP95Seconds)
        return fmt::format("TTFT p95 {:.1f} s against an objective of {:.1f} s", held,
                           o.objectiveSeconds);
    std::string text = fmt::format("queueing delay p95 {:.1f} s against an objective of {:.1f} s",
                                   held, o.objectiveSeconds);
    if (o.ttftP95Seconds)
        text += fmt::format(" (TTFT p95 {:.1f} s)", *o.ttftP95Seconds);
    return text;
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
        // New, or back after it had cleared: a new occurrence that needs eyes again, once
        // it has held for its kind's pending duration.
        if (fresh) {
            a.key = key;
            a.firstSeenMs = nowMs;
        }
        a.activeSinceMs = nowMs;
        a.active = true;
        a.firing = pendingFor(kind) <= 0;
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
    if (it == m_alerts.end() || !it->second.active)
        return;
    Alert &a = it->second;
    if (!a.firing && a.firstSeenMs == a.activeSinceMs) {
        m_alerts.erase(it);  // it held for less than its pending duration: never an alert
        return;
    }
    a.active = false;
    if (a.firing)
        a.lastSeenMs = nowMs;
    a.firing = true;  // what shows is the occurrence before, resolved as it was
}

int64_t AlertEngine::pendingFor(AlertKind kind) const
{
    const auto it = m_rules.pendingMs.find(kind);
    return it == m_rules.pendingMs.end() ? 0 : it->second;
}

void AlertEngine::promotePending(int64_t nowMs)
{
    for (auto &[key, a] : m_alerts) {
        if (a.active && !a.firing && nowMs - a.activeSinceMs >= pendingFor(a.kind))
            a.firing = true;
    }
}

void AlertEngine::dropPendingAgentJudgments()
{
    std::erase_if(m_alerts, [](const auto &entry) {
        const Alert &a = entry.second;
        const bool agentKind = a.kind == AlertKind::DataCenterDark ||
                               a.kind == AlertKind::AgentUnreachable ||
                               a.kind == AlertKind::AgentStale;
        return agentKind && a.active && !a.firing;
    });
}

void AlertEngine::setPendingDurations(std::map<AlertKind, int64_t> pendingMs)
{
    m_rules.pendingMs = std::move(pendingMs);
}

std::set<std::string> AlertEngine::pendingKeys() const
{
    std::set<std::string> keys;
    for (const auto &[key, alert] : m_alerts) {
        if (!alert.firing)
            keys.insert(key);
    }
    return keys;
}

void AlertEngine::judgeWhetherEveryAgentIsKnown(const FleetSnapshot &s)
{
    const FleetLayout &l = *s.layout;
    bool everyAgentHeard = l.nodeCount() > 0;
    for (NodeHandle n = 0; n < l.nodeCount() && everyAgentHeard; ++n) {
        everyAgentHeard = s.nodeConnection[n] == ConnectionState::Unreachable ||
                          (s.nodeConnection[n] == ConnectionState::Connected &&
                           s.nodeLastSeenMs[n] > 0 && !l.nodeId[n].empty());
    }
    const int64_t now = s.takenUnixMs;
    if (!everyAgentHeard)
        m_everyAgentHeardSinceMs = 0;
    else if (m_everyAgentHeardSinceMs == 0)
        m_everyAgentHeardSinceMs = now;
    // A moment after the last agent spoke: the events each agent replays on connecting
    // (an Xid still held) have arrived too.
    constexpr int64_t kEventsReplayedMs = 2'000;
    m_fleetJudged =
        !m_holdingStaleness &&
        ((m_everyAgentHeardSinceMs > 0 && now - m_everyAgentHeardSinceMs >= kEventsReplayedMs) ||
         now - m_firstEvaluationMs >= m_rules.startupGraceMs);
}

int AlertEngine::pendingCount() const
{
    return static_cast<int>(std::count_if(m_alerts.begin(), m_alerts.end(),
                                          [](const auto &e) { return !e.second.firing; }));
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
        // A card by its UUID, which stays with it when cards are renumbered.
        if (card && !l.cardUuid[*card].empty())
            return fmt::format("{}/{}/{}", kind, node, l.cardUuid[*card]);
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
        a.nodeName = node;
        a.cardIndex = e.cardIndex;
        a.subject = subject();
        a.message = e.message;
        if (e.xid)
            a.xid = e.xid;
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
    std::map<std::string, AgentTally> perDc;
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        AgentTally &t = perDc[l.nodeDataCenter[n]];
        ++t.agents;
        if (down(n))
            ++t.down;
    }
    judgeDataCenters(perDc, now);
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        const std::string &dc = l.nodeDataCenter[n];
        const AgentTally &t = perDc[dc];
        // Inside a dark data center the incident speaks for every agent; so it does for a
        // while after it ends, as agents reconnect one by one (no storm of stragglers).
        const auto ended = m_incidentEndedMs.find(dc);
        const bool recovering =
            ended != m_incidentEndedMs.end() && now - ended->second < m_rules.recoveryQuietMs;
        const bool quiet = isIncident(t.agents, t.down) || recovering;
        const bool unreachable = s.nodeConnection[n] == ConnectionState::Unreachable;
        const bool stale = !unreachable && down(n);
        const std::string unreachableKey = "unreachable/" + nodeName(l, n);
        const std::string staleKey = "stale/" + nodeName(l, n);
        if (unreachable && !quiet) {
            Alert &a =
                raise(unreachableKey, AlertKind::AgentUnreachable, AlertSeverity::Critical, now);
            a.dataCenter = dc;
            a.node = n;
            a.nodeName = nodeName(l, n);
            a.subject = a.nodeName;
            a.message = s.nodeError[n];
            a.count = 1;
        } else {
            clearCondition(unreachableKey, now);
        }
        if (stale && !quiet) {
            Alert &a = raise(staleKey, AlertKind::AgentStale, AlertSeverity::Warning, now);
            a.dataCenter = dc;
            a.node = n;
            a.nodeName = nodeName(l, n);
            a.subject = a.nodeName;
            a.message = s.nodeLastSeenMs[n] > 0 ? fmt::format("no telemetry for {:.0f} s",
                                                              (now - s.nodeLastSeenMs[n]) / 1000.0)
                                                : "no telemetry yet";
            a.count = 1;
        } else {
            clearCondition(staleKey, now);
        }
    }
}

void AlertEngine::judgeDataCenters(const std::map<std::string, AgentTally> &perDc, int64_t now)
{
    for (const auto &[dc, t] : perDc) {
        const bool dark = isIncident(t.agents, t.down);
        const std::string key = "dark/" + dc;
        if (dark) {
            Alert &a = raise(key, AlertKind::DataCenterDark, AlertSeverity::Critical, now);
            a.dataCenter = dc;
            a.subject = dc;
            a.count = static_cast<uint64_t>(t.down);
            a.message = fmt::format("{} of {} agents unreachable or silent", t.down, t.agents);
            m_incidentEndedMs.erase(dc);
        } else {
            const Alert *incident = find(key);
            if (incident && incident->active)
                m_incidentEndedMs[dc] = now;
            clearCondition(key, now);
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
            a.nodeName = nodeName(l, n);
            a.cardIndex = l.cardIndex[c];
            a.subject = fmt::format("{} card {}", a.nodeName, l.cardIndex[c]);
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
    // An event from an agent that has not said who it is yet waits for it: keyed by what
    // is known before, its alert would come back under another key once it has.
    const FleetLayout &l = *snapshot.layout;
    const auto identified = [&](const FleetEvent &e) {
        return e.node < l.nodeCount() && !l.nodeId[e.node].empty();
    };
    std::vector<FleetEvent> waiting;
    waiting.swap(m_waitingForIdentity);
    for (const std::vector<FleetEvent> *batch :
         {static_cast<const std::vector<FleetEvent> *>(&waiting), &events}) {
        for (const FleetEvent &e : *batch) {
            if (identified(e))
                applyEvent(snapshot, e);
            else if (e.node < l.nodeCount() && m_waitingForIdentity.size() < kMostWaitingEvents)
                m_waitingForIdentity.push_back(e);
        }
    }
    if (m_holdingStaleness)
        dropPendingAgentJudgments();
    else
        evaluateAgents(snapshot);
    evaluateIdleCards(snapshot);
    judgeWhetherEveryAgentIsKnown(snapshot);
    promotePending(snapshot.takenUnixMs);
    forgetSettled(snapshot.takenUnixMs);
    applySilences();
}

void AlertEngine::forgetSettled(int64_t nowMs)
{
    std::erase_if(m_localSilences, [&](const SilenceRule &r) { return r.untilMs <= nowMs; });
    // Forget what has been resolved (or acknowledged and quiet) for a while.
    std::erase_if(m_alerts, [&](const auto &entry) {
        const Alert &a = entry.second;
        const bool settled = !a.active || a.acknowledgedMs;
        return settled && nowMs - a.lastSeenMs > m_rules.resolvedKeptMs;
    });
}

void AlertEngine::observeServices(const std::vector<ServiceObservation> &services, int64_t nowMs)
{
    for (const ServiceObservation &o : services) {
        const std::string slowKey = "slow/" + o.service;
        const std::optional<double> held =
            objectiveLatency(o.queueDelayP95Seconds, o.ttftP95Seconds);
        const bool over = held && o.objectiveSeconds > 0 && *held > o.objectiveSeconds;
        if (!over) {
            m_serviceOverSinceMs.erase(o.service);
            clearCondition(slowKey, nowMs);
        } else {
            const int64_t since = m_serviceOverSinceMs.try_emplace(o.service, nowMs).first->second;
            // A minute over, not one unlucky sample: the objective is a p95 over time.
            if (nowMs - since >= m_rules.serviceOverForMs) {
                Alert &a =
                    raise(slowKey, AlertKind::ServiceOverObjective, AlertSeverity::Critical, nowMs);
                a.service = o.service;
                a.subject = o.service;
                a.message = serviceOverText(o, *held);
                a.count = 1;
            }
        }
        const std::string planKey = "plan/" + o.service;
        if (o.planWaiting.empty()) {
            clearCondition(planKey, nowMs);
        } else {
            Alert &a =
                raise(planKey, AlertKind::PlanAwaitingApproval, AlertSeverity::Warning, nowMs);
            a.service = o.service;
            a.subject = o.service;
            a.message = o.planWaiting;
            a.count = 1;
        }
    }
    promotePending(nowMs);
    forgetSettled(nowMs);
    applySilences();
}

void AlertEngine::observeController(const ControllerObservation &c, int64_t nowMs)
{
    constexpr int64_t kPassesStoppedMs = 60'000;
    const std::string key = "controller/" + c.name;
    const bool stopped = c.answered && c.lastPassMs > 0 && nowMs - c.lastPassMs > kPassesStoppedMs;
    if (c.answered && !stopped) {
        clearCondition(key, nowMs);
    } else {
        Alert &a = raise(key, AlertKind::ControllerSilent, AlertSeverity::Critical, nowMs);
        a.subject = c.name;
        a.message = stopped
                        ? fmt::format("{}: no pass for {} s", c.name, (nowMs - c.lastPassMs) / 1000)
                        : c.problem;
        a.count = 1;
    }
    promotePending(nowMs);
    forgetSettled(nowMs);
    applySilences();
}

void AlertEngine::setSharedSilences(std::vector<SilenceRule> rules)
{
    m_sharedSilences = std::move(rules);
    applySilences();
}

void AlertEngine::applySilences()
{
    // Runs on every evaluation (once a second, on the console's UI thread), over every
    // alert and every silence an Alertmanager holds: an alert's labels are made once.
    const auto hasMatchers = [](const std::vector<SilenceRule> &rules) {
        return std::any_of(rules.begin(), rules.end(),
                           [](const SilenceRule &r) { return !r.matchers.empty(); });
    };
    const bool labelled = hasMatchers(m_localSilences) || hasMatchers(m_sharedSilences);
    for (auto &[key, alert] : m_alerts) {
        alert.silencedUntilMs = 0;
        alert.silencedBy.clear();
        alert.silenceReason.clear();
        const AlertLabels labels = labelled ? alertLabels(alert) : AlertLabels{};
        for (const auto *rules : {&m_localSilences, &m_sharedSilences}) {
            for (const SilenceRule &rule : *rules) {
                if (rule.untilMs > alert.silencedUntilMs && rule.matches(alert, labels)) {
                    alert.silencedUntilMs = rule.untilMs;
                    alert.silencedBy = rule.by;
                    alert.silenceReason = rule.reason;
                }
            }
        }
    }
}

std::vector<Alert> AlertEngine::alerts() const
{
    std::vector<Alert> out;
    out.reserve(m_alerts.size());
    for (const auto &[key, alert] : m_alerts) {
        if (alert.firing)
            out.push_back(alert);
    }
    std::sort(out.begin(), out.end(), [](const Alert &a, const Alert &b) {
        return a.lastSeenMs != b.lastSeenMs ? a.lastSeenMs > b.lastSeenMs : a.key < b.key;
    });
    return out;
}

const Alert *AlertEngine::find(const std::string &key) const
{
    const auto it = m_alerts.find(key);
    return it == m_alerts.end() || !it->second.firing ? nullptr : &it->second;
}

int AlertEngine::openCount(const std::string &dataCenter, int64_t nowMs) const
{
    int open = 0;
    for (const auto &[key, alert] : m_alerts)
        open += alert.firing && alert.dataCenter == dataCenter && alert.open(nowMs);
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
    if (!m_alerts.count(key))
        return false;
    SilenceRule rule;
    rule.alertKey = key;
    rule.untilMs = untilMs;
    m_localSilences.push_back(rule);
    applySilences();
    return true;
}

void AlertEngine::applyAcknowledgement(const std::string &key, const std::string &who, int64_t atMs)
{
    const auto it = m_alerts.find(key);
    // An acknowledgement made before this occurrence began was for an earlier one.
    if (it == m_alerts.end() || atMs < it->second.activeSinceMs)
        return;
    if (!it->second.acknowledgedMs || *it->second.acknowledgedMs < atMs) {
        it->second.acknowledgedMs = atMs;
        it->second.acknowledgedBy = who;
    }
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
