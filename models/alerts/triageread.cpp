#include "triageread.h"

#include <limits>

#include "alerts/alertmanagersilences.h"

namespace meridian {

namespace {

// What a watcher killed mid-incident may owe a resolve for looks back this far.
constexpr int64_t kOwedLookBackMs = 30LL * 24 * 3600'000;

std::map<std::string, AlertIncident> openIncidentsOf(AlertTriageLog &log,
                                                     const std::set<std::string> &delivered,
                                                     int64_t nowMs)
{
    std::map<std::string, AlertIncident> open;
    // The first read may come before the first snapshot says what time it is (0).
    const int64_t from = nowMs > kOwedLookBackMs ? nowMs - kOwedLookBackMs : 0;
    auto incidents = log.incidents(from, std::numeric_limits<int64_t>::max());
    if (!incidents)
        return open;  // the resolve is then told in fewer words, not withheld
    for (AlertIncident &incident : incidents.value()) {
        if (!incident.resolvedMs && delivered.count(incident.alertKey))
            open[incident.alertKey] = std::move(incident);  // oldest first: the newest stays
    }
    return open;
}

}  // namespace

TriageRead readTriage(AlertTriageLog *log, AlertmanagerSilences *alertmanager, uint64_t sequence,
                      int64_t afterId, int64_t nowMs, bool withOpenIncidents)
{
    TriageRead read;
    read.sequence = sequence;
    if (alertmanager) {
        std::vector<std::string> skipped;
        if (auto silences = alertmanager->active(&skipped))
            read.alertmanagerSilences = std::move(silences).value();
        else
            read.alertmanagerProblem = silences.error().message;
        for (const std::string &why : skipped)
            read.alertmanagerProblem += (read.alertmanagerProblem.empty() ? "" : "; ") + why;
    }
    if (!log)
        return read;
    auto actions = log->actionsAfter(afterId);
    auto silences = log->activeSilences(nowMs);
    if (actions)
        read.actions = std::move(actions).value();
    else
        read.problem = actions.error().message;
    if (silences)
        read.silences = std::move(silences).value();
    else
        read.problem = silences.error().message;
    if (auto delivered = log->firingDelivered())
        read.delivered = std::move(delivered).value();
    else
        read.problem = delivered.error().message;
    if (withOpenIncidents && read.problem.empty())
        read.openIncidents = openIncidentsOf(*log, read.delivered, nowMs);
    return read;
}

}  // namespace meridian
