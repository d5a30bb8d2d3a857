#include "replicatally.h"

#include <algorithm>

#include "scalingcontrol.h"

namespace meridian {

namespace {

bool inFlight(StepState s)
{
    return s == StepState::Approved || s == StepState::Leasing || s == StepState::Provisioned ||
           s == StepState::Starting;
}

bool holdsCapacity(StepState s)
{
    return inFlight(s) || s == StepState::Serving;
}

}  // namespace

ReplicaCount countReplicas(const std::string &service, const std::vector<ReplicaReading> &local,
                           const std::vector<ReplicaReading> &rented, int64_t nowMs)
{
    ReplicaCount count;
    count.signals.atMs = nowMs;
    const auto add = [&](const std::vector<ReplicaReading> &readings, bool isRented) {
        for (const ReplicaReading &r : readings) {
            if (r.signals.service != service)
                continue;
            count.seenIds.push_back(r.signals.replicaId);
            if (!r.signals.requestsPerSecond) {
                ++count.coldStarting;  // loading weights: it answers nothing yet
                continue;
            }
            ++count.ready;
            count.readyRented += isRented;
            ServiceSignals &s = count.signals;
            s.arrivalRps += *r.signals.requestsPerSecond;
            s.waitingRequests += r.signals.waitingRequests.value_or(0);
            s.runningRequests += r.signals.runningRequests.value_or(0);
            const auto worst = [](std::optional<double> &into, std::optional<double> value) {
                if (value)
                    into = std::max(into.value_or(0), *value);
            };
            worst(count.ttftP95Seconds, r.signals.ttftP95Seconds);
            worst(count.queueDelayP95Seconds, r.signals.queueDelayP95Seconds);
            worst(count.e2eP95Seconds, r.signals.e2eP95Seconds);
        }
    };
    add(local, false);
    add(rented, true);
    count.signals.latencyP95Seconds =
        objectiveLatency(count.queueDelayP95Seconds, count.ttftP95Seconds);
    return count;
}

JournalCount countJournal(const InferenceService &service, const std::vector<JournalStep> &open,
                          const std::vector<std::string> &seenIds,
                          const std::vector<CloudOfferView> &offers)
{
    JournalCount count;
    for (const JournalStep &step : open) {
        if (step.service != service.name)
            continue;
        const auto offer = std::find_if(offers.begin(), offers.end(), [&](const CloudOfferView &o) {
            return o.offerId == step.offerId;
        });
        const bool isLocal = step.offerId == kLocalOffer;
        const int cards = isLocal ? 0 : offer != offers.end() ? offer->cardsPerNode : 8;
        const int replicas = isLocal ? 1
                             : offer != offers.end()
                                 ? replicasPerNode(service, offer->cardModel, offer->cardsPerNode)
                                 : cards / std::max(1, service.cardsPerReplica);
        if (step.state == StepState::Planned) {
            ++count.pending;
            count.pendingLocal += isLocal;
            count.pendingReplicas += replicas;
            count.pendingCny += step.cnyPerHour;
            continue;
        }
        if (holdsCapacity(step.state)) {
            count.rentedCards += cards;
            count.rentedCny += step.cnyPerHour;
            // From the journal, so a restarted console keeps the no-reversal window too.
            count.lastScaleUpMs = std::max(count.lastScaleUpMs.value_or(0), step.createdUnixMs);
        }
        // Replicas are named after their step's key.
        const std::string prefix = step.idempotencyKey + "/";
        const auto seen = static_cast<int>(std::count_if(
            seenIds.begin(), seenIds.end(),
            [&](const std::string &id) { return id.compare(0, prefix.size(), prefix) == 0; }));
        if (inFlight(step.state))
            count.ordered += std::max(0, replicas - seen);  // those not reporting yet are coming
        if (step.state == StepState::Releasing) {
            count.going += seen;
            count.goingRented += isLocal ? 0 : seen;
        }
    }
    return count;
}

int replicasPerNode(const InferenceService &service, const std::string &cardModel, int cardsPerNode)
{
    if (service.replicaRequestsPerSecond(cardModel) <= 0)
        return 0;
    return cardsPerNode / std::max(1, service.cardsPerReplica);
}

}  // namespace meridian
