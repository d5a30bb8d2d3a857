#include "capacityplanner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace meridian {

namespace {

constexpr double kHoursAMonth = 730;

bool keepsObjective(const MixOutcome &o, const PlanOptions &options)
{
    return o.withinObjectiveShare >= options.objectiveShare;
}

bool worthOwning(const Mix &mix, const MixOutcome &o, const PlanOptions &options)
{
    return mix.ownedReplicas == 0 || o.ownedUtilization >= options.leastOwnedUtilization;
}

// Each replica count's busy replica-minutes if that many were owned: Σ min(demand, owned).
std::vector<double> ownedBusyByCount(const std::vector<double> &here, int most)
{
    std::vector<double> busy(static_cast<size_t>(most) + 1, 0);
    for (double v : here) {
        for (int owned = 1; owned <= most; ++owned)
            busy[static_cast<size_t>(owned)] += std::min(v, static_cast<double>(owned));
    }
    return busy;
}

int peakReplicas(const std::vector<double> &need, const CardCost &card)
{
    const double peak = need.empty() ? 0 : *std::max_element(need.begin(), need.end());
    return static_cast<int>(std::ceil(peak / card.rate - 1e-9));
}

// Cheaper first; of two as cheap, the one keeping more inside.
bool better(const PlanCandidate &a, const PlanCandidate &b)
{
    if (a.outcome.costCny != b.outcome.costCny)
        return a.outcome.costCny < b.outcome.costCny;
    return a.outcome.withinObjectiveShare > b.outcome.withinObjectiveShare;
}

void consider(MixSearch &search, std::vector<PlanCandidate> &all, PlanCandidate candidate,
              const PlanOptions &options)
{
    ++search.judged;
    const MixOutcome &o = candidate.outcome;
    if (keepsObjective(o, options) && worthOwning(candidate.mix, o, options)) {
        if (!search.recommended || better(candidate, *search.recommended))
            search.recommended = candidate;
        std::optional<PlanCandidate> &ofCard = search.bestByCard.at(candidate.mix.card);
        if (!ofCard || better(candidate, *ofCard))
            ofCard = candidate;
    }
    if (!search.bestKept ||
        o.withinObjectiveShare > search.bestKept->outcome.withinObjectiveShare + 1e-12 ||
        (std::abs(o.withinObjectiveShare - search.bestKept->outcome.withinObjectiveShare) <=
             1e-12 &&
         better(candidate, *search.bestKept)))
        search.bestKept = candidate;
    all.push_back(std::move(candidate));
}

std::vector<PlanCandidate> paretoFront(std::vector<PlanCandidate> all)
{
    std::sort(all.begin(), all.end(), better);
    std::vector<PlanCandidate> front;
    for (PlanCandidate &c : all) {
        if (front.empty() ||
            c.outcome.withinObjectiveShare > front.back().outcome.withinObjectiveShare + 1e-9)
            front.push_back(std::move(c));
    }
    return front;
}

// The cheapest of `mixes` keeping the objective on `need`; the one keeping most where none
// does.
PlanCandidate cheapestKeeping(const std::vector<double> &need, const std::vector<CardCost> &cards,
                              const std::vector<Mix> &mixes, const PlanOptions &options)
{
    std::optional<PlanCandidate> cheapest, closest;
    for (const Mix &mix : mixes) {
        PlanCandidate c{mix, judgeMix(need, cards[mix.card], mix, options.model)};
        if (keepsObjective(c.outcome, options) && (!cheapest || better(c, *cheapest)))
            cheapest = c;
        if (!closest || c.outcome.withinObjectiveShare > closest->outcome.withinObjectiveShare)
            closest = c;
    }
    return cheapest ? *cheapest : *closest;
}

double percentileOf(std::vector<double> values, double percentile)
{
    if (values.empty())
        return 0;
    const auto at =
        static_cast<size_t>(std::clamp(percentile / 100 * static_cast<double>(values.size() - 1),
                                       0.0, static_cast<double>(values.size() - 1)));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(at), values.end());
    return values[at];
}

}  // namespace

MixSearch searchMixes(const std::vector<double> &need, const std::vector<CardCost> &cards,
                      const PlanOptions &options)
{
    MixSearch search;
    search.bestByCard.resize(cards.size());
    std::vector<PlanCandidate> all;
    const double hours = static_cast<double>(need.size()) / 60;
    const double cardsPerReplica = options.model.cardsPerReplica;
    for (size_t c = 0; c < cards.size(); ++c) {
        const CardCost &card = cards[c];
        const int most = peakReplicas(need, card);
        std::vector<double> here(need.size());
        std::transform(need.begin(), need.end(), here.begin(),
                       [&](double v) { return v / card.rate; });
        const std::vector<double> busy = ownedBusyByCount(here, most);
        for (int base = 0; base <= most; ++base) {
            for (double headroom : options.headrooms) {
                // What is rented and what is kept inside depend on the base alone, not on
                // how it splits between owned and contracted: judged once per base.
                const MixOutcome shared =
                    judgeMix(need, card, {c, 0, base, headroom}, options.model);
                for (int owned = 0; owned <= base; ++owned) {
                    PlanCandidate candidate{{c, owned, base - owned, headroom}, shared};
                    MixOutcome &o = candidate.outcome;
                    o.ownedCardHours = owned * cardsPerReplica * hours;
                    o.contractCardHours = (base - owned) * cardsPerReplica * hours;
                    o.costCny = o.ownedCardHours * card.ownedCnyPerHour() +
                                o.contractCardHours * card.contractCnyPerHour() +
                                o.rentedCardHours * card.cloudCnyPerHour;
                    o.ownedUtilization = owned > 0 ? busy[static_cast<size_t>(owned)] /
                                                         (owned * static_cast<double>(need.size()))
                                                   : 0;
                    consider(search, all, std::move(candidate), options);
                }
            }
        }
    }
    search.front = paretoFront(std::move(all));
    return search;
}

