// Silences kept in an Alertmanager, so every console and the on-call engineer's phone
// (Alertmanager's own page, amtool) agree on what is silenced: made, read and lifted
// through its v2 API. A silence Meridian makes matches source="meridian" and the rule's
// alert key, kind (alertname), node or data center (dc); one made elsewhere is applied
// when its matchers are all plain equalities on those labels, and left to Alertmanager
// otherwise. Calls block (up to the route's timeout): run them off the UI thread.
#pragma once

#include <string>
#include <vector>

#include "alert.h"
#include "alertrouting.h"
#include "core/callwatch.h"
#include "core/result.h"

namespace meridian {

class AlertmanagerSilences {
public:
    explicit AlertmanagerSilences(AlertRoute route, int timeoutMs = 5000);

    const AlertRoute &route() const { return m_route; }
    // Alertmanager's id for the new silence (the rule's `by` and `reason` go with it).
    Result<std::string> create(const SilenceRule &rule, int64_t nowMs);
    Status expire(const std::string &alertmanagerId);
    // The silences in force that Meridian can apply, each with its Alertmanager id.
    Result<std::vector<SilenceRule>> active();
    // Calls under way end now (the console is closing).
    void abortCalls() { m_calls.abortAll(); }

private:
    std::string base() const;

    AlertRoute m_route;
    int m_timeoutMs;
    CallWatch m_calls;
};

}  // namespace meridian
