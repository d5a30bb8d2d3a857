#include "servingload.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace meridian {

namespace {

// A replica sustains its declared rate with the TTFT objective met; pushed past it, it
// serves a little more, with time to first token climbing towards the objective.
constexpr double kSaturationOverDeclared = 1.15;
constexpr double kTokensPerRequest = 320;  // prompt + answer of a customer-service turn
constexpr double kIdleTtftShareOfObjective = 0.12;

// What a replica's own /metrics says after it took `arrivals` and served `served`
// requests/s with `queue` left waiting: batching stretches prefill as the batch fills,
// and a queue adds its wait.
ReplicaSignals replicaSignals(const InferenceService &s, const ServingReplica &r, double arrivals,
                              double served, double queue)
{
    const double ceiling = s.replicaRequestsPerSecond(r.cardModel) * kSaturationOverDeclared;
    const CardCapability *card = nullptr;
    for (const CardCapability &c : s.runsOn) {
        if (c.cardModel == r.cardModel)
            card = &c;
    }
    const double maxBatch =
        static_cast<double>((card ? card->maxConcurrencyPerCard : 8) * s.cardsPerReplica);
    const double occupancy = std::min(1.0, served / ceiling);
    const double idleTtft = kIdleTtftShareOfObjective * s.objectiveP95Seconds;
    // Batching stretches prefill as the batch fills; a queue adds its wait.
    const double ttft95 = idleTtft * (1 + 5 * std::pow(occupancy, 4)) + queue / ceiling;

    ReplicaSignals signals;
    signals.replicaId = r.replicaId;
    signals.service = r.service;
    signals.requestsPerSecond = arrivals;
    signals.waitingRequests = static_cast<uint32_t>(std::lround(queue));
    signals.runningRequests = static_cast<uint32_t>(std::lround(occupancy * maxBatch));
    signals.inflightTokens =
        static_cast<uint64_t>(std::lround(occupancy * maxBatch * kTokensPerRequest));
    signals.kvCacheUsedRatio = occupancy * 0.9;
    signals.tokensPerSecond = served * kTokensPerRequest;
    signals.ttftP50Seconds = ttft95 * 0.45;
    signals.ttftP95Seconds = ttft95;
    signals.queueDelayP95Seconds = queue / ceiling;  // the wait alone, as vLLM reports it
    signals.e2eP95Seconds = ttft95 + 6 + 4 * occupancy;
    return signals;
}

}  // namespace

ServingLoad::ServingLoad(std::vector<InferenceService> services) : m_services(std::move(services))
{}

const InferenceService *ServingLoad::find(const std::string &service) const
{
    for (const InferenceService &s : m_services) {
        if (s.name == service)
            return &s;
    }
    return nullptr;
}

bool ServingLoad::setDemand(const std::string &service, std::optional<double> requestsPerSecond)
{
    if (!find(service))
        return false;
    std::lock_guard lock(m_mutex);
    if (requestsPerSecond)
        m_fixedDemand[service] = std::max(0.0, *requestsPerSecond);
    else
        m_fixedDemand.erase(service);
    return true;
}

double ServingLoad::demand(const std::string &service, int64_t nowMs) const
{
    const InferenceService *s = find(service);
    if (!s)
        return 0;
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_fixedDemand.find(service); it != m_fixedDemand.end())
            return it->second;
    }
    // Quiet by default: the minimum replicas half busy, a little more in the afternoon.
    const double base =
        s->runsOn.empty()
            ? 0
            : s->minReplicas * s->replicaRequestsPerSecond(s->runsOn.front().cardModel);
    const double hour = std::fmod(static_cast<double>(nowMs) / 3'600'000.0 + 8, 24.0);  // UTC+8
    const double daily = 0.75 + 0.25 * std::sin((hour - 9) / 24.0 * 2 * std::numbers::pi);
    return 0.5 * base * daily;
}

std::map<std::string, ReplicaSignals> ServingLoad::advance(
    int64_t nowMs, double seconds, const std::vector<ServingReplica> &replicas)
{
    std::map<std::string, ReplicaSignals> out;
    std::map<std::string, double> capacityOf;  // service → serving capacity, requests/s
    for (const ServingReplica &r : replicas) {
        const InferenceService *s = find(r.service);
        if (r.serving && s)
            capacityOf[r.service] += s->replicaRequestsPerSecond(r.cardModel);
    }
    std::map<std::string, double> demandOf;
    for (const auto &[service, capacity] : capacityOf)
        demandOf[service] = demand(service, nowMs);

    std::lock_guard lock(m_mutex);
    std::map<std::string, double> queues;
    for (const ServingReplica &r : replicas) {
        const InferenceService *s = find(r.service);
        if (!r.serving || !s)
            continue;
        const double declared = s->replicaRequestsPerSecond(r.cardModel);
        const double capacity = capacityOf[r.service];
        if (declared <= 0 || capacity <= 0)
            continue;
        // The router spreads arrivals by capacity.
        const double arrivals = demandOf[r.service] * declared / capacity;
        const double ceiling = declared * kSaturationOverDeclared;
        double queue = m_queue.count(r.replicaId) ? m_queue[r.replicaId] : 0;
        const double served = std::min(ceiling, arrivals + queue / std::max(seconds, 1e-3));
        queue = std::max(0.0, queue + (arrivals - served) * seconds);
        queues[r.replicaId] = queue;

        out.emplace(r.replicaId, replicaSignals(*s, r, arrivals, served, queue));
    }
    m_queue = std::move(queues);  // a replica gone takes its queue with it
    return out;
}

}  // namespace meridian
