#include "evaluation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>

namespace meridian {

namespace {

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    const size_t k = std::min(values.size() - 1, static_cast<size_t>(p * values.size()));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(k), values.end());
    return values[k];
}

std::vector<double> perMinuteRps(const RequestTrace &trace)
{
    std::vector<double> rps(static_cast<size_t>(trace.durationS / 60) + 1, 0.0);
    for (const TraceRequest &r : trace.requests)
        rps[static_cast<size_t>(r.arrivalS / 60)] += 1.0 / 60;
    return rps;
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
    virtual bool billingAware() const { return false; }
};

class StaticScaler final : public Autoscaler {
public:
    explicit StaticScaler(int replicas) : m_replicas(replicas) {}
    int desired(const IntervalSignals &, double, int) override { return m_replicas; }

private:
    int m_replicas;
};

// Meridian's own policy, fed as the live controller feeds it.
class MeridianScaler final : public Autoscaler {
public:
    MeridianScaler(double replicaRps, double sloS, ScalingPolicyConfig config) : m_config(config)
    {
        m_input.replicaRps = replicaRps;
        m_input.ttftObjectiveSeconds = sloS;
        m_input.minReplicas = 1;
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
        const int d = decideReplicas(m_input, m_config).desiredReplicas;
        if (d > current)
            m_input.lastScaleUpMs = nowMs;
        return d;
    }
    bool billingAware() const override { return true; }

private:
    PolicyInput m_input;
    ScalingPolicyConfig m_config;
};

// Kubernetes HPA on replica utilisation (occupied batch slots), target 70%, 10%
// tolerance, scale-down stabilisation of five minutes, at most double per step.
class HpaScaler final : public Autoscaler {
public:
    int desired(const IntervalSignals &s, double nowS, int current) override
    {
        const int ready = std::max(1, s.ready);
        int want = current;
        const double ratio = s.occupancy / 0.7;
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

EvaluationResult simulate(const std::string &name, Autoscaler &scaler, const RequestTrace &trace,
                          const EvaluationOptions &options, double replicaRps, int localReplicas,
                          int initialReplicas, const std::vector<LoadStep> &steps)
{
    ServingSim sim(trace, options.performance, options.startup, localReplicas, initialReplicas,
                   options.seed);
    EvaluationResult r;
    r.autoscaler = name;
    double lastUp = -1e9, lastDown = -1e9;
    std::vector<double> upTimes;
    std::vector<std::pair<double, int>> ready;
    for (double t = options.intervalS;; t += options.intervalS) {
        sim.runUntil(t);
        if ((t >= trace.durationS && sim.finished()) || t > trace.durationS + 3600)
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
            sim.setDesired(want, scaler.billingAware());
        }
        ready.emplace_back(t, s.ready);
    }
    const ServingSim::Totals totals = sim.finish(options.sloTtftS);
    r.requests = totals.requests;
    r.withinSloShare =
        totals.requests ? static_cast<double>(totals.withinSlo) / totals.requests : 1;
    r.ttftP95S = percentile(totals.ttftS, 0.95);
    r.ttftP99S = percentile(totals.ttftS, 0.99);
    r.e2eP95S = percentile(totals.e2eS, 0.95);
    // Per-minute p95: the worst minute, and the share of minutes inside the objective.
    std::map<int, std::vector<double>> byMinute;
    for (size_t i = 0; i < totals.ttftS.size(); ++i)
        byMinute[static_cast<int>(totals.ttftMinute[i])].push_back(totals.ttftS[i]);
    int good = 0;
    for (auto &[minute, values] : byMinute) {
        const double p95 = percentile(values, 0.95);
        r.worstMinuteP95S = std::max(r.worstMinuteP95S, p95);
        good += p95 <= options.sloTtftS;
    }
    r.minutesMeetingSloShare = byMinute.empty() ? 1 : static_cast<double>(good) / byMinute.size();
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
    r.stepDecisionS = percentile(decision, 0.5);
    r.stepServingS = percentile(serving, 0.5);
    return r;
}

// Perfect foresight: each minute exactly the replicas its demand needs, ready in advance.
// Local replicas first; rented ones are leases billed per started hour, kept only while
// needed and renewed only when still needed when their hour ends (which is optimal for
// covering a known demand with one-hour blocks).
EvaluationResult oracle(const std::vector<double> &rps, const EvaluationOptions &options,
                        double replicaRps, int localReplicas)
{
    EvaluationResult r;
    r.autoscaler = "oracle";
    r.simulated = false;
    r.withinSloShare = 1;
    r.minutesMeetingSloShare = 1;
    double demand = 0, capacity = 0;
    std::vector<int> leaseEnds;  // minute each running lease's paid hour ends
    int rentedHours = 0;
    for (size_t m = 0; m < rps.size(); ++m) {
        const int need = rps[m] > 0 ? replicasFor(rps[m], replicaRps, 1.0) : 0;
        const int rentedNeed = std::max(0, need - localReplicas);
        std::erase_if(leaseEnds, [&](int end) { return end <= static_cast<int>(m); });
        while (static_cast<int>(leaseEnds.size()) < rentedNeed) {
            leaseEnds.push_back(static_cast<int>(m) + 60);
            ++rentedHours;
        }
        r.localCardHours += std::min(need, localReplicas) * options.cardsPerReplica / 60.0;
        demand += rps[m];
        capacity += need * replicaRps;
    }
    r.rentedCardHours = rentedHours * options.cardsPerReplica;
    r.costCny = r.localCardHours * options.cnyPerLocalCardHour +
                r.rentedCardHours * options.cnyPerRentedCardHour;
    r.occupancy = capacity > 0 ? demand / capacity : 0;
    return r;
}

}  // namespace

