// Silences kept in an Alertmanager, so every console and the on-call engineer's phone
// (Alertmanager's own page, amtool) agree on what is silenced: made, read and lifted
// through its v2 API. A silence Meridian makes matches source="meridian" and the rule's
// alert key, kind (alertname), node or data center (dc); any silence, whoever made it, is
// applied with all its matchers as Alertmanager applies them (labelmatcher.h) to the
// labels Meridian sends. Alertmanager keeps expired silences for days and lists them too:
// the answer may run to megabytes, and is read whole within kMaxSilencesAnswerBytes.
// Calls block (up to the route's timeout): run them off the UI thread.
#pragma once

#include <string>
#include <vector>

#include "alert.h"
#include "alertrouting.h"
#include "core/callwatch.h"
#include "core/result.h"

namespace meridian {

// Five days of expired silences (Alertmanager's default retention) at a few hundred
// bytes each fit many times over; past this an answer is not a list of silences.
constexpr size_t kMaxSilencesAnswerBytes = 8 * 1024 * 1024;
// Alertmanager's silences nest four deep; a tree deeper than this is hostile.
constexpr size_t kMaxSilencesNesting = 32;

class AlertmanagerSilences {
public:
    explicit AlertmanagerSilences(AlertRoute route, int timeoutMs = 5000);

    const AlertRoute &route() const { return m_route; }
    // Alertmanager's id for the new silence (the rule's `by` and `reason` go with it).
    Result<std::string> create(const SilenceRule &rule, int64_t nowMs);
    Status expire(const std::string &alertmanagerId);
    // The silences in force, each with its Alertmanager id. One whose matcher does not
    // compile is left out and said in `problems` (where given).
    Result<std::vector<SilenceRule>> active(std::vector<std::string> *problems = nullptr);
    // Calls under way end now (the console is closing).
    void abortCalls() { m_calls.abortAll(); }

private:
    std::string base() const;
    // The active silences whose matchers meet Alertmanager's `filter` (one read; empty:
    // all of them).
    Result<std::vector<SilenceRule>> activeMatching(const std::string &filter,
                                                    std::vector<std::string> *problems);

    AlertRoute m_route;
    int m_timeoutMs;
    CallWatch m_calls;
};

}  // namespace meridian
