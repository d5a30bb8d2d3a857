// Alert rules, deduplication and lifecycle, as a pure function of snapshots and events
// over time (no threads, no clock of its own): agent unreachable or stale, a whole data
// center dark (one incident instead of hundreds of rows), Xid, ECC double-bit, thermal
// throttling, link down/flapping, PFC storms, and cards paid for but idle for an hour.
// Owned by one thread (models/alertevaluator's own, in the console and the watcher).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "alert.h"

namespace meridian {

struct AlertRules {
    double darkDataCenterShare = 0.8;  // this share of a DC's agents down = incident
    int darkDataCenterMinimumAgents = 3;
    // This many agents of one data center down at once is one incident too, whatever
    // their share: 7,000 rows of "agent stale" help nobody and stall the window.
    int massOutageAgents = 50;
    double idleUtilizationPercent = 5.0;
    int64_t idleForMs = 3600'000;       // paid but idle after an hour below the line
    int64_t resolvedKeptMs = 3600'000;  // resolved alerts stay listed this long
    int64_t startupGraceMs = 15'000;    // agents not heard from yet are not "down" before this
    // After a data center's incident ends its agents reconnect one by one; their own
    // alerts wait this long, so a recovery is not a storm of "agent unreachable".
    int64_t recoveryQuietMs = 180'000;
    int64_t serviceOverForMs = 60'000;  // over the objective this long raises an alert
    // How long a condition holds before it is an alert (Prometheus' `for:`), by kind; a
    // kind not named alerts at once. The routing file sets them (alertrouting.h, with its
    // defaults).
    std::map<AlertKind, int64_t> pendingMs;
};

// What the autoscaler knows of one inference service, for the alerts people act on.
struct ServiceObservation {
    std::string service;
    std::optional<double> ttftP95Seconds;
    double objectiveSeconds = 0;
    std::string planWaiting;  // a plan waiting for approval, in words; empty: none
    // What the objective is on where the replicas report it (objectiveLatency).
    std::optional<double> queueDelayP95Seconds;
};

// What a watcher knows of the scaling controller (meridian-scaled), read from its /metrics.
struct ControllerObservation {
    std::string name = "meridian-scaled";
    bool answered = false;   // its /metrics answered with its figures
    int64_t lastPassMs = 0;  // when its last pass ran, as it says; 0: not said
    std::string problem;     // why it did not answer, in words
};

class AlertEngine {
public:
    explicit AlertEngine(AlertRules rules = {});

    // Folds in one snapshot and the events that arrived since the last call.
    void evaluate(const FleetSnapshot &snapshot, const std::vector<FleetEvent> &events);

    // Newest activity first; firing ones (and those resolved after firing) only.
    std::vector<Alert> alerts() const;
    const Alert *find(const std::string &key) const;
    // Conditions that hold but have not yet for their kind's pending duration.
    int pendingCount() const;
    std::set<std::string> pendingKeys() const;
    // Whether the last snapshot judged every agent (each reporting, or unreachable) a
    // moment ago already, or the start's grace is over: an alert it does not hold, firing
    // or pending, is then over, even one a judge before a restart sent.
    bool fleetJudged() const { return m_fleetJudged; }
    void setPendingDurations(std::map<AlertKind, int64_t> pendingMs);
    // While the judge itself is behind (selflag.h), agents' silence proves nothing: agent
    // and data-center judgments are neither made nor cleared, and those still pending are
    // dropped, so each must hold for its whole pending duration once caught up.
    void setHoldingStaleness(bool holding) { m_holdingStaleness = holding; }
    bool holdingStaleness() const { return m_holdingStaleness; }
    int openCount(const std::string &dataCenter, int64_t nowMs) const;

    // Service alerts: TTFT over the objective for a while, a plan waiting for approval.
    void observeServices(const std::vector<ServiceObservation> &services, int64_t nowMs);
    // Silent: it did not answer, or its passes stopped a minute ago (a controller that
    // answers but no longer runs scales nothing either).
    void observeController(const ControllerObservation &controller, int64_t nowMs);

    bool acknowledge(const std::string &key, const std::string &who, int64_t nowMs);
    // An acknowledgement read from the shared history file (made here or by another
    // console); ignored when it predates the alert's current occurrence.
    void applyAcknowledgement(const std::string &key, const std::string &who, int64_t atMs);
    // Silences this alert only, in this console.
    bool silence(const std::string &key, int64_t untilMs);
    // The silences every console on the history file shares; replaces the previous set.
    void setSharedSilences(std::vector<SilenceRule> rules);
    bool setNote(const std::string &key, const std::string &note);

private:
    Alert &raise(const std::string &key, AlertKind kind, AlertSeverity severity, int64_t nowMs);
    void applyEvent(const FleetSnapshot &snapshot, const FleetEvent &event);
    void evaluateAgents(const FleetSnapshot &snapshot);
    struct AgentTally {
        int agents = 0;
        int down = 0;  // unreachable or silent
    };
    // A data center with too many agents down is one incident (DataCenterDark).
    void judgeDataCenters(const std::map<std::string, AgentTally> &perDc, int64_t now);
    void dropPendingAgentJudgments();
    bool isIncident(int agents, int down) const;
    void evaluateIdleCards(const FleetSnapshot &snapshot);
    void judgeWhetherEveryAgentIsKnown(const FleetSnapshot &snapshot);
    void clearCondition(const std::string &key, int64_t nowMs);
    int64_t pendingFor(AlertKind kind) const;
    // Conditions that have held for their pending duration fire.
    void promotePending(int64_t nowMs);
    void forgetSettled(int64_t nowMs);
    void applySilences();

    AlertRules m_rules;
    std::map<std::string, Alert> m_alerts;
    std::vector<int64_t> m_idleSinceMs;                   // by CardHandle; 0 = not idle
    std::map<std::string, int64_t> m_incidentEndedMs;     // by data center, while recovering
    std::map<std::string, int64_t> m_serviceOverSinceMs;  // by service, while over
    std::vector<SilenceRule> m_localSilences;
    std::vector<SilenceRule> m_sharedSilences;
    int64_t m_firstEvaluationMs = 0;
    int64_t m_everyAgentHeardSinceMs = 0;  // 0: not every agent has been heard yet
    bool m_fleetJudged = false;
    bool m_holdingStaleness = false;
    // Events of agents not yet identified (their inventory has not arrived), oldest first;
    // past the bound a hostile agent's flood is dropped, its events still in the history.
    static constexpr size_t kMostWaitingEvents = 10'000;
    std::vector<FleetEvent> m_waitingForIdentity;
};

}  // namespace meridian