double monthsIn(size_t minutes)
{
    return static_cast<double>(minutes) / 60 / kHoursAMonth;
}

double monthlyCost(const MixOutcome &outcome, size_t minutes)
{
    return minutes > 0 ? outcome.costCny / monthsIn(minutes) : 0;
}

std::optional<double> paybackMonths(const CardCost &card)
{
    // A bought card saves its contract price each hour and costs its running cost.
    const double runningPerHour = card.purchaseCny * card.runningShareAYear / (365 * 24);
    const double savedPerMonth = (card.contractCnyPerHour() - runningPerHour) * kHoursAMonth;
    if (savedPerMonth <= 0)
        return std::nullopt;
    return card.purchaseCny / savedPerMonth;
}

std::vector<std::pair<std::string, PlanCandidate>> simpleRules(const std::vector<double> &need,
                                                               const std::vector<CardCost> &cards,
                                                               const PlanOptions &options)
{
    std::vector<Mix> hourly, ownPeak, reserve;
    for (size_t c = 0; c < cards.size(); ++c) {
        std::vector<double> here(need.size());
        std::transform(need.begin(), need.end(), here.begin(),
                       [&](double v) { return v / cards[c].rate; });
        const int reserved =
            static_cast<int>(std::ceil(percentileOf(here, options.reservePercentile) - 1e-9));
        for (double headroom : options.headrooms) {
            hourly.push_back({c, 0, 0, headroom});
            ownPeak.push_back({c, peakReplicas(need, cards[c]), 0, headroom});
            reserve.push_back({c, 0, reserved, headroom});
        }
    }
    return {{"all hourly", cheapestKeeping(need, cards, hourly, options)},
            {"own the peak", cheapestKeeping(need, cards, ownPeak, options)},
            {fmt::format("contract p{:.0f}", options.reservePercentile),
             cheapestKeeping(need, cards, reserve, options)}};
}

CapacityPlan planCapacity(const std::vector<double> &need, const std::string &service,
                          const std::vector<CardCost> &cards, const PlanOptions &options)
{
    CapacityPlan plan;
    plan.service = service;
    plan.minutesSeen = need.size();
    plan.cards = cards;
    plan.options = options;
    plan.forecast = forecastNextWeek(need);
    if (plan.forecast.week.empty())
        return plan;
    plan.search = searchMixes(plan.forecast.week, cards, options);
    const std::vector<double> lastWeek(need.end() - static_cast<long>(kMinutesAWeek), need.end());
    for (auto &[name, rule] : simpleRules(lastWeek, cards, options))
        plan.rules.emplace_back(
            name, PlanCandidate{rule.mix, judgeMix(plan.forecast.week, cards[rule.mix.card],
                                                   rule.mix, options.model)});
    return plan;
}

Backtest backtestPlan(const std::vector<double> &need, size_t planWeeks,
                      const std::vector<CardCost> &cards, const PlanOptions &options)
{
    Backtest out;
    if (planWeeks == 0 || need.size() < (planWeeks + 1) * kMinutesAWeek)
        return out;
    const std::vector<double> history(need.begin(),
                                      need.begin() + static_cast<long>(planWeeks * kMinutesAWeek));
    const std::vector<double> after(
        need.begin() + static_cast<long>(planWeeks * kMinutesAWeek),
        need.begin() + static_cast<long>((planWeeks + 1) * kMinutesAWeek));
    out.forecast = forecastNextWeek(history);
    out.unsure = out.forecast.unsure;
    out.judgedWeekMiss = hourlyMiss(out.forecast.week, after);
    if (out.judgedWeekMiss > kMissWorthSaying)
        out.unsure.push_back(
            fmt::format("the week after ran {:.0f}% an hour from the forecast: plan again on it",
                        out.judgedWeekMiss * 100));
    const auto judged = [&](const Mix &mix) {
        return judgeMix(after, cards[mix.card], mix, options.model);
    };
    const MixSearch planned = searchMixes(out.forecast.week, cards, options);
    const PlanCandidate &plan = planned.recommended ? *planned.recommended : *planned.bestKept;
    out.rows.push_back({"plan", plan.mix, judged(plan.mix)});
    const MixSearch hindsight = searchMixes(after, cards, options);
    const PlanCandidate &best =
        hindsight.recommended ? *hindsight.recommended : *hindsight.bestKept;
    out.rows.push_back({"hindsight", best.mix, best.outcome});
    // The rules as a manager applies them: to the last week seen.
    const std::vector<double> lastWeek(history.end() - static_cast<long>(kMinutesAWeek),
                                       history.end());
    for (const auto &[name, rule] : simpleRules(lastWeek, cards, options))
        out.rows.push_back({name, rule.mix, judged(rule.mix)});
    return out;
}

}  // namespace meridian
