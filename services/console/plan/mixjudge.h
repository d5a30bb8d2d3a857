// How one mix of owned, contracted and rented cards would have served a service's demand,
// minute by minute: the fast model the plan searches with (thousands of mixes a second on a
// week of minutes), where the replay bench needs half a minute for one. Demand is in
// A100 replicas at their sustained rate inside the objective; a replica of another model
// serves its rate's share of that. Owned and contracted replicas serve all the time;
// rented ones are ordered when the demand seen passes the base (times the mix's
// headroom, at the controller's target occupancy), serve a lag later (provisioning and
// cold start), are paid per started hour
// and let go only at the end of an hour paid for. A minute whose demand passes the
// replicas serving misses the objective for its excess share of requests.
#pragma once

#include <vector>

#include "cardcosts.h"

namespace meridian {

struct Mix {
    size_t card = 0;  // index into the card costs
    int ownedReplicas = 0;
    int contractReplicas = 0;
    double headroom = 1.1;  // rented capacity is ordered for the demand seen × this
};

struct PlanModel {
    int cardsPerReplica = 4;
    int rentLagMinutes = 4;  // from an order to the rented replica serving
    // Rented replicas are ordered as the controller orders them: for the demand at this
    // share of what a replica sustains (its policy's target occupancy).
    double rentAtOccupancy = 0.8;
};

struct MixOutcome {
    double costCny = 0;               // over the minutes judged
    double withinObjectiveShare = 1;  // of requests
    double ownedUtilization = 0;      // of owned replicas' minutes; 0 with none owned
    double ownedCardHours = 0;
    double contractCardHours = 0;
    double rentedCardHours = 0;  // paid, per started hour
};

MixOutcome judgeMix(const std::vector<double> &need, const CardCost &card, const Mix &mix,
                    const PlanModel &model);

}  // namespace meridian
