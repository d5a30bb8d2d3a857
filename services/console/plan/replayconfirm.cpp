#include "replayconfirm.h"

#include <algorithm>

#include "replay/evaluation.h"
#include "replay/tracefile.h"

namespace meridian {

Result<ReplayConfirmation> confirmByReplay(const std::string &traceFile, double peakCards,
                                           const std::vector<double> &need,
                                           const CapacityPlan &plan, const PlanCandidate &pick)
{
    constexpr double kWeekS = 7 * 86400;
    auto trace = TraceFileSource::open(traceFile, kWeekS);
    if (!trace)
        return trace.error();
    const CardCost &card = plan.cards.at(pick.mix.card);
    const int cardsPerReplica = plan.options.model.cardsPerReplica;
    ReplayConfirmation out;
    // The replay counts in A100 replicas: the picked model's base at its rate.
    out.localA100Cards =
        (pick.mix.ownedReplicas + pick.mix.contractReplicas) * card.rate * cardsPerReplica;
    EvaluationOptions options;
    options.peakCards = peakCards;
    options.localCards = out.localA100Cards;
    options.cardsPerReplica = cardsPerReplica;
    options.yardsticks = Yardsticks::none();
    // The mix's headroom is the controller's target occupancy, as the fast model rents.
    options.policy.targetOccupancy =
        std::clamp(plan.options.model.rentAtOccupancy / pick.mix.headroom, 0.3, 1.0);
    auto run =
        replayPolicies(*trace.value(), trace.value()->name(), options, {options.policy}, {"plan"});
    if (!run)
        return run.error();
    const EvaluationResult &replayed = run->results.front();
    out.requests = replayed.requests;
    out.replayedInside = replayed.withinSloShare;
    out.replayedRentedCardHours = replayed.rentedCardHours / card.rate;
    const MixOutcome model =
        judgeMix(minutesOf(need, 0, kMinutesAWeek), card, pick.mix, plan.options.model);
    out.modelInside = model.withinObjectiveShare;
    out.modelRentedCardHours = model.rentedCardHours;
    return out;
}

}  // namespace meridian
