// An alert as the on-call engineer sees it: what, where, how bad, since when, how
// often, and what people have done about it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleet/fleetstate.h"
#include "labelmatcher.h"

namespace meridian {

enum class AlertKind {
    DataCenterDark,  // most agents of a data center unreachable or stale: one incident
    AgentUnreachable,
    AgentStale,
    Xid,
    EccDoubleBit,
    ThermalThrottle,
    LinkDown,
    LinkFlap,
    PfcStorm,
    PaidButIdle,
    ServiceOverObjective,  // customers wait: its queueing delay (or TTFT) over the objective
    PlanAwaitingApproval,  // a scaling plan someone has to approve or reject
    ControllerSilent       // meridian-scaled does not answer, or has stopped its passes
};
constexpr AlertKind kLastAlertKind = AlertKind::ControllerSilent;  // keep it the last

enum class AlertSeverity { Warning, Critical };

// Stable names: alert labels, silences in the history file, webhooks.
const char *alertKindName(AlertKind kind);
std::optional<AlertKind> alertKindFromName(std::string_view name);
// Alertmanager's convention, one style for every kind: "MeridianEccDoubleBit",
// "MeridianLinkFlapping", "MeridianXid".
std::string alertmanagerAlertName(AlertKind kind);
// A kind by either name ("link down" or "MeridianLinkDown").
std::optional<AlertKind> alertKindFromAnyName(std::string_view name);
// Six hex digits that name an alert where its key is too long to type (meridian-watch
// list, status): the same key gives the same id on every watcher and console.
std::string alertShortId(std::string_view key);

struct Alert {
    std::string key;  // stable identity: kind and place; the unit of deduplication
    AlertKind kind = AlertKind::Xid;
    AlertSeverity severity = AlertSeverity::Warning;
    std::string dataCenter;
    std::optional<NodeHandle> node;
    std::optional<CardHandle> card;
    std::string netdev;
    std::string nodeName;  // the node's id (or address), for silences and routing labels
    std::string service;   // inference service, for the scaling kinds
    std::optional<uint32_t> cardIndex;  // the card's index on its node, for card alerts
    std::optional<uint32_t> xid;        // the latest Xid code, for Xid alerts
    std::string subject;                // "xm-r01-n1 card 3", "Wuhu"
    std::string message;                // the latest detail
    int64_t firstSeenMs = 0;
    int64_t activeSinceMs = 0;  // when this occurrence began (it may have cleared before)
    int64_t lastSeenMs = 0;
    uint64_t count = 0;  // occurrences (events) or affected agents (incidents)
    bool active = true;  // the condition holds; an event alert stays active until it ages out
    // Past its kind's pending duration (AlertRules::pendingMs): only a firing alert is
    // shown and sent; one whose condition clears while pending was never an alert.
    bool firing = true;
    std::optional<int64_t> acknowledgedMs;
    std::string acknowledgedBy;
    int64_t silencedUntilMs = 0;
    std::string note;

    std::string silencedBy;
    std::string silenceReason;

    bool silenced(int64_t nowMs) const { return silencedUntilMs > nowMs; }
    // Open: needs someone's attention now.
    bool open(int64_t nowMs) const { return active && !acknowledgedMs && !silenced(nowMs); }
};

// Quiets every alert it matches until a time: one alert (by key), or a kind, a node or a
// data center, or any mix of them (an empty field matches anything). Shared through the
// history file, so every console on it honours it; or kept in an Alertmanager, with any
// matchers Alertmanager takes.
struct SilenceRule {
    int64_t id = 0;
    std::string alertKey;
    std::optional<AlertKind> kind;
    std::string node;
    std::string dataCenter;
    int64_t untilMs = 0;
    std::string by;
    std::string reason;
    std::string alertmanagerId;  // kept in an Alertmanager, under this id; empty: the file
    // A silence read from an Alertmanager: its matchers, applied to the alert's labels as
    // Alertmanager applies them (the fields above then only name it, where they can).
    std::vector<LabelMatcher> matchers;

    bool matches(const Alert &alert) const;
    // The same, with the alert's labels already made (alertLabels): a pass over many
    // alerts and silences makes each alert's labels once, not once per silence.
    bool matches(const Alert &alert, const AlertLabels &labels) const;
    // Its matchers as amtool writes them: alertname="MeridianXid", node!="".
    std::string matchersText() const;
};

}  // namespace meridian
