#include "seedmedian.h"

#include <algorithm>

namespace meridian {

namespace {

template <typename T>
T median(std::vector<T> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    if (n % 2 == 1)
        return values[n / 2];
    return static_cast<T>((values[n / 2 - 1] + values[n / 2]) / 2);
}

// The median of one figure over `rows`.
template <typename Row, typename T>
T medianOf(const std::vector<const Row *> &rows, T Row::*figure)
{
    std::vector<T> values;
    for (const Row *row : rows)
        values.push_back(row->*figure);
    return median(values);
}

EvaluationResult medianRow(const std::vector<const EvaluationResult *> &rows)
{
    EvaluationResult r = *rows.front();
    for (double EvaluationResult::*figure :
         {&EvaluationResult::withinSloShare, &EvaluationResult::withinTtftShare,
          &EvaluationResult::queueDelayP95S, &EvaluationResult::ttftP95S,
          &EvaluationResult::ttftP99S, &EvaluationResult::worstMinuteP95S,
          &EvaluationResult::minutesMeetingSloShare, &EvaluationResult::cachedPromptShare,
          &EvaluationResult::e2eP95S, &EvaluationResult::localCardHours,
          &EvaluationResult::rentedCardHours, &EvaluationResult::standbyCardHours,
          &EvaluationResult::replicaStartS, &EvaluationResult::costCny,
          &EvaluationResult::occupancy, &EvaluationResult::stepDecisionS,
          &EvaluationResult::stepServingS})
        r.*figure = medianOf(rows, figure);
    for (int EvaluationResult::*figure :
         {&EvaluationResult::scaleActions, &EvaluationResult::reversals,
          &EvaluationResult::loadSteps})
        r.*figure = medianOf(rows, figure);
    r.requests = medianOf(rows, &EvaluationResult::requests);
    r.runs = static_cast<int>(rows.size());
    for (const EvaluationResult *row : rows) {
        r.lowestWithinSloShare = std::min(r.lowestWithinSloShare, row->lowestWithinSloShare);
        r.highestWithinSloShare = std::max(r.highestWithinSloShare, row->highestWithinSloShare);
    }
    return r;
}

}  // namespace

EvaluationRun medianOverSeeds(const std::vector<EvaluationRun> &runs)
{
    EvaluationRun run = runs.front();
    run.seeds = static_cast<int>(runs.size());
    std::vector<const EvaluationRun *> all;
    for (const EvaluationRun &r : runs)
        all.push_back(&r);
    for (double EvaluationRun::*figure :
         {&EvaluationRun::scaleFactor, &EvaluationRun::oracleHeadroom,
          &EvaluationRun::oracleTargetShare, &EvaluationRun::oracleMissBudgetShare,
          &EvaluationRun::pacedOracleHeadroom, &EvaluationRun::tunedOccupancyScale,
          &EvaluationRun::tunedSurgeCover, &EvaluationRun::oracleOtherShare,
          &EvaluationRun::oracleOtherCardHours})
        run.*figure = medianOf(all, figure);
    const auto exact = std::count_if(runs.begin(), runs.end(),
                                     [](const EvaluationRun &r) { return r.oracleExact; });
    run.oracleExact = 2 * exact > static_cast<long>(runs.size());
    for (EvaluationResult &row : run.results) {
        std::vector<const EvaluationResult *> same;
        for (const EvaluationRun &r : runs) {
            const auto it = std::find_if(
                r.results.begin(), r.results.end(),
                [&](const EvaluationResult &x) { return x.autoscaler == row.autoscaler; });
            if (it != r.results.end())
                same.push_back(&*it);
        }
        const std::vector<float> minuteP95 = row.minuteP95S;
        const std::vector<int> minuteReplicas = row.minuteReplicas;
        const std::vector<MinuteState> minuteStates = row.minuteStates;
        row = medianRow(same);
        row.minuteP95S = minuteP95;
        row.minuteReplicas = minuteReplicas;
        row.minuteStates = minuteStates;
    }
    return run;
}

}  // namespace meridian
