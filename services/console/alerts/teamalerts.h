// The team's alerts as a watcher serves them to consoles (GET /alerts), and what a
// console asks of them (POST /triage): acknowledge, note, silence, lift a silence. A
// console that follows a watcher shows this list instead of evaluating the rules itself,
// and acts through the watcher, so that one process pages and everyone sees and answers
// the same alerts. JSON, read as coming from a stranger: nesting, size, types and text
// are checked, and a wrong answer is refused with what is wrong, never half taken.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "alert.h"
#include "core/result.h"

namespace meridian {

// A list of thousands of alerts is a few MiB; past this it is not a watcher's.
constexpr size_t kMaxTeamAlertsBytes = 16 * 1024 * 1024;
// A triage request is one short action (a note is at most kMaxNoteBytes).
constexpr size_t kMaxTriageRequestBytes = 4096;
constexpr size_t kMaxNoteBytes = 2000;

struct TeamAlerts {
    std::string watcher;  // its name, as in its triage log
    int64_t nowMs = 0;    // its clock when it made the list
    std::string behind;   // "" when not behind; else why its staleness judgments are held
    std::vector<Alert> alerts;
    std::vector<SilenceRule> silences;  // in force
};

std::string teamAlertsJson(const TeamAlerts &team);
// Node and card handles are the watcher's own and are not sent: the console finds its own.
Result<TeamAlerts> parseTeamAlerts(std::string_view json);

struct TriageRequest {
    enum class Action { Acknowledge, Note, Silence, Lift };
    Action action = Action::Acknowledge;
    std::string key;      // Acknowledge, Note
    std::string note;     // Note
    SilenceRule silence;  // Silence (its `by` is the caller, set by the watcher); Lift: id
    std::string who;      // who asks, where the watcher has no tokens to say it
};

std::string triageRequestJson(const TriageRequest &request);
Result<TriageRequest> parseTriageRequest(std::string_view json);

}  // namespace meridian
