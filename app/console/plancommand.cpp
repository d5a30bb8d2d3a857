#include "plancommand.h"

#include <algorithm>
#include <cstdio>

#include "plan/capacityplanner.h"
#include "plan/demandseries.h"
#include "plan/planreport.h"
#include "plan/recordeddemand.h"
#include "textoutput.h"

namespace meridian {

namespace {

int failed(const std::string &message, int code)
{
    std::fprintf(stderr, "meridian plan: %s\n", message.c_str());
    return code;
}

// The demand asked for: a file's, or what the service's controller recorded (its gaps said).
Result<DemandSeries> demandOf(const PlanArguments &arguments)
{
    if (!arguments.demand.empty())
        return readDemandSeries(arguments.demand);
    auto recorded = readRecordedDemand(arguments.recordedIn, arguments.service);
    if (!recorded)
        return recorded.error();
    if (recorded->gapMinutes > 0)
        std::fprintf(stderr,
                     "meridian plan: %zu hour(s) of %s's demand were not recorded; each is "
                     "taken as the same hour of the other weeks\n",
                     recorded->gapMinutes / 60, arguments.service.c_str());
    return recorded->series;
}

}  // namespace

int runPlan(const PlanArguments &arguments)
{
    const std::string &format = arguments.format;
    if (format != "text" && format != "csv" && format != "json")
        return failed("--format text|csv|json", 2);
    if (arguments.demand.empty() == arguments.recordedIn.empty() ||
        arguments.recordedIn.empty() != arguments.service.empty())
        return failed("--demand FILE, or --db FILE with --service NAME", 2);
    const std::string source = arguments.demand.empty() ? arguments.recordedIn : arguments.demand;
    const Result<DemandSeries> series = demandOf(arguments);
    if (!series)
        return failed(series.error().message, 1);
    auto cards = arguments.costs.empty() ? Result<std::vector<CardCost>>(defaultCardCosts())
                                         : loadCardCosts(arguments.costs);
    if (!cards)
        return failed(cards.error().message, 1);
    std::vector<double> need =
        arguments.replicaRps > 0
            ? replicasAtRate(series->rps, arguments.replicaRps)
            : replicasAtPeak(series->rps, arguments.peakCards, arguments.cardsPerReplica);
    if (need.empty())
        return failed(source + ": no demand in it", 1);
    PlanOptions options;
    options.objectiveShare = arguments.objectiveShare;
    options.leastOwnedUtilization = arguments.leastOwnedBusy;
    options.model.cardsPerReplica = arguments.cardsPerReplica;
    std::string text;
    if (arguments.backtest) {
        const size_t weeks = arguments.weeks > 0 ? static_cast<size_t>(arguments.weeks) : 1;
        const Backtest b = backtestPlan(need, weeks, cards.value(), options);
        if (b.rows.empty())
            return failed(source + ": a backtest needs " + std::to_string(weeks + 1) +
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
            return failed(source + ": a plan needs a whole week of demand", 1);
        text = format == "json" ? planJson(plan) : format == "csv" ? planCsv(plan) : planText(plan);
    }
    if (!writeTextTo(text, arguments.output))
        return failed(arguments.output + ": cannot write", 1);
    return 0;
}

}  // namespace meridian
