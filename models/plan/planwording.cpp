#include "planwording.h"

#include <QCoreApplication>
#include <QLocale>
#include <cmath>

namespace meridian {

namespace {

// The words keep the Plan view's translation context, which lupdate reads here.
struct PlanWindow {
    Q_DECLARE_TR_FUNCTIONS(PlanWindow)
};

QString money(double cny)
{
    return QLocale().toString(cny, 'f', 0);
}

QString percent(double share, int decimals = 2)
{
    return QStringLiteral("%1%").arg(QLocale().toString(share * 100, 'f', decimals));
}

// The library's rule and row names, in the user's words.
QString rowName(const std::string &name)
{
    if (name == "plan")
        return PlanWindow::tr("Plan, judged on the week after");
    if (name == "hindsight")
        return PlanWindow::tr("Cheapest in hindsight");
    if (name == "all hourly")
        return PlanWindow::tr("Rule: all hourly");
    if (name == "own the peak")
        return PlanWindow::tr("Rule: own the peak");
    if (name.rfind("contract p", 0) == 0)
        return PlanWindow::tr("Rule: contract the median");
    return QString::fromStdString(name);
}

// What the plan cannot be sure of, from its figures.
QStringList unsureWords(const DemandForecast &f, std::optional<double> judgedWeekMiss)
{
    QStringList words;
    if (f.weeksSeen == 1)
        words << PlanWindow::tr(
            "Planned from one week: whether the next repeats its shape is "
            "not yet known.");
    if (std::abs(f.weeklyGrowth) >= kTrendWorthSaying) {
        const bool carried = static_cast<size_t>(f.weeksSeen) >= kWeeksForATrend;
        const QString change = f.weeklyGrowth > 0 ? PlanWindow::tr("Demand grew %1 a week")
                                                  : PlanWindow::tr("Demand fell %1 a week");
        words << change.arg(percent(std::abs(f.weeklyGrowth), 0)) +
                     (carried ? PlanWindow::tr("; the plan carries it on.")
                              : PlanWindow::tr(" over two weeks; the plan does not carry it on."));
    }
    if (f.lastWeekMiss && *f.lastWeekMiss > kMissWorthSaying)
        words << PlanWindow::tr("The forecast missed the last week it could check by %1 an hour.")
                     .arg(percent(*f.lastWeekMiss, 0));
    if (judgedWeekMiss && *judgedWeekMiss > kMissWorthSaying)
        words << PlanWindow::tr(
                     "The week after ran %1 an hour from the forecast: plan again "
                     "on it.")
                     .arg(percent(*judgedWeekMiss, 0));
    return words;
}

const PlanCandidate *pickOf(const CapacityPlan &plan)
{
    return plan.search.recommended ? &*plan.search.recommended
           : plan.search.bestKept  ? &*plan.search.bestKept
                                   : nullptr;
}

QString planPickWords(const CapacityPlan &plan, const PlanCandidate &pick)
{
    const CardCost &card = plan.cards.at(pick.mix.card);
    const int cards = plan.options.model.cardsPerReplica;
    QString text = (plan.search.recommended
                        ? PlanWindow::tr("Recommended: %1, own %2 cards, contract %3, rent above "
                                         "them. %4 CNY a month; %5 of requests inside the "
                                         "objective.")
                        : PlanWindow::tr("No mix keeps the objective; the closest: %1, own %2 "
                                         "cards, contract %3. %4 CNY a month; %5 inside."))
                       .arg(QString::fromStdString(card.model))
                       .arg(pick.mix.ownedReplicas * cards)
                       .arg(pick.mix.contractReplicas * cards)
                       .arg(money(monthlyCost(pick.outcome, kMinutesAWeek)),
                            percent(pick.outcome.withinObjectiveShare));
    if (pick.mix.ownedReplicas > 0) {
        const auto payback = paybackMonths(card);
        text += QLatin1Char(' ') +
                (payback ? PlanWindow::tr("Owned cards %1 busy; buying pays back in %2 months "
                                          "against contracting them.")
                               .arg(percent(pick.outcome.ownedUtilization, 0))
                               .arg(std::round(*payback))
                         : PlanWindow::tr("Buying never pays back against contracting."));
    }
    return text;
}

}  // namespace

QString planPickName()
{
    return PlanWindow::tr("Recommended");
}

QString planHeadline(const PlanLoaded &loaded)
{
    if (!loaded.problem.isEmpty())
        return PlanWindow::tr("No plan: %1").arg(loaded.problem);
    if (loaded.plan) {
        const PlanCandidate *pick = pickOf(*loaded.plan);
        return pick ? planPickWords(*loaded.plan, *pick) : QString();
    }
    if (!loaded.backtest || loaded.backtest->rows.size() < 2)
        return {};
    const BacktestRow &plan = loaded.backtest->rows.front();
    const BacktestRow &best = loaded.backtest->rows.at(1);
    return PlanWindow::tr(
               "Planned from the first week and judged on the next: %1 CNY a month "
               "against %2 for the mix cheapest in hindsight (%3 more); %4 of "
               "requests inside the objective.")
        .arg(money(monthlyCost(plan.judged, kMinutesAWeek)),
             money(monthlyCost(best.judged, kMinutesAWeek)),
             percent(plan.judged.costCny / best.judged.costCny - 1, 1),
             percent(plan.judged.withinObjectiveShare));
}

QString planUnsure(const PlanLoaded &loaded)
{
    if (loaded.plan)
        return unsureWords(loaded.plan->forecast, std::nullopt).join(QLatin1Char(' '));
    if (loaded.backtest)
        return unsureWords(loaded.backtest->forecast, loaded.backtest->judgedWeekMiss)
            .join(QLatin1Char(' '));
    return {};
}

QString planStatus(const PlanLoaded &loaded)
{
    if (!loaded.plan)
        return {};
    QString status =
        PlanWindow::tr("%1 mixes weighed on the week forecast from %2 week(s) of demand.")
            .arg(QLocale().toString(static_cast<qulonglong>(loaded.plan->search.judged)))
            .arg(loaded.plan->forecast.weeksSeen);
    if (loaded.gapHours > 0)
        status +=
            QLatin1Char(' ') + PlanWindow::tr(
                                   "%n hour(s) of demand were not recorded; each is taken as the "
                                   "same hour of the other weeks.",
                                   nullptr, static_cast<int>(loaded.gapHours));
    return status;
}

QStringList planTableHeader()
{
    return {PlanWindow::tr("Mix"),
            PlanWindow::tr("Card model"),
            PlanWindow::tr("Owned cards"),
            PlanWindow::tr("Contracted cards"),
            PlanWindow::tr("CNY a month"),
            PlanWindow::tr("Inside the objective"),
            PlanWindow::tr("Owned cards busy"),
            PlanWindow::tr("Rented card-hours a month")};
}

std::vector<PlanRow> planRows(const PlanLoaded &loaded)
{
    std::vector<PlanRow> rows;
    if (loaded.backtest) {
        for (const BacktestRow &row : loaded.backtest->rows)
            rows.push_back({rowName(row.name), row.mix, row.judged, true});
        return rows;
    }
    if (!loaded.plan)
        return rows;
    const CapacityPlan &plan = *loaded.plan;
    if (const PlanCandidate *pick = pickOf(plan))
        rows.push_back({planPickName(), pick->mix, pick->outcome, true});
    for (size_t c = 0; c < plan.search.bestByCard.size(); ++c) {
        if (const auto &best = plan.search.bestByCard[c])
            rows.push_back(
                {PlanWindow::tr("Cheapest on %1").arg(QString::fromStdString(plan.cards[c].model)),
                 best->mix, best->outcome, false});
    }
    for (const auto &[name, rule] : plan.rules)
        rows.push_back({rowName(name), rule.mix, rule.outcome, true});
    return rows;
}

QStringList planRowCells(const PlanLoaded &loaded, const PlanRow &row)
{
    const int cards = loaded.options.model.cardsPerReplica;
    const Mix &mix = row.mix;
    const MixOutcome &o = row.outcome;
    return {row.what,
            QString::fromStdString(loaded.cards.at(mix.card).model),
            QLocale().toString(mix.ownedReplicas * cards),
            QLocale().toString(mix.contractReplicas * cards),
            money(monthlyCost(o, kMinutesAWeek)),
            percent(o.withinObjectiveShare),
            mix.ownedReplicas > 0 ? percent(o.ownedUtilization, 0) : QStringLiteral("–"),
            money(o.rentedCardHours / monthsIn(kMinutesAWeek))};
}

std::vector<PlanCandidate> planFront(const PlanLoaded &loaded)
{
    return loaded.plan ? loaded.plan->search.front : std::vector<PlanCandidate>{};
}

}  // namespace meridian