EvaluationRun evaluateScaling(const RequestTrace &original, const EvaluationOptions &options)
{
    EvaluationRun run;
    run.trace = original.name;
    // What one replica sustains on this mix: decode slots and the prefill budget, with a
    // margin so the queue stays short.
    double meanIn = 0, meanOut = 0;
    for (const TraceRequest &r : original.requests) {
        meanIn += r.inputTokens;
        meanOut += r.outputTokens;
    }
    meanIn /= original.requests.size();
    meanOut /= original.requests.size();
    const ReplicaPerformance &p = options.performance;
    const double bySlots =
        p.maxConcurrency / (meanIn / p.prefillTokensPerSecond + meanOut / p.decodeTokensPerSecond);
    // Prefill is a queue per replica (M/D/1): keep the p95 wait (about three mean waits)
    // plus the prefill itself inside the objective.
    const double prefillS = meanIn / p.prefillTokensPerSecond;
    const double k = std::max(0.05, 2 * (options.sloTtftS - prefillS) / (3 * prefillS));
    const double prefillLoad = std::min(0.85, k / (1 + k));
    const double byPrefill = prefillLoad / std::max(1e-6, prefillS);
    run.replicaRps = std::min(0.85 * bySlots, byPrefill);
    // Scale the trace so its busiest minute needs peakCards.
    const std::vector<double> rawRps = perMinuteRps(original);
    const double rawPeak = *std::max_element(rawRps.begin(), rawRps.end());
    run.scaleFactor = options.peakCards / options.cardsPerReplica * run.replicaRps / rawPeak;
    const RequestTrace trace = scaleTrace(original, run.scaleFactor, options.seed);
    const std::vector<double> rps = perMinuteRps(trace);
    const double localCards = options.localCards >= 0 ? options.localCards : options.peakCards / 2;
    run.localReplicas = static_cast<int>(localCards / options.cardsPerReplica);
    const double peak = *std::max_element(rps.begin(), rps.end());
    const double mean = std::accumulate(rps.begin(), rps.end(), 0.0) / rps.size();
    const double start =
        std::accumulate(rps.begin(), rps.begin() + std::min<long>(5, rps.size()), 0.0) /
        std::min<double>(5, rps.size());
    const int initial = replicasFor(start, run.replicaRps, options.policy.targetOccupancy);
    const std::vector<LoadStep> steps = loadSteps(rps, run.replicaRps);

    MeridianScaler meridian(run.replicaRps, options.sloTtftS, options.policy);
    StaticScaler staticPeak(replicasFor(peak, run.replicaRps, options.policy.targetOccupancy));
    StaticScaler staticMean(replicasFor(mean, run.replicaRps, options.policy.targetOccupancy));
    HpaScaler hpa;
    KnativeScaler knative(p.maxConcurrency);
    const std::vector<std::pair<std::string, Autoscaler *>> scalers = {{"meridian", &meridian},
                                                                       {"static peak", &staticPeak},
                                                                       {"static mean", &staticMean},
                                                                       {"hpa-style", &hpa},
                                                                       {"knative-style", &knative}};
    for (const auto &[name, scaler] : scalers) {
        const bool isStatic = name.rfind("static", 0) == 0;
        const int first = isStatic ? scaler->desired({}, 0, 0) : initial;
        run.results.push_back(simulate(name, *scaler, trace, options, run.replicaRps,
                                       run.localReplicas, first, steps));
    }
    run.results.push_back(oracle(rps, options, run.replicaRps, run.localReplicas));
    return run;
}

