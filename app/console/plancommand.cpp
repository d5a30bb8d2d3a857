#include "plancommand.h"

#include <QApplication>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "configlocations.h"
#include "plan/capacityplanner.h"
#include "plan/demandseries.h"
#include "plan/planreport.h"
#include "plan/recordeddemand.h"
#include "textoutput.h"
#include "userlanguage.h"
#include "widgets/plan/planpdf.h"

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
    auto recorded = readPlanDemand(arguments.demand, arguments.recordedIn,
                                   arguments.demand.empty() ? arguments.service : std::string());
    if (!recorded)
        return recorded.error();
    if (recorded->gapMinutes > 0)
        std::fprintf(stderr,
                     "meridian plan: %zu hour(s) of %s's demand were not recorded; each is "
                     "taken as the same hour of the other weeks\n",
                     recorded->gapMinutes / 60, arguments.service.c_str());
    return recorded->series;
}

// The pick replayed request by request: from a trace file only, sized by its peak.
Result<ReplayConfirmation> confirmPick(const PlanArguments &arguments,
                                       const std::vector<double> &need, const CapacityPlan &plan)
{
    const auto &pick = plan.search.recommended ? plan.search.recommended : plan.search.bestKept;
    if (arguments.demand.empty() || arguments.replicaRps > 0 || !pick)
        return Error{"--confirm replays a trace file sized by --peak-cards, and needs a pick"};
    return confirmByReplay(arguments.demand, arguments.peakCards, need, plan, *pick);
}

Result<std::string> backtestAnswer(const PlanArguments &arguments, const std::vector<double> &need,
                                   const std::vector<CardCost> &cards, const PlanOptions &options,
                                   const std::string &source)
{
    const size_t weeks = arguments.weeks > 0 ? static_cast<size_t>(arguments.weeks) : 1;
    const Backtest b = backtestPlan(need, weeks, cards, options);
    if (b.rows.empty())
        return Error{source + ": a backtest needs " + std::to_string(weeks + 1) +
                     " whole weeks of demand"};
    const std::string &format = arguments.format;
    return format == "json"  ? backtestJson(b, cards, options.model)
           : format == "csv" ? backtestCsv(b, cards, options.model)
                             : backtestText(b, cards, options.model);
}

// The plan from the newest `--weeks` (all by default); held to the replay if asked.
Result<std::string> planAnswer(const PlanArguments &arguments, const std::vector<double> &need,
                               const std::string &service, const std::vector<CardCost> &cards,
                               const PlanOptions &options, const std::string &source)
{
    const size_t kept =
        arguments.weeks > 0
            ? std::min(need.size(), static_cast<size_t>(arguments.weeks) * kMinutesAWeek)
            : need.size();
    const CapacityPlan plan =
        planCapacity(minutesOf(need, need.size() - kept, kept), service, cards, options);
    if (plan.forecast.week.empty())
        return Error{source + ": a plan needs a whole week of demand"};
    std::optional<ReplayConfirmation> confirmed;
    if (arguments.confirm) {
        auto replayed = confirmPick(arguments, need, plan);
        if (!replayed)
            return replayed.error();
        confirmed = replayed.value();
    }
    const ReplayConfirmation *confirmation = confirmed ? &*confirmed : nullptr;
    const std::string &format = arguments.format;
    return format == "json"  ? planJson(plan, confirmation)
           : format == "csv" ? planCsv(plan)
                             : planText(plan, confirmation);
}

// The plan (or its backtest) as the Plan view shows it, in a PDF: Qt offscreen, so cron
// with no display writes it, in the user's language.
int writePdf(const PlanArguments &arguments, const std::vector<double> &need,
             const std::string &service, const std::vector<CardCost> &cards,
             const PlanOptions &options, int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const UserLanguage language;
    PlanLoaded loaded;
    loaded.asked.demandFile = QString::fromStdString(arguments.demand);
    loaded.cards = cards;
    loaded.options = options;
    if (arguments.backtest) {
        Backtest b =
            backtestPlan(need, static_cast<size_t>(std::max(1, arguments.weeks)), cards, options);
        if (b.rows.empty())
            return failed(service + ": a backtest needs two whole weeks of demand", 1);
        loaded.backtest = std::move(b);
    } else {
        CapacityPlan plan = planCapacity(need, service, cards, options);
        if (plan.forecast.week.empty())
            return failed(service + ": a plan needs a whole week of demand", 1);
        loaded.plan = std::move(plan);
    }
    const Status written = writePlanPdf(QString::fromStdString(arguments.output), loaded);
    return written ? 0 : failed(written.message(), 1);
}

}  // namespace

int runPlan(const PlanArguments &arguments, int argc, char **argv)
{
    const std::string &format = arguments.format;
    if (format != "text" && format != "csv" && format != "json" && format != "pdf")
        return failed("--format text|csv|json|pdf", 2);
    if (format == "pdf" && arguments.output.empty())
        return failed("a PDF needs -o FILE", 2);
    if (arguments.demand.empty() == arguments.recordedIn.empty() ||
        arguments.recordedIn.empty() != arguments.service.empty())
        return failed("--demand FILE, or --db FILE with --service NAME", 2);
    const std::string source = arguments.demand.empty() ? arguments.recordedIn : arguments.demand;
    const Result<DemandSeries> series = demandOf(arguments);
    if (!series)
        return failed(series.error().message, 1);
    // The costs file asked for, else the cost side of the price book in force, else the
    // provider's figures.
    const std::string book = priceBookInForce();
    auto cards = !arguments.costs.empty() ? loadCardCosts(arguments.costs)
                 : std::filesystem::exists(book)
                     ? loadCardCosts(book)
                     : Result<std::vector<CardCost>>(defaultCardCosts());
    if (!cards)
        return failed(cards.error().message, 1);
    const std::vector<double> need =
        arguments.replicaRps > 0
            ? replicasAtRate(series->rps, arguments.replicaRps)
            : replicasAtPeak(series->rps, arguments.peakCards, arguments.cardsPerReplica);
    if (need.empty())
        return failed(source + ": no demand in it", 1);
    PlanOptions options;
    options.objectiveShare = arguments.objectiveShare;
    options.leastOwnedUtilization = arguments.leastOwnedBusy;
    options.model.cardsPerReplica = arguments.cardsPerReplica;
    if (format == "pdf")
        return writePdf(arguments, need, series->name, cards.value(), options, argc, argv);
    const Result<std::string> text =
        arguments.backtest
            ? backtestAnswer(arguments, need, cards.value(), options, source)
            : planAnswer(arguments, need, series->name, cards.value(), options, source);
    if (!text)
        return failed(text.error().message, 1);
    if (!writeTextTo(text.value(), arguments.output))
        return failed(arguments.output + ": cannot write", 1);
    return 0;
}

}  // namespace meridian
