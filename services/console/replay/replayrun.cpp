#include "replayrun.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/percentile.h"

namespace meridian {

namespace {

// Minutes whose load is half again the mean of the ten before and needs two or more
// replicas beyond it; at most one per ten minutes.
std::vector<LoadStep> loadSteps(const std::vector<double> &rps, double replicaRps)
{
    std::vector<LoadStep> steps;
    double lastS = -1e9;
    for (size_t m = 10; m < rps.size(); ++m) {
        const double before = std::accumulate(rps.begin() + static_cast<long>(m - 10),
                                              rps.begin() + static_cast<long>(m), 0.0) /
                              10;
        const int neededBefore = replicasAtOccupancy(before, replicaRps, 1.0);
        const int needed = replicasAtOccupancy(rps[m], replicaRps, 1.0);
        if (rps[m] >= 1.5 * before && needed >= neededBefore + 2 && m * 60.0 - lastS >= 600) {
            steps.push_back({m * 60.0, needed});
            lastS = m * 60.0;
        }
    }
    return steps;
}

// The figures of a finished replay: latency, attainment, card-hours and cost.
void recordTotals(EvaluationResult &r, const ServingSim::Totals &totals,
                  const EvaluationOptions &options)
{
    r.requests = totals.requests;
    const auto share = [&](int64_t count) {
        return totals.requests ? static_cast<double>(count) / totals.requests : 1;
    };
    r.withinSloShare = share(totals.withinSlo);
    r.lowestWithinSloShare = r.highestWithinSloShare = r.withinSloShare;
    r.withinTtftShare = share(totals.withinTtft);
    r.queueDelayP95S = totals.queueDelay.percentile(0.95);
    r.ttftP95S = totals.ttft.percentile(0.95);
    r.ttftP99S = totals.ttft.percentile(0.99);
    r.e2eP95S = totals.e2e.percentile(0.95);
    // Per-minute p95: the worst minute, and the share of minutes inside the objective.
    int minutes = 0, good = 0;
    for (const float p95 : totals.queueDelayP95ByMinute) {
        if (p95 < 0)
            continue;
        ++minutes;
        r.worstMinuteP95S = std::max(r.worstMinuteP95S, static_cast<double>(p95));
        good += p95 <= options.objectiveS;
    }
    r.minutesMeetingSloShare = minutes ? static_cast<double>(good) / minutes : 1;
    r.minuteP95S = totals.queueDelayP95ByMinute;
    r.cachedPromptShare = totals.promptTokens > 0 ? static_cast<double>(totals.cachedPromptTokens) /
                                                        static_cast<double>(totals.promptTokens)
                                                  : 0;
    r.localCardHours = totals.localReplicaSeconds / 3600 * options.cardsPerReplica;
    r.rentedCardHours =
        (totals.rentedBilledSeconds + totals.standbyBilledSeconds) / 3600 * options.cardsPerReplica;
    r.standbyCardHours = totals.standbyBilledSeconds / 3600 * options.cardsPerReplica;
    r.replicaStartS = nearestRankPercentile(totals.startupS, 0.5);
    r.costCny = r.localCardHours * options.cnyPerLocalCardHour +
                r.rentedCardHours * options.cnyPerRentedCardHour;
    r.occupancy = totals.readyReplicaSeconds > 0
                      ? totals.busyRequestSeconds /
                            (totals.readyReplicaSeconds * options.performance.maxConcurrency)
                      : 0;
}

// A replay has to finish: this many requests take minutes per autoscaler already.
constexpr double kMostReplayedRequests = 200'000'000;

// How fast each load step was answered: the first scale-up after it, and the first pass
// with the capacity it needs ready (30 minutes at most); the median of each.
void timeStepAnswers(EvaluationResult &r, const std::vector<LoadStep> &steps,
                     const std::vector<double> &upTimes,
                     const std::vector<std::pair<double, int>> &ready)
{
    std::vector<double> decision, serving;
    for (const LoadStep &step : steps) {
        const auto up = std::lower_bound(upTimes.begin(), upTimes.end(), step.startS);
        decision.push_back(up != upTimes.end() ? std::min(*up - step.startS, 1800.0) : 1800.0);
        double covered = 1800;
        for (const auto &[t, n] : ready) {
            if (t >= step.startS && n >= step.needed) {
                covered = std::min(t - step.startS, 1800.0);
                break;
            }
        }
        serving.push_back(covered);
    }
    r.loadSteps = static_cast<int>(steps.size());
    r.stepDecisionS = nearestRankPercentile(decision, 0.5);
    r.stepServingS = nearestRankPercentile(serving, 0.5);
}

}  // namespace

// Decode slots and the prefill budget, with a margin so the queue stays short.
double sustainedReplicaRps(const TraceProfile &profile, const EvaluationOptions &options)
{
    const ReplicaPerformance &p = options.performance;
    const double meanIn = profile.meanInputTokens;
    const double bySlots = p.maxConcurrency / (meanIn / p.prefillTokensPerSecond +
                                               profile.meanOutputTokens / p.decodeTokensPerSecond);
    // Prefill is a queue per replica (M/D/1): keep the p95 wait (about three mean waits)
    // inside the objective, which is on the wait, not on the prefill itself.
    const double prefillS = meanIn / p.prefillTokensPerSecond;
    const double k = std::max(0.05, 2 * options.objectiveS / (3 * prefillS));
    const double prefillLoad = std::min(0.85, k / (1 + k));
    const double byPrefill = prefillLoad / std::max(1e-6, prefillS);
    return std::min(0.85 * bySlots, byPrefill);
}

Result<TraceProfile> profileTrace(RequestSource &source, const std::string &name)
{
    TraceProfile profile;
    source.rewind();
    TraceRequest r;
    double input = 0, output = 0, last = 0;
    while (source.next(r)) {
        ++profile.requests;
        input += r.inputTokens;
        output += r.outputTokens;
        const auto minute = static_cast<size_t>(r.arrivalS / 60);
        if (minute >= profile.rps.size())
            profile.rps.resize(minute + 1, 0.0);
        profile.rps[minute] += 1.0 / 60;
        last = r.arrivalS;
    }
    if (auto error = source.error())
        return *error;
    if (profile.requests == 0)
        return Error{fmt::format("{}: no requests", name)};
    profile.meanInputTokens = input / static_cast<double>(profile.requests);
    profile.meanOutputTokens = output / static_cast<double>(profile.requests);
    profile.durationS = last + 1;
    return profile;
}

int replicasAtOccupancy(double rps, double replicaRps, double occupancy)
{
    return std::max(1, static_cast<int>(std::ceil(rps / (replicaRps * occupancy) - 1e-9)));
}

EvaluationResult simulate(const std::string &name, Autoscaler &scaler, const Replay &replay,
                          int initialReplicas, ReleaseOrder order)
{
    const EvaluationOptions &options = replay.options;
    ServingSim sim(replay.requests, options.performance, options.startup, replay.localReplicas,
                   initialReplicas, options.objectiveS, options.seed);
    EvaluationResult r;
    r.autoscaler = name;
    double lastUp = -1e9, lastDown = -1e9;
    std::vector<double> upTimes;
    std::vector<std::pair<double, int>> ready;
    for (double t = options.intervalS;; t += options.intervalS) {
        sim.runUntil(t);
        if ((t >= replay.durationS && sim.finished()) || t > replay.durationS + 3600)
            break;
        const IntervalSignals s = sim.signals(options.intervalS);
        const int current = s.ready + s.starting;
        const int want = scaler.desired(s, t, current);
        if (want != current) {
            ++r.scaleActions;
            if (want > current) {
                r.reversals += t - lastDown < 600;
                lastUp = t;
                upTimes.push_back(t);
            } else {
                r.reversals += t - lastUp < 600;
                lastDown = t;
            }
            // Every autoscaler keeps what it has paid for to the end of the paid hour.
            sim.setDesired(want, order);
        }
        ready.emplace_back(t, s.ready);
        // The minute a decision is for, as a schedule counts it (a decision at 60 s is
        // minute 1's): the --minutes file then replays as the row it came from.
        const auto minute = static_cast<size_t>(t / 60);
        if (minute >= r.minuteReplicas.size()) {
            r.minuteReplicas.resize(minute + 1, 0);
            r.minuteStates.resize(minute + 1);
        }
        r.minuteReplicas[minute] = want;
        r.minuteStates[minute] = {static_cast<float>(s.arrivalRps), want,    s.provisioning,
                                  s.starting - s.provisioning,      s.ready, s.waiting};
    }
    recordTotals(r, sim.finish(), options);
    timeStepAnswers(r, replay.steps, upTimes, ready);
    return r;
}

EvaluationResult replayMeridian(const std::string &name, const Replay &replay, int initial,
                                const ScalingPolicyConfig &config, ToldLoad told)
{
    const EvaluationOptions &options = replay.options;
    MeridianScaler scaler(replay.replicaRps, options.objectiveS, replay.localReplicas,
                          options.intervalS, config, told);
    scaler.ranBefore(replay.startRps);
    return simulate(name, scaler, replay, initial, ReleaseOrder::SoonestPaidHourFirst);
}

Result<ScaledTrace> scaleTrace(RequestSource &original, const std::string &name,
                               const EvaluationOptions &options, EvaluationRun &run)
{
    auto profile = profileTrace(original, name);
    if (!profile)
        return profile.error();
    run.trace = name;
    run.replicaRps = sustainedReplicaRps(profile.value(), options);
    const double rawPeak = *std::max_element(profile->rps.begin(), profile->rps.end());
    run.scaleFactor = options.scaleFactor.value_or(options.peakCards / options.cardsPerReplica *
                                                   run.replicaRps / rawPeak);
    const double expected = static_cast<double>(profile->requests) * run.scaleFactor;
    if (expected > kMostReplayedRequests)
        return Error{fmt::format(
            "{}: scaled to {} cards at its peak it would hold about {:.0f} million requests, "
            "more than a replay finishes ({:.0f} million); ask for fewer --peak-cards or "
            "fewer --hours",
            name, options.peakCards, expected / 1e6, kMostReplayedRequests / 1e6)};
    ScaledTrace scaled;
    scaled.trace = original.scaled(run.scaleFactor, options.seed);
    auto scaledProfile = profileTrace(*scaled.trace, name);
    if (!scaledProfile)
        return scaledProfile.error();
    scaled.durationS = scaledProfile->durationS;
    const std::vector<double> &rps = scaledProfile->rps;
    run.minuteRps = rps;
    const double localCards = options.localCards >= 0 ? options.localCards : options.peakCards / 2;
    run.localReplicas = static_cast<int>(localCards / options.cardsPerReplica);
    scaled.startRps =
        std::accumulate(rps.begin(), rps.begin() + std::min<long>(5, rps.size()), 0.0) /
        std::min<double>(5, rps.size());
    scaled.initial =
        replicasAtOccupancy(scaled.startRps, run.replicaRps, options.policy.targetOccupancy);
    scaled.steps = loadSteps(rps, run.replicaRps);
    return scaled;
}

}  // namespace meridian
