#include "mixjudge.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace meridian {

namespace {

struct Rented {
    size_t orderedAt;  // minute
};

// The rented replicas' minutes paid: per started hour from the order.
double paidMinutes(size_t orderedAt, size_t releasedAt)
{
    const size_t held = std::max<size_t>(1, releasedAt - orderedAt);
    return static_cast<double>((held + 59) / 60 * 60);
}

}  // namespace

MixOutcome judgeMix(const std::vector<double> &need, const CardCost &card, const Mix &mix,
                    const PlanModel &model)
{
    MixOutcome out;
    const int base = mix.ownedReplicas + mix.contractReplicas;
    const auto lag = static_cast<size_t>(std::max(0, model.rentLagMinutes));
    std::deque<Rented> rented;  // oldest order first
    double requests = 0, missed = 0, ownedBusy = 0, rentedMinutes = 0;
    for (size_t t = 0; t < need.size(); ++t) {
        const double here = need[t] / card.rate;  // in this model's replicas
        // Serving now: the base and the rented replicas past their lag.
        // Ordered oldest first, so those past their lag lead the queue.
        const auto ready = static_cast<int>(
            std::partition_point(rented.begin(), rented.end(),
                                 [&](const Rented &r) { return r.orderedAt + lag <= t; }) -
            rented.begin());
        const double serving = base + ready;
        requests += here;
        if (here > serving)
            missed += here - serving;
        if (mix.ownedReplicas > 0)
            ownedBusy += std::min(here, static_cast<double>(mix.ownedReplicas));
        // The decision of this minute, on the demand it sees.
        const int wanted = std::max(
            0,
            static_cast<int>(std::ceil(here * mix.headroom / model.rentAtOccupancy - 1e-9)) - base);
        for (int more = wanted - static_cast<int>(rented.size()); more > 0; --more)
            rented.push_back({t});
        // Surplus goes at the end of an hour paid for, never before.
        int surplus = static_cast<int>(rented.size()) - wanted;
        for (auto it = rented.begin(); surplus > 0 && it != rented.end();) {
            if (t > it->orderedAt && (t - it->orderedAt) % 60 == 0) {
                rentedMinutes += paidMinutes(it->orderedAt, t);
                it = rented.erase(it);
                --surplus;
            } else {
                ++it;
            }
        }
    }
    for (const Rented &r : rented)
        rentedMinutes += paidMinutes(r.orderedAt, need.size());
    const double hours = static_cast<double>(need.size()) / 60;
    const double cards = model.cardsPerReplica;
    out.ownedCardHours = mix.ownedReplicas * cards * hours;
    out.contractCardHours = mix.contractReplicas * cards * hours;
    out.rentedCardHours = rentedMinutes / 60 * cards;
    out.costCny = out.ownedCardHours * card.ownedCnyPerHour() +
                  out.contractCardHours * card.contractCnyPerHour() +
                  out.rentedCardHours * card.cloudCnyPerHour;
    out.withinObjectiveShare = requests > 0 ? 1 - missed / requests : 1;
    out.ownedUtilization = mix.ownedReplicas > 0
                               ? ownedBusy / (mix.ownedReplicas * static_cast<double>(need.size()))
                               : 0;
    return out;
}

}  // namespace meridian
