// The pick held to the request-level replay: the plan's fast model judges thousands of
// mixes on minutes; here the one picked is replayed request by request (the serving
// simulator and the controller's own policy, as `meridian-sim evaluate` runs it) over the
// first week of the trace, its base of owned and contracted cards given to the service as
// its own, and the replay's share of requests inside the objective set beside what the fast
// model says of the same week. Half a minute for a week at 64 cards.
#pragma once

#include <string>

#include "capacityplanner.h"

namespace meridian {

struct ReplayConfirmation {
    double replayedInside = 0;           // the replay's share of requests inside the objective
    double modelInside = 0;              // the fast model's, on the same week
    double replayedRentedCardHours = 0;  // in the picked model's cards
    double modelRentedCardHours = 0;
    double localA100Cards = 0;  // the base as the replay serves it
    int64_t requests = 0;
};

// `traceFile`: the ServeGen (or request) trace the plan was made from, scaled as the plan
// scaled it (`peakCards` A100 cards at its busiest minute); `need` its minutes as the plan
// read them. Fails where the file is not a trace (recorded demand has no requests).
Result<ReplayConfirmation> confirmByReplay(const std::string &traceFile, double peakCards,
                                           const std::vector<double> &need,
                                           const CapacityPlan &plan, const PlanCandidate &pick);

}  // namespace meridian
