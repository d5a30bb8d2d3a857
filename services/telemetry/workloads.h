// Inference replicas on this node: start/stop requests with idempotency keys (the same
// key twice does the work once), and what is running. A ReplicaBackend does the work
// (the simulator's cards; on a real node, a configured runner).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/nodetypes.h"
#include "core/result.h"

namespace meridian {

class ReplicaBackend {
public:
    virtual ~ReplicaBackend() = default;
    virtual Status startReplica(const Workload &workload) = 0;
    virtual Status stopReplica(const std::string &replicaId) = 0;
    // True once the replica answers requests (after its cold start).
    virtual bool replicaServing(const std::string &replicaId) = 0;
};

struct WorkloadRequest {
    std::string idempotencyKey;
    bool start = true;
    Workload workload;  // for a stop, only replicaId matters
    std::string requestedBy;
    std::string reason;
};

struct WorkloadOutcome {
    Workload workload;
    bool replayed = false;
};

class WorkloadManager {
public:
    WorkloadManager(ReplicaBackend *backend, const Clock &clock, size_t cardCount);

    Result<WorkloadOutcome> apply(const WorkloadRequest &request);
    std::vector<Workload> list();
    // The service of the replica starting or serving on a card; empty when none.
    std::string serviceOnCard(uint32_t cardIndex);

private:
    Result<Workload> start(const WorkloadRequest &request);
    Result<Workload> stop(const WorkloadRequest &request);
    const Workload *holderOf(uint32_t cardIndex) const;

    ReplicaBackend *m_backend;
    const Clock &m_clock;
    size_t m_cardCount;
    std::mutex m_mutex;
    std::map<std::string, Workload> m_workloads;
    std::map<std::string, Workload> m_byKey;  // idempotency key → the answer given
};

}  // namespace meridian
