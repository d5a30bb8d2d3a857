#include "evaluation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>

#include "leaseplan.h"
#include "minutemisses.h"
#include "pacedschedule.h"
#include "policysearch.h"
#include "replayrun.h"

namespace meridian {

namespace {

// Replicas by minute followed as given, from as many warm at the start as the first
// minute has, releasing the soonest paid hour first: every foresight row, and --schedule.
EvaluationResult replaySchedule(const std::string &name, std::vector<int> schedule,
                                const Replay &replay)
{
    const int initial = std::max(1, schedule.empty() ? 0 : schedule.front());
    ForesightScaler foresight(std::move(schedule));
    EvaluationResult result =
        simulate(name, foresight, replay, initial, ReleaseOrder::SoonestPaidHourFirst);
    result.foresight = true;
    return result;
}

// A schedule given from outside (`--schedule`), followed as the oracle's is: whoever made
// it, it is not one of ours, so no row is set against it.
EvaluationResult replayGivenSchedule(const std::string &name, const std::vector<int> &schedule,
                                     const Replay &replay)
{
    EvaluationResult given = replaySchedule(name, schedule, replay);
    given.foresight = false;
    return given;
}

// From an order to serving at the slowest: provisioning and a cold start.
size_t leadMinutes(const StartupTimes &startup)
{
    return static_cast<size_t>(std::ceil((startup.provisioningMaxS + startup.coldStartMaxS) / 60));
}

struct OracleResult {
    EvaluationResult result;
    // What the schedule was made with: the headroom over demand, or for the exact oracle
    // the share of the target's misses it was planned for.
    double setting;
    double target;  // the share of requests it was held to
};

// The cheapest foresight schedule the simulator shows keeping `target` of requests
// inside the objective: its headroom found by bisection (more headroom never costs
// less, and rarely keeps fewer requests). Where even the largest headroom falls short
// (requests whose prefill alone outlasts the objective), the target becomes what that
// schedule keeps, less 0.2 points, and the cheapest schedule keeping that is the oracle.
// With `maxChanges` (>= 0) the schedule changes its replicas at most that many times
// (pacedSchedule): the paced oracle.
OracleResult oracle(const std::vector<double> &rps, const Replay &replay, double target,
                    int maxChanges = -1)
{
    const size_t lead = leadMinutes(replay.options.startup);
    const auto attempt = [&](double headroom) {
        std::vector<int> need(rps.size(), 0);
        for (size_t m = 0; m < rps.size(); ++m)
            need[m] =
                rps[m] > 0 ? replicasAtOccupancy(rps[m] * headroom, replay.replicaRps, 1.0) : 0;
        std::vector<int> schedule = orderedAhead(need, lead);
        if (maxChanges >= 0)
            schedule = pacedSchedule(schedule, replay.localReplicas, maxChanges);
        return OracleResult{replaySchedule(maxChanges >= 0 ? "paced oracle" : "oracle",
                                           std::move(schedule), replay),
                            headroom, target};
    };
    constexpr double kMostHeadroom = 3.0;
    OracleResult best = attempt(kMostHeadroom);
    if (best.result.withinSloShare < target) {
        target = best.result.withinSloShare - 0.002;
        best.target = target;
    }
    double low = 0.5, high = kMostHeadroom;
    for (int i = 0; i < 7; ++i) {
        const double middle = (low + high) / 2;
        OracleResult tried = attempt(middle);
        if (tried.result.withinSloShare >= target) {
            high = middle;
            if (tried.result.rentedCardHours <= best.result.rentedCardHours)
                best = std::move(tried);
        } else {
            low = middle;
        }
    }
    return best;
}

// The exact oracle: each minute's misses measured with each count of warm replicas, the
// cheapest leases for a budget of misses planned exactly (planLeasesWithin), the plan
// replayed whole. Minutes measured alone see neither a queue spilling into the next
// minute nor the spare replicas of the one before, so the budget is calibrated on the
// replay: from what the target allows, shrunk while the replay keeps less than the
// target, grown while it keeps more; the cheapest plan that keeps the target is the
// oracle.
OracleResult exactOracle(const Replay &replay, double target)
{
    const EvaluationOptions &options = replay.options;
    MinuteMissesOptions measure;
    measure.performance = options.performance;
    measure.objectiveS = options.objectiveS;
    measure.replicaRps = replay.replicaRps;
    measure.mostReplicas =
        std::max(64, 4 * static_cast<int>(std::ceil(options.peakCards / options.cardsPerReplica)));
    const std::vector<MinuteMisses> minutes = measureMinuteMisses(replay.requests, measure);
    int64_t requests = 0;
    for (const MinuteMisses &m : minutes)
        requests += m.requests;
    const size_t lead = leadMinutes(options.startup);
    const LeasePlanOptions leases{replay.localReplicas, static_cast<int>(lead)};
    const auto attempt = [&](double share) {
        const auto budget =
            static_cast<int64_t>(std::floor((1 - target) * static_cast<double>(requests) * share));
        const LeasePlan plan = planLeasesWithin(minutes, budget, leases);
        return OracleResult{replaySchedule("oracle", orderedAhead(plan.replicas, lead), replay),
                            share, target};
    };
    const auto keeps = [&](const OracleResult &r) { return r.result.withinSloShare >= target; };
    OracleResult best = attempt(1.0);
    if (keeps(best)) {
        for (double share = 1.5; share <= 8; share *= 1.5) {
            OracleResult tried = attempt(share);
            if (!keeps(tried))
                break;
            if (tried.result.rentedCardHours <= best.result.rentedCardHours)
                best = std::move(tried);
        }
        return best;
    }
    for (const double share : {0.5, 0.25, 0.0}) {
        OracleResult tried = attempt(share);
        const bool kept = keeps(tried);
        if (kept || tried.result.withinSloShare > best.result.withinSloShare)
            best = std::move(tried);
        if (kept)
            break;
    }
    return best;
}

constexpr const char *kScheduleRow = "schedule";

// The goal for a policy's scaling actions (docs/PERFORMANCE.md), which the paced oracle
// is held to.
constexpr double kMostActionsPerDay = 20;

// Of two runs of one scaler, whether `a` serves better than `b`: more requests inside the
// objective, or as many (within 0.1 points) for fewer rented card-hours.
bool servesBetter(const EvaluationResult &a, const EvaluationResult &b)
{
    if (std::abs(a.withinSloShare - b.withinSloShare) <= kSameAttainment)
        return a.rentedCardHours < b.rentedCardHours;
    return a.withinSloShare > b.withinSloShare;
}

struct TunedMeridian {
    EvaluationResult result;
    double occupancyScale;
    double surgeCover;
};

// Meridian held to HPA's attainment, since the goal against HPA is set at equal or
// better attainment. Where HPA keeps more requests inside the objective, Meridian is
// replayed with more headroom (its target occupancies scaled down a step at a time)
// until it keeps as many, within 0.1 points; the least headroom that does is the
// cheapest. Where no headroom does (a sudden rise outruns any reaction), it is replayed
// with more surge cover instead, the least that keeps as many; where nothing tried does,
// the one keeping the most is shown.
// Where Meridian keeps more, it is replayed with less headroom while it still keeps as
// many, and the cheapest of those is shown. No row where nothing tried is cheaper.
std::optional<TunedMeridian> tuneMeridian(const Replay &replay, int initial,
                                          const EvaluationResult &meridian,
                                          const EvaluationResult &hpa)
{
    const ScalingPolicyConfig &policy = replay.options.policy;
    const auto attempt = [&](double scale) {
        ScalingPolicyConfig config = policy;
        config.targetOccupancy = std::min(1.0, config.targetOccupancy * scale);
        config.targetOccupancyWithForecast =
            std::min(1.0, config.targetOccupancyWithForecast * scale);
        return TunedMeridian{replayMeridian(kTunedMeridianRow, replay, initial, config), scale,
                             config.surgeCover};
    };
    const auto keepsAsMany = [&](const EvaluationResult &r) {
        return r.withinSloShare >= hpa.withinSloShare - kSameAttainment;
    };
    std::optional<TunedMeridian> found;
    if (keepsAsMany(meridian)) {
        double cheapest = meridian.rentedCardHours;
        for (double scale = 1.05; scale < 1.26; scale += 0.05) {
            // Past a replica's full rate less headroom is the same policy again.
            if (policy.targetOccupancy * (scale - 0.05) >= 1.0 &&
                policy.targetOccupancyWithForecast * (scale - 0.05) >= 1.0)
                break;
            TunedMeridian tried = attempt(scale);
            if (!keepsAsMany(tried.result))
                break;
            if (tried.result.rentedCardHours < cheapest) {
                cheapest = tried.result.rentedCardHours;
                found = std::move(tried);
            }
        }
        return found;
    }
    const auto keepBest = [&](TunedMeridian tried) {
        if (!found || tried.result.withinSloShare > found->result.withinSloShare)
            found = std::move(tried);
    };
    for (double scale = 0.95; scale > 0.55; scale -= 0.05) {
        TunedMeridian tried = attempt(scale);
        if (keepsAsMany(tried.result))
            return tried;
        keepBest(std::move(tried));
    }
    for (const double cover : candidateCovers()) {
        if (cover <= policy.surgeCover)
            continue;
        ScalingPolicyConfig config = policy;
        config.surgeCover = cover;
        TunedMeridian tried{replayMeridian(kTunedMeridianRow, replay, initial, config), 1.0, cover};
        if (keepsAsMany(tried.result))
            return tried;
        keepBest(std::move(tried));
    }
    return found;
}

// The static and (where asked) the Kubernetes-style baselines, and Meridian at HPA's
// attainment.
void replayBaselines(EvaluationRun &run, const Replay &replay, int initial,
                     const std::vector<double> &rps)
{
    const EvaluationOptions &options = replay.options;
    const double peak = *std::max_element(rps.begin(), rps.end());
    const double mean = std::accumulate(rps.begin(), rps.end(), 0.0) / rps.size();
    std::vector<std::pair<const char *, double>> fixedLoads = {{kStaticPeakRow, peak}};
    if (options.pastPeakRps)
        fixedLoads.emplace_back(kStaticPastPeakRow, *options.pastPeakRps);
    if (options.yardsticks.staticMean)
        fixedLoads.emplace_back("static mean", mean);
    for (const auto &[label, load] : fixedLoads) {
        const int replicas =
            replicasAtOccupancy(load, run.replicaRps, options.policy.targetOccupancy);
        StaticScaler fixed(replicas);
        run.results.push_back(simulate(label, fixed, replay, replicas, ReleaseOrder::NewestFirst));
    }
    // The baselines are scored with whichever release order serves them better: letting
    // the newest go keeps a wavering scaler's surplus at hand for nothing, which for HPA
    // costs less than Meridian's own order.
    const auto baseline = [&](const std::string &label, const auto &make) {
        EvaluationResult best;
        for (const ReleaseOrder order :
             {ReleaseOrder::NewestFirst, ReleaseOrder::SoonestPaidHourFirst}) {
            auto scaler = make();
            EvaluationResult tried = simulate(label, scaler, replay, initial, order);
            tried.releaseOrder = order;
            if (best.requests == 0 || servesBetter(tried, best))
                best = std::move(tried);
        }
        run.results.push_back(std::move(best));
    };
    if (!options.yardsticks.kubernetesBaselines)
        return;
    const int slots = options.performance.maxConcurrency;
    baseline(kHpaRow, [&] { return HpaScaler(slots); });
    const EvaluationResult hpa = run.results.back();
    baseline(kKnativeRow, [&] { return KnativeScaler(slots); });
    if (!options.yardsticks.tunedMeridian)
        return;
    if (auto tuned = tuneMeridian(replay, initial, run.results.front(), hpa)) {
        run.tunedOccupancyScale = tuned->occupancyScale;
        run.tunedSurgeCover = tuned->surgeCover;
        run.results.push_back(std::move(tuned->result));
    }
}

// Meridian told the load, the paced oracle and the oracle: the yardsticks, last.
void replayForesight(EvaluationRun &run, const Replay &replay, int initial,
                     const std::vector<double> &rps)
{
    const Yardsticks &asked = replay.options.yardsticks;
    if (asked.toldMeridian) {
        // What of Meridian's distance from the oracle is not knowing the load ahead: its
        // policy told the trace's own coming load, ordering capacity a lead ahead of it (or
        // as far ahead as it is told, to show what each minute of foresight is worth).
        ScalingPolicyConfig ahead = replay.options.policy;
        ahead.forecastOrdersAhead = true;
        run.toldAheadS = replay.options.toldAheadS.value_or(ahead.forecastLeadMs / 1000.0);
        const ToldLoad load{&rps, static_cast<int64_t>(run.toldAheadS * 1000)};
        EvaluationResult told = replayMeridian(kToldMeridianRow, replay, initial, ahead, load);
        told.toldTheLoad = true;
        run.results.push_back(std::move(told));
    }
    if (asked.pacedOracle) {
        // The paced oracle first: the oracle's row is the yardstick and stays last.
        const double days = std::max(1.0, std::ceil(replay.durationS / 86400 - 0.01));
        run.pacedOracleMaxActions = static_cast<int>(kMostActionsPerDay * days);
        OracleResult paced = oracle(rps, replay, kOracleTargetShare, run.pacedOracleMaxActions);
        run.pacedOracleHeadroom = paced.setting;
        run.results.push_back(std::move(paced.result));
    }
    // The oracle: the cheaper of the exact plan and the best demand × headroom schedule
    // that keep the target (or the one keeping more, where neither does).
    OracleResult byHeadroom = oracle(rps, replay, kOracleTargetShare);
    if (!asked.exactOracle) {
        run.oracleExact = false;
        run.oracleHeadroom = byHeadroom.setting;
        run.oracleTargetShare = byHeadroom.target;
        run.results.push_back(std::move(byHeadroom.result));
        return;
    }
    OracleResult exact = exactOracle(replay, byHeadroom.target);
    const bool exactKeeps = exact.result.withinSloShare >= byHeadroom.target;
    const bool exactWins =
        exactKeeps ? exact.result.rentedCardHours <= byHeadroom.result.rentedCardHours ||
                         byHeadroom.result.withinSloShare < byHeadroom.target
                   : exact.result.withinSloShare > byHeadroom.result.withinSloShare;
    run.oracleHeadroom = byHeadroom.setting;
    run.oracleTargetShare = byHeadroom.target;
    run.oracleExact = exactWins;
    run.oracleExactTried = true;
    run.oracleMissBudgetShare = exact.setting;
    const EvaluationResult &other = exactWins ? byHeadroom.result : exact.result;
    run.oracleOtherShare = other.withinSloShare;
    run.oracleOtherCardHours = other.rentedCardHours;
    run.results.push_back(std::move(exactWins ? exact.result : byHeadroom.result));
}

}  // namespace

const EvaluationResult *rowNamed(const EvaluationRun &run, const std::string &name)
{
    const auto it = std::find_if(run.results.begin(), run.results.end(),
                                 [&](const EvaluationResult &r) { return r.autoscaler == name; });
    return it == run.results.end() ? nullptr : &*it;
}

Result<EvaluationRun> evaluateScaling(RequestSource &original, const std::string &name,
                                      const EvaluationOptions &options)
{
    EvaluationRun run;
    run.objectiveS = options.objectiveS;
    run.standbyNodes = options.standbyNodes;
    run.prefixCacheBlocks = options.performance.prefixCacheBlocks;
    auto scaled = scaleTrace(original, name, options, run);
    if (!scaled)
        return scaled.error();
    const std::unique_ptr<RequestSource> &trace = scaled->trace;
    const std::vector<double> &rps = run.minuteRps;
    const int initial = scaled->initial;
    const Replay replay{*trace,          scaled->durationS, options,
                        run.replicaRps,  run.localReplicas, scaled->steps,
                        scaled->startRps};
    run.results.push_back(replayMeridian(kMeridianRow, replay, initial, options.policy));
    if (auto error = trace->error())
        return *error;
    // The same service keeping warm standby, at its cost.
    EvaluationOptions standby = options;
    standby.startup.standbyNodes = options.standbyNodes;
    const Replay withStandby{*trace,          scaled->durationS, standby,
                             run.replicaRps,  run.localReplicas, scaled->steps,
                             scaled->startRps};
    if (options.standbyNodes > 0)
        run.results.push_back(
            replayMeridian(kStandbyMeridianRow, withStandby, initial, options.policy));
    replayBaselines(run, replay, initial, rps);
    if (!options.schedule.empty()) {
        // As the oracle's schedule is followed: the replicas of each minute, no more.
        run.scheduleName = options.scheduleName;
        run.results.push_back(replayGivenSchedule(kScheduleRow, options.schedule, replay));
        if (options.standbyNodes > 0)
            run.results.push_back(
                replayGivenSchedule(kStandbyScheduleRow, options.schedule, withStandby));
    }
    replayForesight(run, replay, initial, rps);
    return run;
}

Result<EvaluationRun> evaluateScaling(const RequestTrace &trace, const EvaluationOptions &options)
{
    MemorySource source(trace.requests);
    return evaluateScaling(source, trace.name, options);
}

Result<EvaluationRun> replayPolicies(RequestSource &original, const std::string &name,
                                     const EvaluationOptions &options,
                                     const std::vector<ScalingPolicyConfig> &policies,
                                     const std::vector<std::string> &names)
{
    EvaluationRun run;
    run.objectiveS = options.objectiveS;
    run.prefixCacheBlocks = options.performance.prefixCacheBlocks;
    auto scaled = scaleTrace(original, name, options, run);
    if (!scaled)
        return scaled.error();
    const Replay replay{*scaled->trace,    scaled->durationS, options,         run.replicaRps,
                        run.localReplicas, scaled->steps,     scaled->startRps};
    for (size_t i = 0; i < policies.size(); ++i) {
        // Each starts as evaluateScaling starts Meridian under it.
        const int initial =
            replicasAtOccupancy(scaled->startRps, run.replicaRps, policies[i].targetOccupancy);
        run.results.push_back(replayMeridian(names.at(i), replay, initial, policies[i]));
        if (auto error = scaled->trace->error())
            return *error;
    }
    return run;
}

}  // namespace meridian
