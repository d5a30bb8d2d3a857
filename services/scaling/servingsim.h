// A service's replicas in virtual time, fast enough to replay days of traffic in
// seconds: continuous batching per replica (a prefill token budget shared in arrival
// order, then decode at a per-sequence rate, at most maxConcurrency requests at once),
// one queue in front of a router that picks the replica with the least prefill to do,
// cold starts and cloud provisioning before a new replica serves, draining before one
// goes, and rented replicas billed per started hour.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "requesttrace.h"

namespace meridian {

struct ReplicaPerformance {
    double prefillTokensPerSecond = 8000;  // per replica, shared by requests in prefill
    double decodeTokensPerSecond = 35;     // per sequence in the batch
    int maxConcurrency = 32;
};

struct StartupTimes {
    double coldStartMinS = 30;  // loading weights, sampled uniformly
    double coldStartMaxS = 180;
    double provisioningMinS = 60;  // the pool's delay before a rented node boots
    double provisioningMaxS = 150;
};

struct IntervalSignals {
    double arrivalRps = 0;
    int waiting = 0;
    int running = 0;
    double occupancy = 0;  // running / (ready replicas × maxConcurrency)
    std::optional<double> ttftP95S;
    int ready = 0;
    int starting = 0;
};

class ServingSim {
public:
    ServingSim(const RequestTrace &trace, ReplicaPerformance performance, StartupTimes startup,
               int localReplicas, int initialReplicas, uint64_t seed = 1);

    // Advances to `untilS` in steps of `dtS`.
    void runUntil(double untilS, double dtS = 0.5);
    IntervalSignals signals(double windowS) const;
    // Asks for `replicas` (ready, starting, or kept while paid); returns scale-ups and downs.
    void setDesired(int replicas, bool billingAware);

    double nowS() const { return m_now; }
    bool finished() const;

    struct Totals {
        int64_t requests = 0;
        int64_t withinSlo = 0;
        double localReplicaSeconds = 0;
        double rentedBilledSeconds = 0;  // per started hour, per rented replica
        double busyRequestSeconds = 0;   // request-slots in use, for occupancy
        double readyReplicaSeconds = 0;
        std::vector<double> ttftS;  // per completed request
        std::vector<double> e2eS;
        std::vector<double> ttftMinute;  // the minute of each ttft, for per-minute percentiles
    };
    // Closes the books at the end: unfinished requests count as outside the objective,
    // rented replicas are billed to their release.
    Totals finish(double sloS);

private:
    struct Request {
        int index;  // into the trace
        double prefillLeft;
        double decodeLeft;
        bool prefilled = false;
    };
    struct Replica {
        bool rented = false;
        double readyAtS = 0;
        double createdS = 0;  // billing starts here for a rented one
        bool draining = false;
        double releaseAtS = -1;  // billing-aware: kept, serving, until its paid hour ends
        std::vector<Request> active;
    };
    void admit();
    void addReplica();
    void retire(Replica &replica);
    double billedSeconds(const Replica &replica, double endS) const;

    const RequestTrace &m_trace;
    ReplicaPerformance m_perf;
    StartupTimes m_startup;
    int m_localReplicas;
    std::mt19937_64 m_rng;
    double m_now = 0;
    size_t m_nextArrival = 0;
    std::deque<int> m_queue;
    std::vector<Replica> m_replicas;
    std::vector<Replica> m_retired;
    std::vector<double> m_firstTokenAt;  // per request; -1 until it comes
    std::vector<double> m_doneAt;
    std::deque<std::pair<double, double>> m_recentTtft;  // (time, ttft)
    Totals m_totals;
};

}  // namespace meridian
