// One read of the triage the consoles share: what the history file holds after the
// actions already seen (acknowledgements, notes, silences, deliveries) and the silences an
// Alertmanager holds. Run off the UI thread; each part that cannot be read says why.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "alerts/alert.h"
#include "alerts/alertincident.h"
#include "alerts/alerttriagelog.h"

namespace meridian {

class AlertmanagerSilences;

struct TriageRead {
    uint64_t sequence = 0;  // reads apply in the order they were asked for
    std::vector<TriageAction> actions;
    std::vector<SilenceRule> silences;
    std::set<std::string> delivered;
    // On the first read: the occurrences of `delivered` the file holds, by key, so that one
    // over by now can be told resolved in its own words.
    std::optional<std::map<std::string, AlertIncident>> openIncidents;
    std::string problem;
    std::optional<std::vector<SilenceRule>> alertmanagerSilences;  // none: not read
    std::string alertmanagerProblem;
};

// Either source may be null (not set). `afterId`: the newest action already applied;
// `withOpenIncidents`: read them too (once a start, until a read has brought them).
TriageRead readTriage(AlertTriageLog *log, AlertmanagerSilences *alertmanager, uint64_t sequence,
                      int64_t afterId, int64_t nowMs, bool withOpenIncidents = false);

}  // namespace meridian
