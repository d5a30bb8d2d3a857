#include "evaluation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <numeric>
#include <optional>

#include "core/percentile.h"
#include "dailyprofile.h"
#include "pacedschedule.h"

namespace meridian {

namespace {

// What one pass over a trace learns: enough to size replicas and scale the load.
struct TraceProfile {
    int64_t requests = 0;
    double meanInputTokens = 0;
    double meanOutputTokens = 0;
    std::vector<double> rps;  // per minute
    double durationS = 0;
};

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

int replicasFor(double rps, double replicaRps, double occupancy)
{
    return std::max(1, static_cast<int>(std::ceil(rps / (replicaRps * occupancy) - 1e-9)));
}

// One autoscaler: from the interval's signals to a replica count.
class Autoscaler {
public:
    virtual ~Autoscaler() = default;
    virtual int desired(const IntervalSignals &s, double nowS, int current) = 0;
};

class StaticScaler final : public Autoscaler {
public:
    explicit StaticScaler(int replicas) : m_replicas(replicas) {}
    int desired(const IntervalSignals &, double, int) override { return m_replicas; }

private:
    int m_replicas;
};

// The highest of the per-minute rates from `nowMs`'s minute to `horizonMs` later.
double peakAhead(const std::vector<double> &minuteRps, int64_t nowMs, int64_t horizonMs)
{
    const auto from = static_cast<size_t>(std::max<int64_t>(0, nowMs / 60'000));
    const size_t to =
        std::min(minuteRps.size(), from + 1 + static_cast<size_t>(horizonMs / 60'000));
    double peak = 0;
    for (size_t m = from; m < to; ++m)
        peak = std::max(peak, minuteRps[m]);
    return peak;
}

// Meridian's own policy, fed as the live controller feeds it. Told the trace's own
// per-minute load (`toldLoad`), it forecasts from that instead of from earlier days: what
// the policy would do with a forecast that is never wrong.
class MeridianScaler final : public Autoscaler {
public:
    MeridianScaler(double replicaRps, double sloS, int warmReplicas, double intervalS,
                   ScalingPolicyConfig config, const std::vector<double> *toldLoad)
        : m_intervalS(intervalS), m_config(config), m_toldLoad(toldLoad)
    {
        m_input.replicaRps = replicaRps;
        m_input.ttftObjectiveSeconds = sloS;
        m_input.minReplicas = std::max(1, warmReplicas);
        m_input.maxReplicas = 100'000;
    }
    int desired(const IntervalSignals &s, double nowS, int current) override
    {
        const auto nowMs = static_cast<int64_t>(nowS * 1000);
        m_input.nowMs = nowMs;
        m_input.history.push_back({nowMs, s.arrivalRps, static_cast<double>(s.waiting),
                                   static_cast<double>(s.running), s.ttftP95S});
        while (m_input.history.size() > 80)  // 20 minutes is more than any window needs
            m_input.history.erase(m_input.history.begin());
        m_input.readyReplicas = s.ready;
        m_input.startingReplicas = s.starting;
        m_profile.record(nowMs, s.arrivalRps);
        if (m_toldLoad) {
            m_input.forecastRps = peakAhead(*m_toldLoad, nowMs, m_config.forecastLeadMs);
            m_input.forecastHourRps = peakAhead(*m_toldLoad, nowMs, 3'600'000);
        } else if (m_config.forecastDays > 0) {
            m_input.forecastRps = m_profile.forecast(nowMs, m_config.forecastLeadMs);
            m_input.forecastHourRps = m_profile.forecast(nowMs, 3'600'000);
        }
        const ScalingDecision decision = decideReplicas(m_input, m_config);
        int d = decision.desiredReplicas;
        if (d < current) {
            // As the live controller does: a surplus replica goes back when its paid hour
            // ends, down to what the scale-down window needs. Marking it to go earlier
            // would only have a returning demand take it back.
            const int ending = s.paidHoursEndingWithin(m_intervalS);
            d = std::max(std::min(d, decision.neededReplicas), current - ending);
        }
        if (d > current)
            m_input.lastScaleUpMs = nowMs;
        return d;
    }

private:
    double m_intervalS;
    PolicyInput m_input;
    ScalingPolicyConfig m_config;
    const std::vector<double> *m_toldLoad;
    DailyProfile m_profile{m_config.forecastDays};
};

// Kubernetes HPA on requests per replica, in flight and queued, against its batch
// slots (a demand metric that, unlike slot utilisation, does not stop at 100% when the
// queue grows): target 70%, 10% tolerance, scale-down stabilisation of five minutes,
// at most double per step.
class HpaScaler final : public Autoscaler {
public:
    explicit HpaScaler(int maxConcurrency) : m_slots(maxConcurrency) {}
    int desired(const IntervalSignals &s, double nowS, int current) override
    {
        const int ready = std::max(1, s.ready);
        int want = current;
        const double demand = static_cast<double>(s.running + s.waiting) / (ready * m_slots);
        const double ratio = demand / 0.7;
        if (std::abs(ratio - 1) > 0.1)
            want = static_cast<int>(std::ceil(ready * ratio));
        want = std::min(want, std::max(2 * current, current + 4));
        m_recent.emplace_back(nowS, want);
        while (m_recent.front().first < nowS - 300)
            m_recent.pop_front();
        if (want < current) {
            for (const auto &[at, w] : m_recent)
                want = std::max(want, w);
            want = std::min(want, current);
        }
        return std::max(1, want);
    }

private:
    int m_slots;
    std::deque<std::pair<double, int>> m_recent;
};

// Knative KPA on concurrency (in flight and queued), target 70% of a replica's batch,
// a 60 s stable window and a panic mode at twice the capacity.
class KnativeScaler final : public Autoscaler {
public:
    explicit KnativeScaler(int maxConcurrency) : m_target(0.7 * maxConcurrency) {}
    int desired(const IntervalSignals &s, double nowS, int current) override
    {
        const double concurrency = s.running + s.waiting;
        m_recent.emplace_back(nowS, concurrency);
        while (m_recent.front().first < nowS - 60)
            m_recent.pop_front();
        double sum = 0;
        for (const auto &[at, c] : m_recent)
            sum += c;
        const int stable = static_cast<int>(std::ceil(sum / m_recent.size() / m_target));
        const int panic = static_cast<int>(std::ceil(concurrency / m_target));
        if (panic >= 2 * std::max(1, s.ready))
            m_panicUntil = nowS + 60;
        int want = nowS < m_panicUntil ? std::max(current, panic) : stable;
        want = std::max(want, (current + 1) / 2);  // max-scale-down-rate 2
        return std::max(1, want);
    }

private:
    double m_target;
    double m_panicUntil = -1;
    std::deque<std::pair<double, double>> m_recent;
};

// Perfect foresight: follows a schedule made from the whole trace in advance (each
// minute the replicas its demand needs, times a headroom, ordered early enough that the
// slowest provisioning and cold start is over when the demand comes).
class ForesightScaler final : public Autoscaler {
public:
    explicit ForesightScaler(std::vector<int> replicasByMinute)
        : m_schedule(std::move(replicasByMinute))
    {}
    int desired(const IntervalSignals &, double nowS, int) override
    {
        // After the trace it keeps what it has while the last requests are answered.
        const auto minute = static_cast<size_t>(std::max(0.0, nowS) / 60);
        if (m_schedule.empty())
            return 1;
        return std::max(1, m_schedule[std::min(minute, m_schedule.size() - 1)]);
    }

private:
    std::vector<int> m_schedule;
};

// Each minute's replicas are there `leadMinutes` before the minutes that need them.
std::vector<int> orderedAhead(const std::vector<int> &need, size_t leadMinutes)
{
    std::vector<int> ahead(need.size(), 0);
    for (size_t m = 0; m < need.size(); ++m) {
        for (size_t n = m; n <= m + leadMinutes && n < need.size(); ++n)
            ahead[m] = std::max(ahead[m], need[n]);
    }
    return ahead;
}

struct LoadStep {
    double startS;
    int needed;  // replicas the new load needs
};

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
        const int neededBefore = replicasFor(before, replicaRps, 1.0);
        const int needed = replicasFor(rps[m], replicaRps, 1.0);
        if (rps[m] >= 1.5 * before && needed >= neededBefore + 2 && m * 60.0 - lastS >= 600) {
            steps.push_back({m * 60.0, needed});
            lastS = m * 60.0;
        }
    }
    return steps;
}

// Everything a replay needs besides the autoscaler.
struct Replay {
    RequestSource &requests;
    double durationS;
    const EvaluationOptions &options;
    double replicaRps;
    int localReplicas;
    const std::vector<LoadStep> &steps;
};

EvaluationResult simulate(const std::string &name, Autoscaler &scaler, const Replay &replay,
                          int initialReplicas, ReleaseOrder order)
{
    const EvaluationOptions &options = replay.options;
    ServingSim sim(replay.requests, options.performance, options.startup, replay.localReplicas,
                   initialReplicas, options.sloTtftS, options.seed);
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
        const auto minute = static_cast<size_t>(t / 60 - 1e-9);
        if (minute >= r.minuteReplicas.size())
            r.minuteReplicas.resize(minute + 1, 0);
        r.minuteReplicas[minute] = want;
    }
    const ServingSim::Totals totals = sim.finish();
    r.requests = totals.requests;
    r.withinSloShare =
        totals.requests ? static_cast<double>(totals.withinSlo) / totals.requests : 1;
    r.ttftP95S = totals.ttft.percentile(0.95);
    r.ttftP99S = totals.ttft.percentile(0.99);
    r.e2eP95S = totals.e2e.percentile(0.95);
    // Per-minute p95: the worst minute, and the share of minutes inside the objective.
    int minutes = 0, good = 0;
    for (const float p95 : totals.ttftP95ByMinute) {
        if (p95 < 0)
            continue;
        ++minutes;
        r.worstMinuteP95S = std::max(r.worstMinuteP95S, static_cast<double>(p95));
        good += p95 <= options.sloTtftS;
    }
    r.minutesMeetingSloShare = minutes ? static_cast<double>(good) / minutes : 1;
    r.minuteP95S = totals.ttftP95ByMinute;
    r.localCardHours = totals.localReplicaSeconds / 3600 * options.cardsPerReplica;
    r.rentedCardHours = totals.rentedBilledSeconds / 3600 * options.cardsPerReplica;
    r.costCny = r.localCardHours * options.cnyPerLocalCardHour +
                r.rentedCardHours * options.cnyPerRentedCardHour;
    r.occupancy = totals.readyReplicaSeconds > 0
                      ? totals.busyRequestSeconds /
                            (totals.readyReplicaSeconds * options.performance.maxConcurrency)
                      : 0;
    // How fast each load step was answered: the first scale-up, and ready capacity.
    std::vector<double> decision, serving;
    for (const LoadStep &step : replay.steps) {
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
    r.loadSteps = static_cast<int>(replay.steps.size());
    r.stepDecisionS = nearestRankPercentile(decision, 0.5);
    r.stepServingS = nearestRankPercentile(serving, 0.5);
    return r;
}

struct OracleResult {
    EvaluationResult result;
    double headroom;
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
    const StartupTimes &startup = replay.options.startup;
    const auto leadMinutes =
        static_cast<size_t>(std::ceil((startup.provisioningMaxS + startup.coldStartMaxS) / 60));
    const auto attempt = [&](double headroom) {
        std::vector<int> need(rps.size(), 0);
        for (size_t m = 0; m < rps.size(); ++m)
            need[m] = rps[m] > 0 ? replicasFor(rps[m] * headroom, replay.replicaRps, 1.0) : 0;
        std::vector<int> schedule = orderedAhead(need, leadMinutes);
        if (maxChanges >= 0)
            schedule = pacedSchedule(schedule, replay.localReplicas, maxChanges);
        const int initial = std::max(1, schedule.empty() ? 0 : schedule.front());
        ForesightScaler foresight(std::move(schedule));
        EvaluationResult result = simulate(maxChanges >= 0 ? "paced oracle" : "oracle", foresight,
                                           replay, initial, ReleaseOrder::SoonestPaidHourFirst);
        result.foresight = true;
        return OracleResult{std::move(result), headroom, target};
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

// The goal for a policy's scaling actions, which the paced oracle is held to.
constexpr double kMostActionsPerDay = 20;

// Of two runs of one scaler, whether `a` serves better than `b`: more requests inside the
// objective, or as many (within 0.1 points) for fewer rented card-hours.
bool servesBetter(const EvaluationResult &a, const EvaluationResult &b)
{
    if (std::abs(a.withinSloShare - b.withinSloShare) <= kSameAttainment)
        return a.rentedCardHours < b.rentedCardHours;
    return a.withinSloShare > b.withinSloShare;
}

// Meridian's policy replayed as the live controller runs it, under `config`; told the
// trace's load where `toldLoad` is given.
EvaluationResult replayMeridian(const std::string &name, const Replay &replay, int initial,
                                const ScalingPolicyConfig &config,
                                const std::vector<double> *toldLoad = nullptr)
{
    const EvaluationOptions &options = replay.options;
    MeridianScaler scaler(replay.replicaRps, options.sloTtftS, replay.localReplicas,
                          options.intervalS, config, toldLoad);
    return simulate(name, scaler, replay, initial, ReleaseOrder::SoonestPaidHourFirst);
}

struct TunedMeridian {
    EvaluationResult result;
    double occupancyScale;
};

// Meridian held to HPA's attainment, since the goal against HPA is set at equal or
// better attainment. Where HPA keeps more requests inside the objective, Meridian is
// replayed with more headroom (its target occupancies scaled down a step at a time)
// until it keeps as many, within 0.1 points; the least headroom that does is the
// cheapest, and where none of the steps does, the one keeping the most is shown.
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
        return TunedMeridian{replayMeridian(kTunedMeridianRow, replay, initial, config), scale};
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
    for (double scale = 0.95; scale > 0.55; scale -= 0.05) {
        TunedMeridian tried = attempt(scale);
        if (keepsAsMany(tried.result))
            return tried;
        if (!found || tried.result.withinSloShare > found->result.withinSloShare)
            found = std::move(tried);
    }
    return found;
}

// A replay has to finish: this many requests take minutes per autoscaler already.
constexpr double kMostReplayedRequests = 200'000'000;

// What one replica sustains on this mix: decode slots and the prefill budget, with a
// margin so the queue stays short.
double replicaRate(const TraceProfile &profile, const EvaluationOptions &options)
{
    const ReplicaPerformance &p = options.performance;
    const double meanIn = profile.meanInputTokens;
    const double bySlots = p.maxConcurrency / (meanIn / p.prefillTokensPerSecond +
                                               profile.meanOutputTokens / p.decodeTokensPerSecond);
    // Prefill is a queue per replica (M/D/1): keep the p95 wait (about three mean waits)
    // plus the prefill itself inside the objective.
    const double prefillS = meanIn / p.prefillTokensPerSecond;
    const double k = std::max(0.05, 2 * (options.sloTtftS - prefillS) / (3 * prefillS));
    const double prefillLoad = std::min(0.85, k / (1 + k));
    const double byPrefill = prefillLoad / std::max(1e-6, prefillS);
    return std::min(0.85 * bySlots, byPrefill);
}

// The static and the Kubernetes-style baselines, and Meridian at HPA's attainment.
void replayBaselines(EvaluationRun &run, const Replay &replay, int initial,
                     const std::vector<double> &rps)
{
    const EvaluationOptions &options = replay.options;
    const double peak = *std::max_element(rps.begin(), rps.end());
    const double mean = std::accumulate(rps.begin(), rps.end(), 0.0) / rps.size();
    const std::pair<const char *, double> fixedLoads[] = {{"static peak", peak},
                                                          {"static mean", mean}};
    for (const auto &[label, load] : fixedLoads) {
        const int replicas = replicasFor(load, run.replicaRps, options.policy.targetOccupancy);
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
    const int slots = options.performance.maxConcurrency;
    baseline(kHpaRow, [&] { return HpaScaler(slots); });
    const EvaluationResult hpa = run.results.back();
    baseline("knative-style", [&] { return KnativeScaler(slots); });
    if (auto tuned = tuneMeridian(replay, initial, run.results.front(), hpa)) {
        run.tunedOccupancyScale = tuned->occupancyScale;
        run.results.push_back(std::move(tuned->result));
    }
}

// Meridian told the load, the paced oracle and the oracle: the yardsticks, last.
void replayForesight(EvaluationRun &run, const Replay &replay, int initial,
                     const std::vector<double> &rps)
{
    // What of Meridian's distance from the oracle is not knowing the load ahead: its
    // policy told the trace's own coming load, ordering capacity a lead ahead of it.
    ScalingPolicyConfig ahead = replay.options.policy;
    ahead.forecastOrdersAhead = true;
    EvaluationResult told = replayMeridian(kToldMeridianRow, replay, initial, ahead, &rps);
    told.toldTheLoad = true;
    run.results.push_back(std::move(told));
    // The paced oracle first: the oracle's row is the yardstick and stays last.
    const double days = std::max(1.0, std::ceil(replay.durationS / 86400 - 0.01));
    run.pacedOracleMaxActions = static_cast<int>(kMostActionsPerDay * days);
    OracleResult paced = oracle(rps, replay, kOracleTargetShare, run.pacedOracleMaxActions);
    run.pacedOracleHeadroom = paced.headroom;
    run.results.push_back(std::move(paced.result));
    OracleResult best = oracle(rps, replay, kOracleTargetShare);
    run.oracleHeadroom = best.headroom;
    run.oracleTargetShare = best.target;
    run.results.push_back(std::move(best.result));
}

}  // namespace

Result<EvaluationRun> evaluateScaling(RequestSource &original, const std::string &name,
                                      const EvaluationOptions &options)
{
    auto profile = profileTrace(original, name);
    if (!profile)
        return profile.error();
    EvaluationRun run;
    run.trace = name;
    run.replicaRps = replicaRate(profile.value(), options);
    // Scale the trace so its busiest minute needs peakCards.
    const double rawPeak = *std::max_element(profile->rps.begin(), profile->rps.end());
    run.scaleFactor = options.peakCards / options.cardsPerReplica * run.replicaRps / rawPeak;
    const double expected = static_cast<double>(profile->requests) * run.scaleFactor;
    if (expected > kMostReplayedRequests)
        return Error{fmt::format(
            "{}: scaled to {} cards at its peak it would hold about {:.0f} million requests, "
            "more than a replay finishes ({:.0f} million); ask for fewer --peak-cards or "
            "fewer --hours",
            name, options.peakCards, expected / 1e6, kMostReplayedRequests / 1e6)};
    const std::unique_ptr<RequestSource> trace = original.scaled(run.scaleFactor, options.seed);
    auto scaledProfile = profileTrace(*trace, name);
    if (!scaledProfile)
        return scaledProfile.error();
    const std::vector<double> &rps = scaledProfile->rps;
    run.minuteRps = rps;
    const double localCards = options.localCards >= 0 ? options.localCards : options.peakCards / 2;
    run.localReplicas = static_cast<int>(localCards / options.cardsPerReplica);
    const double start =
        std::accumulate(rps.begin(), rps.begin() + std::min<long>(5, rps.size()), 0.0) /
        std::min<double>(5, rps.size());
    const int initial = replicasFor(start, run.replicaRps, options.policy.targetOccupancy);
    const std::vector<LoadStep> steps = loadSteps(rps, run.replicaRps);
    const Replay replay{*trace,         scaledProfile->durationS, options,
                        run.replicaRps, run.localReplicas,        steps};
    run.results.push_back(replayMeridian(kMeridianRow, replay, initial, options.policy));
    if (auto error = trace->error())
        return *error;
    replayBaselines(run, replay, initial, rps);
    replayForesight(run, replay, initial, rps);
    return run;
}

Result<EvaluationRun> evaluateScaling(const RequestTrace &trace, const EvaluationOptions &options)
{
    MemorySource source(trace.requests);
    return evaluateScaling(source, trace.name, options);
}

}  // namespace meridian
