// ScalingController's members on the kept demand: each pass's arrival rate recorded,
// every finished minute kept in the journal, and the kept days read back at the start,
// so a restart forecasts, and knows the service's usual load, at once. The forecast and
// the usual load themselves are asked for in askPolicy.
#include <algorithm>

#include "autoscaler/scalingjournal.h"
#include "scalingcontroller.h"
#include "servicestate.h"

namespace meridian {

void ScalingController::rememberDemand(ServiceState &state, double arrivalRps, int64_t nowMs,
                                       std::vector<std::string> &problems)
{
    const std::optional<DemandMinute> finished = state.profile.record(nowMs, arrivalRps);
    if (!finished)
        return;
    if (Status kept = m_journal.keepDemandMinute(state.service.name, *finished,
                                                 state.profile.keptFromIndex(nowMs));
        !kept)
        problems.push_back(kept.message());
}

void ScalingController::restoreDemand()
{
    const int64_t nowMs = m_clock.nowUnixMs();
    for (auto &state : m_services) {
        if (!readsDemandMinutes(state->policy))
            continue;  // neither a daily shape nor a surge cover for this service
        auto kept =
            m_journal.demandMinutes(state->service.name, state->profile.keptFromIndex(nowMs));
        if (!kept) {
            m_view.problem = "the daily shape starts again: its kept days could not be read: " +
                             kept.error().message;
            continue;
        }
        // A minute stamped after now (a clock set back since) would stop the learning.
        std::erase_if(kept.value(),
                      [&](const DemandMinute &m) { return m.index > nowMs / 60'000; });
        state->profile.restore(kept.value());
    }
}

}  // namespace meridian
