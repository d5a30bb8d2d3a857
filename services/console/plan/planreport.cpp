#include "planreport.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace meridian {

namespace {

// One mix as every form of the plan says it.
struct MixLine {
    std::string model;
    int ownedCards = 0;
    int contractCards = 0;
    double targetOccupancy = 0.8;  // the controller's, renting as the mix's headroom asks
    double monthlyCny = 0;
    double inside = 1;
    double ownedBusy = 0;
    double rentedCardHoursAMonth = 0;
};

MixLine lineOf(const Mix &mix, const MixOutcome &o, const std::vector<CardCost> &cards,
               const PlanModel &model, size_t minutes)
{
    const double months = monthsIn(minutes);
    return {cards.at(mix.card).model,
            mix.ownedReplicas * model.cardsPerReplica,
            mix.contractReplicas * model.cardsPerReplica,
            std::min(1.0, model.rentAtOccupancy / mix.headroom),
            monthlyCost(o, minutes),
            o.withinObjectiveShare,
            o.ownedUtilization,
            months > 0 ? o.rentedCardHours / months : 0};
}

std::string mixText(const MixLine &l)
{
    return fmt::format(
        "{}: own {} cards, contract {}, rent above them at a target occupancy of "
        "{:.0f}%",
        l.model, l.ownedCards, l.contractCards, l.targetOccupancy * 100);
}

std::string figuresText(const MixLine &l)
{
    return fmt::format(
        "{:.0f} CNY a month; {:.2f}% of requests inside the objective{}; {:.0f} "
        "card-hours rented a month",
        l.monthlyCny, l.inside * 100,
        l.ownedCards > 0 ? fmt::format("; owned cards {:.0f}% busy", l.ownedBusy * 100)
                         : std::string(),
        l.rentedCardHoursAMonth);
}

const char *kCsvHeader =
    "row,model,owned_cards,contract_cards,target_occupancy,monthly_cny,inside_share,"
    "owned_busy_share,rented_card_hours_a_month\n";

std::string csvRow(const std::string &row, const MixLine &l)
{
    return fmt::format("{},{},{},{},{:.2f},{:.2f},{:.5f},{:.4f},{:.1f}\n", row, l.model,
                       l.ownedCards, l.contractCards, l.targetOccupancy, l.monthlyCny, l.inside,
                       l.ownedBusy, l.rentedCardHoursAMonth);
}

nlohmann::json jsonOf(const MixLine &l)
{
    return {{"model", l.model},
            {"owned_cards", l.ownedCards},
            {"contract_cards", l.contractCards},
            {"target_occupancy", l.targetOccupancy},
            {"monthly_cny", l.monthlyCny},
            {"inside_share", l.inside},
            {"owned_busy_share", l.ownedBusy},
            {"rented_card_hours_a_month", l.rentedCardHoursAMonth}};
}

const PlanCandidate *pickOf(const CapacityPlan &plan)
{
    return plan.search.recommended ? &*plan.search.recommended
           : plan.search.bestKept  ? &*plan.search.bestKept
                                   : nullptr;
}

std::string unsureText(const std::vector<std::string> &unsure)
{
    std::string out;
    for (const std::string &u : unsure)
        out += "  - " + u + "\n";
    return out;
}

}  // namespace

std::string planText(const CapacityPlan &plan, const ReplayConfirmation *confirmation)
{
    const PlanModel &model = plan.options.model;
    std::string out = fmt::format("Plan for {} from {} week(s) of demand ({} minutes)\n",
                                  plan.service, plan.forecast.weeksSeen, plan.minutesSeen);
    const PlanCandidate *pick = pickOf(plan);
    if (!pick)
        return out + unsureText(plan.forecast.unsure);
    const MixLine l = lineOf(pick->mix, pick->outcome, plan.cards, model, kMinutesAWeek);
    out += fmt::format("{}: {}\n  {}\n",
                       plan.search.recommended ? "Recommended"
                                               : "No mix keeps "
                                                 "the objective; "
                                                 "the closest",
                       mixText(l), figuresText(l));
    if (l.ownedCards > 0) {
        const auto payback = paybackMonths(plan.cards.at(pick->mix.card));
        out += payback ? fmt::format(
                             "  buying pays back in {:.0f} months against contracting "
                             "as many cards\n",
                             *payback)
                       : "  buying never pays back against contracting as many cards\n";
    }
    if (confirmation)
        out += fmt::format(
            "  replayed request by request over the first week ({} requests): "
            "{:.2f}% inside the objective (the fast model: {:.2f}%), {:.0f} "
            "card-hours rented (the fast model: {:.0f})\n",
            confirmation->requests, confirmation->replayedInside * 100,
            confirmation->modelInside * 100, confirmation->replayedRentedCardHours,
            confirmation->modelRentedCardHours);
    if (!plan.forecast.unsure.empty())
        out += "Unsure:\n" + unsureText(plan.forecast.unsure);
    out += "By card model, the cheapest mix of each:\n";
    for (size_t c = 0; c < plan.cards.size(); ++c) {
        const auto &best = plan.search.bestByCard.at(c);
        out +=
            best ? fmt::format(
                       "  {:>10.0f} CNY  {}\n", monthlyCost(best->outcome, kMinutesAWeek),
                       mixText(lineOf(best->mix, best->outcome, plan.cards, model, kMinutesAWeek)))
                 : fmt::format("  {}: no mix keeps the objective\n", plan.cards[c].model);
    }
    out += fmt::format(
        "The front: {} mixes, each cheaper only by keeping fewer inside "
        "(of {} weighed)\n",
        plan.search.front.size(), plan.search.judged);
    for (const PlanCandidate &c : plan.search.front) {
        const MixLine f = lineOf(c.mix, c.outcome, plan.cards, model, kMinutesAWeek);
        out += fmt::format("  {:>10.0f} CNY  {:7.3f}%  {}\n", f.monthlyCny, f.inside * 100,
                           mixText(f));
    }
    out += "The simple rules, on the same week:\n";
    for (const auto &[name, rule] : plan.rules) {
        const MixLine r = lineOf(rule.mix, rule.outcome, plan.cards, model, kMinutesAWeek);
        out += fmt::format("  {:<14} {}\n  {:<14} {}\n", name, mixText(r), "", figuresText(r));
    }
    return out;
}

