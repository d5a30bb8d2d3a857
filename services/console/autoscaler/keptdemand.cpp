#include "keptdemand.h"

#include <algorithm>

namespace meridian {

Status rememberDemand(ScalingServiceState &state, ScalingJournal &journal, double arrivalRps,
                      int64_t nowMs)
{
    const std::optional<DemandMinute> finished = state.profile.record(nowMs, arrivalRps);
    if (!finished)
        return {};
    return journal.keepDemandMinute(state.service.name, *finished,
                                    state.profile.keptFromIndex(nowMs));
}

std::string restoreDemand(ScalingServiceState &state, ScalingJournal &journal, int64_t nowMs)
{
    if (!readsDemandMinutes(state.policy))
        return {};  // neither a daily shape nor a surge cover for this service
    auto kept = journal.demandMinutes(state.service.name, state.profile.keptFromIndex(nowMs));
    if (!kept)
        return "the daily shape starts again: its kept days could not be read: " +
               kept.error().message;
    // A minute stamped after now (a clock set back since) would stop the learning.
    std::erase_if(kept.value(), [&](const DemandMinute &m) { return m.index > nowMs / 60'000; });
    state.profile.restore(kept.value());
    return {};
}

}  // namespace meridian
