// What a watcher serves the consoles that follow it: the team's alerts (GET /alerts) and
// the triage they send (POST /triage), carried out on the watcher's loop in the name its
// caller's token gives (a console cannot act as someone else), or the name the request
// gives where the watcher listens on loopback without tokens.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "alerts/teamalerts.h"
#include "scrape/scrapeendpoint.h"

namespace meridian {

class AlertCenter;
class TriageAllowance;

// What a watcher's triage door holds across requests.
struct TriageGate {
    TriageAllowance &allowance;
    int64_t silenceMaxMs;
    std::string host;  // named for callers that no token names
};

// The center's list as a console reads it.
std::string teamAlertsOf(const AlertCenter &center, const std::string &watcherName, int64_t nowMs);

// Judges a POST /triage (alerts/triagegate.h) and hands a good one, with who asked, to
// `carryOut`; a refusal answers its status and why (429 with Retry-After).
ScrapeAnswer answerTriage(const ScrapeRequest &request, const TriageGate &gate,
                          const std::function<void(TriageRequest, std::string)> &carryOut);

// Does what was asked, in `who`'s name (the triage log and the audit say so).
void carryOutTriage(AlertCenter &center, const TriageRequest &request, const std::string &who);

}  // namespace meridian
