// Request load on the simulated inference replicas, so they report what a serving engine
// would: each service's demand (a quiet daily curve, or a rate an operator or a test
// sets) is shared among its serving replicas by capacity, and each replica is a fluid
// queue: it serves up to what its cards sustain, the rest waits. Waiting requests,
// requests in a batch, KV use, tokens/s and the time to first token follow from that.
// The evaluation's per-request model is in scaling/servingsim; this one runs live,
// one step a sampling interval. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/inferenceservice.h"
#include "core/nodetypes.h"

namespace meridian {

struct ServingReplica {
    std::string replicaId;
    std::string service;
    std::string cardModel;
    bool serving = false;  // past its cold start
};

class ServingLoad {
public:
    explicit ServingLoad(std::vector<InferenceService> services);

    const std::vector<InferenceService> &services() const { return m_services; }
    // Fixes a service's demand (requests/s) from now on; nullopt: back to its daily curve.
    // False for a service nobody declared.
    bool setDemand(const std::string &service, std::optional<double> requestsPerSecond);
    // What the service is asked for at `nowMs`.
    double demand(const std::string &service, int64_t nowMs) const;

    // One step of `seconds`: the signals of every serving replica (starting ones report
    // none: they answer nothing yet).
    std::map<std::string, ReplicaSignals> advance(int64_t nowMs, double seconds,
                                                  const std::vector<ServingReplica> &replicas);

private:
    const InferenceService *find(const std::string &service) const;

    std::vector<InferenceService> m_services;
    mutable std::mutex m_mutex;
    std::map<std::string, double> m_fixedDemand;
    std::map<std::string, double> m_queue;  // replica → requests waiting
};

}  // namespace meridian