std::string planCsv(const CapacityPlan &plan)
{
    const PlanModel &model = plan.options.model;
    std::string out = kCsvHeader;
    if (const PlanCandidate *pick = pickOf(plan))
        out += csvRow(plan.search.recommended ? "recommended" : "closest",
                      lineOf(pick->mix, pick->outcome, plan.cards, model, kMinutesAWeek));
    for (const PlanCandidate &c : plan.search.front)
        out += csvRow("front", lineOf(c.mix, c.outcome, plan.cards, model, kMinutesAWeek));
    for (const auto &[name, rule] : plan.rules)
        out += csvRow(name, lineOf(rule.mix, rule.outcome, plan.cards, model, kMinutesAWeek));
    return out;
}

std::string planJson(const CapacityPlan &plan, const ReplayConfirmation *confirmation)
{
    const PlanModel &model = plan.options.model;
    nlohmann::json out = {{"service", plan.service},
                          {"weeks_seen", plan.forecast.weeksSeen},
                          {"weekly_growth", plan.forecast.weeklyGrowth},
                          {"unsure", plan.forecast.unsure},
                          {"mixes_weighed", plan.search.judged}};
    if (plan.forecast.lastWeekMiss)
        out["last_week_miss"] = *plan.forecast.lastWeekMiss;
    if (const PlanCandidate *pick = pickOf(plan)) {
        out[plan.search.recommended ? "recommended" : "closest"] =
            jsonOf(lineOf(pick->mix, pick->outcome, plan.cards, model, kMinutesAWeek));
        if (const auto payback = paybackMonths(plan.cards.at(pick->mix.card));
            payback && pick->mix.ownedReplicas > 0)
            out["payback_months"] = *payback;
    }
    if (confirmation)
        out["replay_confirmation"] = {
            {"requests", confirmation->requests},
            {"replayed_inside_share", confirmation->replayedInside},
            {"model_inside_share", confirmation->modelInside},
            {"replayed_rented_card_hours", confirmation->replayedRentedCardHours},
            {"model_rented_card_hours", confirmation->modelRentedCardHours},
            {"local_a100_cards", confirmation->localA100Cards}};
    out["front"] = nlohmann::json::array();
    for (const PlanCandidate &c : plan.search.front)
        out["front"].push_back(jsonOf(lineOf(c.mix, c.outcome, plan.cards, model, kMinutesAWeek)));
    out["by_card"] = nlohmann::json::object();
    for (size_t c = 0; c < plan.cards.size(); ++c) {
        const auto &best = plan.search.bestByCard.at(c);
        out["by_card"][plan.cards[c].model] =
            best ? jsonOf(lineOf(best->mix, best->outcome, plan.cards, model, kMinutesAWeek))
                 : nlohmann::json();
    }
    out["rules"] = nlohmann::json::object();
    for (const auto &[name, rule] : plan.rules)
        out["rules"][name] =
            jsonOf(lineOf(rule.mix, rule.outcome, plan.cards, model, kMinutesAWeek));
    return out.dump(2) + "\n";
}

std::string backtestText(const Backtest &backtest, const std::vector<CardCost> &cards,
                         const PlanModel &model)
{
    if (backtest.rows.empty())
        return "Too short to backtest: it needs the weeks planned from and one more.\n";
    std::string out = fmt::format(
        "Planned from {} week(s), judged on the week after (it ran {:.0f}% an hour from the "
        "forecast):\n",
        backtest.forecast.weeksSeen, backtest.judgedWeekMiss * 100);
    for (const BacktestRow &row : backtest.rows) {
        const MixLine l = lineOf(row.mix, row.judged, cards, model, kMinutesAWeek);
        out += fmt::format("  {:<14} {}\n  {:<14} {}\n", row.name, mixText(l), "", figuresText(l));
    }
    if (!backtest.unsure.empty())
        out += "Unsure:\n" + unsureText(backtest.unsure);
    return out;
}

std::string backtestCsv(const Backtest &backtest, const std::vector<CardCost> &cards,
                        const PlanModel &model)
{
    std::string out = kCsvHeader;
    for (const BacktestRow &row : backtest.rows)
        out += csvRow(row.name, lineOf(row.mix, row.judged, cards, model, kMinutesAWeek));
    return out;
}

std::string backtestJson(const Backtest &backtest, const std::vector<CardCost> &cards,
                         const PlanModel &model)
{
    nlohmann::json out = {{"weeks_planned_from", backtest.forecast.weeksSeen},
                          {"judged_week_miss", backtest.judgedWeekMiss},
                          {"unsure", backtest.unsure}};
    out["rows"] = nlohmann::json::object();
    for (const BacktestRow &row : backtest.rows)
        out["rows"][row.name] = jsonOf(lineOf(row.mix, row.judged, cards, model, kMinutesAWeek));
    return out.dump(2) + "\n";
}

}  // namespace meridian
