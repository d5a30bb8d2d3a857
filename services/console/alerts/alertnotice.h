// One alert as it leaves the console: everything a receiver shows, already in the words
// (and language) of the console, plus the stable names receivers route on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "alert.h"

namespace meridian {

struct AlertNotice {
    std::string key;  // the alert's identity: receivers deduplicate on it
    AlertKind kind = AlertKind::Xid;
    AlertSeverity severity = AlertSeverity::Warning;
    bool resolved = false;
    std::string title;    // "GPU fell off the bus (Xid 79)"
    std::string subject;  // "xm-r01-n2 card 3"
    std::string dataCenter;
    std::string node;
    std::string netdev;
    std::string service;
    std::optional<uint32_t> card;
    std::optional<uint32_t> xid;
    std::string meaning;
    std::string nextStep;
    std::string message;  // the latest detail
    int64_t startsAtMs = 0;
    int64_t endsAtMs = 0;  // resolved: when; firing: 0
    std::string console;   // who saw it: the watcher's name, or the console's host
    // What people have done about it: shown beside a firing alert, never a reason to call
    // it resolved.
    std::string acknowledgedBy;
    std::string note;
    // A resolve owed since a restart, told in the words the history file kept, without
    // every label the alert had: not sent to Alertmanager, where fewer labels would be
    // another alert, and which ends the alert itself once its re-sends stop.
    bool notForAlertmanager = false;
};

}  // namespace meridian
