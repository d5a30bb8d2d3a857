#include "evaluationreport.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace meridian {

namespace {

const char *releaseOrderName(ReleaseOrder order)
{
    return order == ReleaseOrder::NewestFirst ? "newest first" : "soonest paid hour first";
}

// The yardstick: the cheapest foresight schedule that keeps as many requests inside the
// objective as the oracle was held to (the paced one can be cheaper: each lease started
// again pays a whole hour). The oracle, last, where none is.
const EvaluationResult &cheapestForesight(const EvaluationRun &run)
{
    const EvaluationResult *cheapest = &run.results.back();
    const double kept = std::min(cheapest->withinSloShare, run.oracleTargetShare);
    for (const EvaluationResult &r : run.results) {
        if (r.foresight && r.rentedCardHours < cheapest->rentedCardHours &&
            r.withinSloShare >= kept)
            cheapest = &r;
    }
    return *cheapest;
}

// What the tuned row changed: its headroom, or its surge cover where headroom could not
// keep as many.
std::string tunedSetting(const EvaluationRun &run)
{
    if (run.tunedOccupancyScale == 1 && run.tunedSurgeCover > 1)
        return fmt::format("surge cover ×{:g}", run.tunedSurgeCover);
    return fmt::format("target occupancy × {:.2f}", run.tunedOccupancyScale);
}

// The goal against HPA is set at equal or better attainment: the card-hours of Meridian
// at HPA's attainment (the tuned row, where there is one) set against HPA's.
std::string againstHpa(const EvaluationRun &run)
{
    const EvaluationResult *hpa = rowNamed(run, kHpaRow);
    const EvaluationResult *tuned = rowNamed(run, kTunedMeridianRow);
    const EvaluationResult *meridian = tuned ? tuned : rowNamed(run, kMeridianRow);
    if (!hpa || !meridian)
        return {};
    const bool keepsAsMany = meridian->withinSloShare >= hpa->withinSloShare - kSameAttainment;
    std::string line = "against hpa-style: ";
    if (tuned)
        line += fmt::format("meridian tuned ({}) ", tunedSetting(run));
    else
        line += "meridian ";
    if (!keepsAsMany)
        return line + fmt::format(
                          "keeps fewer inside the objective ({:.2f}% against {:.2f}%) "
                          "with the most headroom tried\n",
                          100 * meridian->withinSloShare, 100 * hpa->withinSloShare);
    line += fmt::format("keeps {} inside the objective and ",
                        meridian->withinSloShare >= hpa->withinSloShare
                            ? "at least as many"
                            : "as many (within 0.1 points)");
    // Owned replicas alone may carry a trace: then there is no share to set against.
    if (hpa->rentedCardHours <= 0)
        return line + fmt::format("rents {:.0f} card-hours where hpa-style rents none\n",
                                  meridian->rentedCardHours);
    const double saved = 1 - meridian->rentedCardHours / hpa->rentedCardHours;
    return line + fmt::format("rents {:.0f}% {} card-hours\n", 100 * std::abs(saved),
                              saved >= 0 ? "fewer" : "more");
}

// What the oracle row is, and what it was held to.
std::string oracleLine(const EvaluationRun &run)
{
    std::string line =
        run.oracleTargetShare >= kOracleTargetShare
            ? fmt::format(
                  "oracle: the cheapest foresight schedule found keeping {:.0f}% inside "
                  "the objective: ",
                  100 * kOracleTargetShare)
            : fmt::format(
                  "oracle: no foresight schedule tried keeps {:.0f}% inside the "
                  "objective on this trace; the cheapest keeping {:.1f}% (within 0.2 "
                  "points of the most any keeps): ",
                  100 * kOracleTargetShare, 100 * run.oracleTargetShare);
    if (run.oracleExact)
        return line + fmt::format(
                          "the exact plan (each minute's misses measured, leases by dynamic "
                          "programming) for {:.0f}% of the misses the target allows; demand × "
                          "{:.2f}: {:.2f}% for {:.0f} card-h\n",
                          100 * run.oracleMissBudgetShare, run.oracleHeadroom,
                          100 * run.oracleOtherShare, run.oracleOtherCardHours);
    if (!run.oracleExactTried)
        return line + fmt::format("demand × {:.2f}\n", run.oracleHeadroom);
    return line + fmt::format(
                      "demand × {:.2f}; the exact plan (each minute's misses measured, leases "
                      "by dynamic programming): {:.2f}% for {:.0f} card-h\n",
                      run.oracleHeadroom, 100 * run.oracleOtherShare, run.oracleOtherCardHours);
}

}  // namespace