std::string evaluationTable(const EvaluationRun &run)
{
    const EvaluationResult &lowerBound = run.results.back();
    std::string out = fmt::format(
        "{}: scaled ×{:.3f} ({} requests), {:.2f} req/s per replica, {} local replicas\n",
        run.trace, run.scaleFactor, run.results.front().requests, run.replicaRps,
        run.localReplicas);
    out += fmt::format("{:<22}{:>9}{:>9}{:>10}{:>10}{:>10}{:>8}{:>10}{:>7}{:>8}{:>6}{:>9}{:>9}\n",
                       "autoscaler", "in SLO", "p95 s", "worst p95", "local c-h", "rented c-h",
                       "×oracle", "cost CNY", "occ.", "actions", "rev.", "decide s", "serve s");
    for (const EvaluationResult &r : run.results) {
        const double ratio =
            lowerBound.rentedCardHours > 0 ? r.rentedCardHours / lowerBound.rentedCardHours : 0;
        out += fmt::format(
            "{:<22}{:>8.2f}%{:>9.2f}{:>10.1f}{:>10.1f}{:>10.1f}{:>8.2f}{:>10.0f}{:>6.0f}%{:>8}{:>6}"
            "{:>9}{:>9}\n",
            r.autoscaler, 100 * r.withinSloShare, r.ttftP95S, r.worstMinuteP95S, r.localCardHours,
            r.rentedCardHours, ratio, r.costCny, 100 * r.occupancy, r.scaleActions, r.reversals,
            r.simulated && r.loadSteps ? fmt::format("{:.0f}", r.stepDecisionS) : "–",
            r.simulated && r.loadSteps ? fmt::format("{:.0f}", r.stepServingS) : "–");
    }
    return out;
}

std::string evaluationJson(const EvaluationRun &run)
{
    nlohmann::json results = nlohmann::json::array();
    for (const EvaluationResult &r : run.results) {
        results.push_back({{"autoscaler", r.autoscaler},
                           {"simulated", r.simulated},
                           {"requests", r.requests},
                           {"within_slo_share", r.withinSloShare},
                           {"ttft_p95_s", r.ttftP95S},
                           {"ttft_p99_s", r.ttftP99S},
                           {"worst_minute_ttft_p95_s", r.worstMinuteP95S},
                           {"minutes_meeting_slo_share", r.minutesMeetingSloShare},
                           {"e2e_p95_s", r.e2eP95S},
                           {"local_card_hours", r.localCardHours},
                           {"rented_card_hours", r.rentedCardHours},
                           {"cost_cny", r.costCny},
                           {"occupancy", r.occupancy},
                           {"scale_actions", r.scaleActions},
                           {"reversals", r.reversals},
                           {"load_steps", r.loadSteps},
                           {"step_to_decision_s_median", r.stepDecisionS},
                           {"step_to_serving_s_median", r.stepServingS}});
    }
    return nlohmann::json({{"trace", run.trace},
                           {"scale_factor", run.scaleFactor},
                           {"replica_rps", run.replicaRps},
                           {"local_replicas", run.localReplicas},
                           {"results", results}})
               .dump(2) +
           "\n";
}

}  // namespace meridian
