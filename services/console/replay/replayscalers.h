// The autoscalers an evaluation replays against the same trace (scaling/evaluation):
// Meridian's own policy fed as the live controller feeds it, and the baselines it is
// judged beside (a static count, Kubernetes HPA and Knative KPA as they are usually set,
// and perfect foresight). Each turns one interval's signals into a replica count.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "scaling/dailyprofile.h"
#include "scaling/scalingpolicy.h"
#include "servingsim.h"

namespace meridian {

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

// The trace's own per-minute load, and how far ahead of now it is told.
struct ToldLoad {
    const std::vector<double> *minuteRps = nullptr;
    int64_t aheadMs = 0;
};

// Meridian's own policy, fed as the live controller feeds it. Told the trace's own
// per-minute load, it forecasts from that instead of from earlier days: what the policy
// would do with a forecast that is never wrong, as far ahead as it is told.
class MeridianScaler final : public Autoscaler {
public:
    MeridianScaler(double replicaRps, double sloS, int warmReplicas, double intervalS,
                   ScalingPolicyConfig config, ToldLoad told = {});
    // The service ran at `rps` for the surge cover's window before the replay began: its
    // kept minutes say so, as the live controller's journal would after days of running.
    void ranBefore(double rps);
    int desired(const IntervalSignals &s, double nowS, int current) override;

private:
    double m_intervalS;
    PolicyInput m_input;
    ScalingPolicyConfig m_config;
    ToldLoad m_told;
    DailyProfile m_profile{m_config.forecastDays};
    // The minutes the usual load is read from, kept apart from the forecast's: the ones
    // ranBefore() supposes are not days the forecast should believe.
    DailyProfile m_recent{0};
};

// Kubernetes HPA on requests per replica, in flight and queued, against its batch
// slots (a demand metric that, unlike slot utilisation, does not stop at 100% when the
// queue grows): target 70%, 10% tolerance, scale-down stabilisation of five minutes,
// at most double per step.
class HpaScaler final : public Autoscaler {
public:
    explicit HpaScaler(int maxConcurrency) : m_slots(maxConcurrency) {}
    int desired(const IntervalSignals &s, double nowS, int current) override;

private:
    int m_slots;
    std::deque<std::pair<double, int>> m_recent;
};

// Knative KPA on concurrency (in flight and queued), target 70% of a replica's batch,
// a 60 s stable window and a panic mode at twice the capacity.
class KnativeScaler final : public Autoscaler {
public:
    explicit KnativeScaler(int maxConcurrency) : m_target(0.7 * maxConcurrency) {}
    int desired(const IntervalSignals &s, double nowS, int current) override;

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
    int desired(const IntervalSignals &, double nowS, int) override;

private:
    std::vector<int> m_schedule;
};

// The highest of the per-minute rates from `nowMs`'s minute to `horizonMs` later.
double peakAhead(const std::vector<double> &minuteRps, int64_t nowMs, int64_t horizonMs);
// Each minute's replicas are there `leadMinutes` before the minutes that need them.
std::vector<int> orderedAhead(const std::vector<int> &need, size_t leadMinutes);

}  // namespace meridian
