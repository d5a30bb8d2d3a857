#include "plancommand.h"

#include <algorithm>
#include <cstdio>

#include "plan/capacityplanner.h"
#include "plan/demandseries.h"
#include "plan/planreport.h"
#include "textoutput.h"

namespace meridian {

namespace {

int failed(const std::string &message, int code)
{
    std::fprintf(stderr, "meridian plan: %s\n", message.c_str());
    return code;
}

}  // namespace

int runPlan(const PlanArguments &arguments)
{
    const std::string &format = arguments.format;
    if (format != "text" && format != "csv" && format != "json")
        return failed("--format text|csv|json", 2);
    auto series = readDemandSeries(arguments.demand);
    if (!series)
        return failed(series.error().message, 1);
    auto cards = arguments.costs.empty() ? Result<std::vector<CardCost>>(defaultCardCosts())
                                         : loadCardCosts(arguments.costs);
    if (!cards)
        return failed(cards.error().message, 1);
    std::vector<double> need =
        replicasAtPeak(series->rps, arguments.peakCards, arguments.cardsPerReplica);
    if (need.empty())
        return failed(arguments.demand + ": no demand in it", 1);
    PlanOptions options;
    options.objectiveShare = arguments.objectiveShare;
    options.leastOwnedUtilization = arguments.leastOwnedBusy;
    options.model.cardsPerReplica = arguments.cardsPerReplica;
    std::string text;
    if (arguments.backtest) {
        const size_t weeks = arguments.weeks > 0 ? static_cast<size_t>(arguments.weeks) : 1;
        const Backtest b = backtestPlan(need, weeks, cards.value(), options);
        if (b.rows.empty())
            return failed(arguments.demand + ": a backtest needs " + std::to_string(weeks + 1) +
                              " whole weeks of demand",
                          1);
        text = format == "json"  ? backtestJson(b, cards.value(), options.model)
               : format == "csv" ? backtestCsv(b, cards.value(), options.model)
                                 : backtestText(b, cards.value(), options.model);
    } else {
        if (arguments.weeks > 0)
            need = minutesOf(
                need,
                need.size() -
                    std::min(need.size(), static_cast<size_t>(arguments.weeks) * kMinutesAWeek),
                need.size());
        const CapacityPlan plan = planCapacity(need, series->name, cards.value(), options);
        if (plan.forecast.week.empty())
            return failed(arguments.demand + ": a plan needs a whole week of demand", 1);
        text = format == "json" ? planJson(plan) : format == "csv" ? planCsv(plan) : planText(plan);
    }
    if (!writeTextTo(text, arguments.output))
        return failed(arguments.output + ": cannot write", 1);
    return 0;
}

}  // namespace meridian