namespace {

// The run's preamble: the trace and its scaling, the oracles, what each special row is.
std::string runPreamble(const EvaluationRun &run, const EvaluationResult &yardstick)
{
    std::string out = fmt::format(
        "{}: scaled ×{:.3f} ({} requests), {:.2f} req/s per replica, {} local replicas\n",
        run.trace, run.scaleFactor, run.results.front().requests, run.replicaRps,
        run.localReplicas);
    out += oracleLine(run);
    out += fmt::format(
        "objective: queueing delay (time to first token less the replica's own prefill of "
        "the prompt) within {:.1f} s; \"TTFT ok\" counts the first token itself within it\n",
        run.objectiveS);
    if (run.results.front().cachedPromptShare > 0)
        out += fmt::format(
            "prefix cache: {:.1f}% of meridian's prompt tokens were cached on the replica "
            "they went to ({} blocks of {} tokens per replica)\n",
            100 * run.results.front().cachedPromptShare, run.prefixCacheBlocks, kPrefixBlockTokens);
    if (run.pacedOracleMaxActions > 0)
        out += fmt::format(
            "paced oracle: the same foresight, changing replicas at most {} times "
            "(demand × {:.2f})\n",
            run.pacedOracleMaxActions, run.pacedOracleHeadroom);
    if (const EvaluationResult *standby = rowNamed(run, kStandbyMeridianRow))
        out += fmt::format(
            "meridian standby: the same policy keeping {} rented node(s) provisioned but idle "
            "with the weights on local disk; standing by costs it {:+.0f} rented card-h against "
            "meridian's\n",
            run.standbyNodes, standby->rentedCardHours - run.results.front().rentedCardHours);
    if (rowNamed(run, kToldMeridianRow))
        out += fmt::format(
            "meridian told: the same policy told the trace's coming load as its forecast, "
            "{:.0f} s ahead, ordering capacity as it says\n",
            run.toldAheadS);
    if (!run.scheduleName.empty())
        out += fmt::format("schedule: the replicas {} gives, minute by minute\n", run.scheduleName);
    if (rowNamed(run, kStandbyScheduleRow))
        out += fmt::format(
            "schedule standby: the same schedule, its rented replicas started on {} standby "
            "node(s) where one is ready\n",
            run.standbyNodes);
    if (&yardstick != &run.results.back())
        out += "×oracle: against the paced oracle, the cheaper of the two\n";
    return out;
}

// With several seeds: each row's spread of time in SLO; then which replica each lets go.
std::string seedsAndReleaseOrders(const EvaluationRun &run)
{
    std::string out;
    if (run.seeds > 1) {
        out += fmt::format("the median of {} seeds, each figure on its own; in SLO, lowest–highest",
                           run.seeds);
        const char *between = ": ";
        for (const EvaluationResult &r : run.results) {
            out += fmt::format("{}{} {:.2f}–{:.2f}%", between, r.autoscaler,
                               100 * r.lowestWithinSloShare, 100 * r.highestWithinSloShare);
            if (r.runs < run.seeds)
                out += fmt::format(" ({} of the seeds)", r.runs);
            between = "; ";
        }
        out += "\n";
    }
    out += "which rented replica a scale-down lets go";
    const char *separator = ": ";
    for (const EvaluationResult &r : run.results) {
        if (r.autoscaler.rfind("static", 0) == 0)
            continue;  // never scales down
        out += fmt::format("{}{} {}", separator, r.autoscaler, releaseOrderName(r.releaseOrder));
        separator = "; ";
    }
    return out + "\n";
}

}  // namespace

std::string evaluationTable(const EvaluationRun &run)
{
    const EvaluationResult &yardstick = cheapestForesight(run);
    // Told each minute's load only as it begins, Meridian reacts to a step like the rest.
    const auto answersSteps = [&run](const EvaluationResult &r) {
        return r.loadSteps > 0 && !r.foresight && !(r.toldTheLoad && run.toldAheadS > 0);
    };
    std::string out = runPreamble(run, yardstick);
    out += againstHpa(run);
    out += fmt::format(
        "{:<17}{:>9}{:>9}{:>8}{:>9}{:>9}{:>10}{:>10}{:>11}{:>8}{:>9}{:>6}{:>8}{:>6}{:>9}"
        "{:>8}{:>8}\n",
        "autoscaler", "in SLO", "TTFT ok", "p95 s", "p95 TTFT", "min. ok", "worst p95", "local c-h",
        "rented c-h", "×oracle", "cost CNY", "occ.", "actions", "rev.", "decide s", "serve s",
        "start s");
    for (const EvaluationResult &r : run.results) {
        const double ratio =
            yardstick.rentedCardHours > 0 ? r.rentedCardHours / yardstick.rentedCardHours : 0;
        out += fmt::format(
            "{:<17}{:>8.2f}%{:>8.2f}%{:>8.2f}{:>9.2f}{:>8.1f}%{:>10.1f}{:>10.1f}{:>11.1f}{:>8.2f}"
            "{:>9.0f}{:>5.0f}%{:>8}{:>6}{:>9}{:>8}{:>8.0f}\n",
            r.autoscaler, 100 * r.withinSloShare, 100 * r.withinTtftShare, r.queueDelayP95S,
            r.ttftP95S, 100 * r.minutesMeetingSloShare, r.worstMinuteP95S, r.localCardHours,
            r.rentedCardHours, ratio, r.costCny, 100 * r.occupancy, r.scaleActions, r.reversals,
            // Ordered ahead of a step (an oracle, or Meridian told the load ahead), how
            // fast a step is answered says nothing.
            answersSteps(r) ? fmt::format("{:.0f}", r.stepDecisionS) : "–",
            answersSteps(r) ? fmt::format("{:.0f}", r.stepServingS) : "–", r.replicaStartS);
    }
    return out + seedsAndReleaseOrders(run);
}

