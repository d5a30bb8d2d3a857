// A service's replicas in virtual time, fast enough to replay days of traffic in
// seconds: continuous batching per replica (a prefill token budget shared in arrival
// order, then decode at a per-sequence rate, at most maxConcurrency requests at once),
// a prefix cache per replica where the trace names its prompts' blocks, one queue in
// front of a router that picks the replica where the request's first token comes
// soonest (the least prefill to do, its own cached prefix not counted),
// cold starts and cloud provisioning before a new replica serves, draining before one
// goes, and rented replicas billed per started hour. Requests are pulled from their
// source as they arrive and forgotten once answered, so memory follows what is in
// flight, not the length of the trace.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "latencystats.h"
#include "prefixcache.h"
#include "requestsource.h"

namespace meridian {

struct ReplicaPerformance {
    double prefillTokensPerSecond = 8000;  // per replica, shared by requests in prefill
    double decodeTokensPerSecond = 35;     // per sequence in the batch
    int maxConcurrency = 32;
    // Prompt prefixes a replica keeps, in blocks of kPrefixBlockTokens: four 80 GB cards
    // less a 70B model's weights hold the KV cache of about half a million tokens.
    size_t prefixCacheBlocks = 1024;
};

struct StartupTimes {
    double coldStartMinS = 30;  // loading weights, sampled uniformly
    double coldStartMaxS = 180;
    double provisioningMinS = 60;  // the pool's delay before a rented node boots
    double provisioningMaxS = 150;
    // Warm standby, for a service that asks for it: this many rented nodes kept
    // provisioned but idle, billed by the hour like any rented node, each with the
    // service's weights on its local disk; a replica started on one (or on an owned node,
    // which keeps the weights too) loads them in warmStart… instead of a cold start. A
    // standby node taken is replaced at once, through the pool's provisioning.
    int standbyNodes = 0;
    double warmStartMinS = 20;
    double warmStartMaxS = 45;
};

struct IntervalSignals {
    double arrivalRps = 0;
    int waiting = 0;
    int running = 0;
    double occupancy = 0;                  // running / (ready replicas × maxConcurrency)
    std::optional<double> queueDelayP95S;  // the objective's latency
    int ready = 0;
    int starting = 0;
    int provisioning = 0;  // of the starting, rented nodes still booting (the rest load weights)
    // Until each serving rented replica's paid hour ends, soonest first: capacity paid by
    // the hour is shed when its hour ends, one replica at a time.
    std::vector<double> paidHourEndsInS;

    // How many serving rented replicas' paid hours end within `seconds`.
    int paidHoursEndingWithin(double seconds) const;
};

// Which rented replica a scale-down lets go; either serves on to the end of the hour it
// is paid for, and is taken back first if demand returns before then.
enum class ReleaseOrder {
    // The newest: its hour has longest to run, so a scaler that wavers takes it back
    // for nothing.
    NewestFirst,
    // The one whose paid hour ends soonest: the others' hours are paid for anyway and
    // may yet be needed (the live controller's order).
    SoonestPaidHourFirst,
};

class ServingSim {
public:
    // Replays `requests` from their first (the source must outlive the replay). The
    // objective is on queueing delay: a request is inside it when its first token comes
    // within `sloS` of what the replica's own prefill of its prompt (less its cached
    // prefix) takes, since no scaling makes a long prompt's prefill shorter.
    ServingSim(RequestSource &requests, ReplicaPerformance performance, StartupTimes startup,
               int localReplicas, int initialReplicas, double sloS, uint64_t seed = 1);

    // Advances to `untilS` in steps of kStepS.
    void runUntil(double untilS);
    IntervalSignals signals(double windowS) const;
    // Asks for `replicas`: ready, starting, or taken back while still paid for.
    void setDesired(int replicas, ReleaseOrder order);

    // Requests arriving before `seconds` are served but count in no figure: they warm
    // the replicas up (busy batches, queues) for the ones after.
    void countFrom(double seconds) { m_countFromS = seconds; }

    double nowS() const { return m_now; }
    bool finished() const;

