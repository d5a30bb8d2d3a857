#include "triageread.h"

#include "alerts/alertmanagersilences.h"

namespace meridian {

TriageRead readTriage(AlertTriageLog *log, AlertmanagerSilences *alertmanager, uint64_t sequence,
                      int64_t afterId, int64_t nowMs)
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
    return read;
}

}  // namespace meridian