std::string evaluationJson(const EvaluationRun &run)
{
    nlohmann::json results = nlohmann::json::array();
    for (const EvaluationResult &r : run.results) {
        results.push_back({{"autoscaler", r.autoscaler},
                           {"requests", r.requests},
                           {"within_slo_share", r.withinSloShare},
                           {"within_ttft_share", r.withinTtftShare},
                           {"queue_delay_p95_s", r.queueDelayP95S},
                           {"ttft_p95_s", r.ttftP95S},
                           {"ttft_p99_s", r.ttftP99S},
                           {"worst_minute_queue_delay_p95_s", r.worstMinuteP95S},
                           {"cached_prompt_share", r.cachedPromptShare},
                           {"minutes_meeting_slo_share", r.minutesMeetingSloShare},
                           {"e2e_p95_s", r.e2eP95S},
                           {"local_card_hours", r.localCardHours},
                           {"rented_card_hours", r.rentedCardHours},
                           {"standby_card_hours", r.standbyCardHours},
                           {"replica_start_s_median", r.replicaStartS},
                           {"cost_cny", r.costCny},
                           {"occupancy", r.occupancy},
                           {"scale_actions", r.scaleActions},
                           {"reversals", r.reversals},
                           {"release_order", releaseOrderName(r.releaseOrder)},
                           {"runs", r.runs},
                           {"lowest_within_slo_share", r.lowestWithinSloShare},
                           {"highest_within_slo_share", r.highestWithinSloShare},
                           {"load_steps", r.loadSteps},
                           {"step_to_decision_s_median", r.stepDecisionS},
                           {"step_to_serving_s_median", r.stepServingS}});
    }
    return nlohmann::json({{"trace", run.trace},
                           {"seeds", run.seeds},
                           {"scale_factor", run.scaleFactor},
                           {"replica_rps", run.replicaRps},
                           {"local_replicas", run.localReplicas},
                           {"standby_nodes", run.standbyNodes},
                           {"objective_queue_delay_s", run.objectiveS},
                           {"oracle_exact", run.oracleExact},
                           {"oracle_miss_budget_share", run.oracleMissBudgetShare},
                           {"oracle_headroom", run.oracleHeadroom},
                           {"oracle_other_within_slo_share", run.oracleOtherShare},
                           {"oracle_other_rented_card_hours", run.oracleOtherCardHours},
                           {"oracle_target_share", run.oracleTargetShare},
                           {"paced_oracle_max_actions", run.pacedOracleMaxActions},
                           {"paced_oracle_headroom", run.pacedOracleHeadroom},
                           {"told_ahead_s", run.toldAheadS},
                           {"tuned_occupancy_scale", run.tunedOccupancyScale},
                           {"tuned_surge_cover", run.tunedSurgeCover},
                           {"results", results}})
               .dump(2) +
           "\n";
}

std::string evaluationMinutesCsv(const EvaluationRun &run)
{
    std::string out = "minute,arrivals_rps";
    size_t minutes = run.minuteRps.size();
    for (const EvaluationResult &r : run.results) {
        out += ",p95_queue_s_" + r.autoscaler + ",replicas_" + r.autoscaler;
        minutes = std::max(minutes, r.minuteP95S.size());
    }
    std::replace(out.begin(), out.end(), ' ', '_');
    out += '\n';
    for (size_t m = 0; m < minutes; ++m) {
        out += std::to_string(m) + ',';
        if (m < run.minuteRps.size())
            out += fmt::format("{:.2f}", run.minuteRps[m]);
        for (const EvaluationResult &r : run.results) {
            out += ',';
            if (m < r.minuteP95S.size() && r.minuteP95S[m] >= 0)
                out += fmt::format("{:.2f}", r.minuteP95S[m]);
            out += ',';
            if (m < r.minuteReplicas.size())
                out += std::to_string(r.minuteReplicas[m]);
        }
        out += '\n';
    }
    return out;
}

std::string evaluationTimelineCsv(const EvaluationRun &run)
{
    std::string out =
        "minute,arrivals_rps,seen_rps,desired,provisioning,cold_starting,serving,waiting,"
        "p95_queue_s\n";
    const EvaluationResult *meridian = rowNamed(run, kMeridianRow);
    if (!meridian)
        return out;
    for (size_t m = 0; m < meridian->minuteStates.size(); ++m) {
        const MinuteState &s = meridian->minuteStates[m];
        const float p95 = m < meridian->minuteP95S.size() ? meridian->minuteP95S[m] : -1;
        out += fmt::format("{},{},{:.2f},{},{},{},{},{},{}\n", m,
                           m < run.minuteRps.size() ? fmt::format("{:.2f}", run.minuteRps[m]) : "",
                           s.seenRps, s.desired, s.provisioning, s.coldStarting, s.serving,
                           s.waiting, p95 >= 0 ? fmt::format("{:.2f}", p95) : "");
    }
    return out;
}

}  // namespace meridian
