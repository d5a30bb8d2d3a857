// An alert as the on-call engineer sees it: what, where, how bad, since when, how
// often, and what people have done about it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "fleet/fleetstate.h"

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
    PaidButIdle
};

enum class AlertSeverity { Warning, Critical };

const char *alertKindName(AlertKind kind);

struct Alert {
    std::string key;  // stable identity: kind and place; the unit of deduplication
    AlertKind kind = AlertKind::Xid;
    AlertSeverity severity = AlertSeverity::Warning;
    std::string dataCenter;
    std::optional<NodeHandle> node;
    std::optional<CardHandle> card;
    std::string netdev;
    std::string subject;  // "xm-r01-n1 card 3", "Wuhu"
    std::string message;  // the latest detail
    int64_t firstSeenMs = 0;
    int64_t lastSeenMs = 0;
    uint64_t count = 0;  // occurrences (events) or affected agents (incidents)
    bool active = true;  // the condition holds; an event alert stays active until it ages out
    std::optional<int64_t> acknowledgedMs;
    std::string acknowledgedBy;
    int64_t silencedUntilMs = 0;
    std::string note;

    bool silenced(int64_t nowMs) const { return silencedUntilMs > nowMs; }
    // Open: needs someone's attention now.
    bool open(int64_t nowMs) const { return active && !acknowledgedMs && !silenced(nowMs); }
};

}  // namespace meridian