    struct Totals {
        int64_t requests = 0;
        int64_t withinSlo = 0;           // queueing delay inside the objective
        int64_t withinTtft = 0;          // time to first token inside it, prefill and all
        int64_t promptTokens = 0;        // admitted
        int64_t cachedPromptTokens = 0;  // of the admitted prompts, found in a prefix cache
        double localReplicaSeconds = 0;
        double rentedBilledSeconds = 0;   // per started hour, per rented replica
        double standbyBilledSeconds = 0;  // standby nodes never taken, per started hour
        double busyRequestSeconds = 0;    // request-slots in use, for occupancy
        std::vector<double> startupS;     // each replica started: from the order to serving
        double readyReplicaSeconds = 0;
        LatencyHistogram ttft;                     // never answered counts as 1e9 s
        LatencyHistogram queueDelay;               // TTFT less the own prefill; likewise
        LatencyHistogram e2e;                      // of the requests that completed
        std::vector<float> queueDelayP95ByMinute;  // by arrival minute; < 0: none then
    };
    // Closes the books at the end: requests not answered (still queued, in prefill or
    // never arrived) count as outside the objective, rented replicas are billed to the
    // end of their last paid hour.
    Totals finish();

private:
    // Virtual time moves in steps this long: each a share of prefill, a decode step.
    static constexpr double kStepS = 0.5;

    struct Request {
        double arrivalS;
        double prefillLeft;
        double decodeLeft;
        std::vector<uint64_t> prefixBlocks;
        double ownPrefillS = 0;  // prefilling its uncached prompt alone, set when admitted
    };
    // A request past its first token: all that is left is the step its decode ends in, so
    // a step costs what is in prefill and what finishes, not everything in flight.
    struct Decoding {
        int64_t lastStep;
        double arrivalS;
        bool operator>(const Decoding &other) const { return lastStep > other.lastStep; }
    };
    struct Replica {
        bool rented = false;
        double bootedAtS = 0;  // its node provisioned; then its weights load
        double readyAtS = 0;
        double createdS = 0;  // billing starts here for a rented one
        bool draining = false;
        double releaseAtS = -1;          // billing-aware: kept, serving, until its paid hour ends
        std::deque<Request> prefilling;  // in admission order, which prefill follows
        std::vector<Decoding> decoding;  // a heap, the first to finish on top
        size_t inFlight() const { return prefilling.size() + decoding.size(); }
        PrefixCache prefixes{0};
    };
    Replica newReplica(bool rented) const;
    // Where `request` goes, as an index into `open`: the replica with the least prefill
    // before its first token, or open.size() when every batch is full.
    size_t route(const Request &request, const std::vector<Replica *> &open,
                 const std::vector<double> &load) const;
    // Admits `request` to `replica`, which computes only what its cache lacks.
    void place(Request request, Replica &replica);
    void arrive(double untilS);
    void admit();
    void addReplica();
    // A provisioned standby node, taken for a replica; none when none is ready.
    std::optional<double> takeStandby();
    double sampled(double minS, double maxS);
    void firstToken(const Request &request, double atS);
    // The step `request`, whose first token came in this one, finishes its decode in.
    int64_t lastDecodeStep(const Request &request) const;
    void neverAnswered(double arrivalS);
    bool counted(double arrivalS) const { return arrivalS >= m_countFromS; }
    double billedSeconds(const Replica &replica, double endS) const;
    // When the replica's current paid hour should end it (a minute before it turns).
    double paidHourEnd(const Replica &replica) const;
    // Lets ready rented replicas go, `drop` at most: each serves to its paid hour's end.
    void releasePaid(int &drop, ReleaseOrder order);

    RequestSource &m_source;
    ReplicaPerformance m_perf;
    StartupTimes m_startup;
    int m_localReplicas;
    double m_sloS;
    double m_countFromS = -1;
    std::mt19937_64 m_rng;
    double m_now = 0;
    int64_t m_step = 0;                         // of the step that ends at m_now
    std::optional<TraceRequest> m_nextArrival;  // pulled from the source, not yet arrived
    std::deque<Request> m_queue;
    std::vector<Replica> m_replicas;
    // Standby nodes: when each was ordered (its billing starts) and when it is ready.
    std::vector<std::pair<double, double>> m_standby;
    std::deque<double> m_recentArrivals;                  // times, for the arrival rate
    std::deque<std::pair<double, double>> m_recentDelay;  // (time, queueing delay)
    MinuteLatency m_minutes;
    Totals m_totals;
};

}  // namespace meridian
