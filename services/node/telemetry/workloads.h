// Inference replicas on this node: start/stop requests with idempotency keys (the same
// key twice does the work once), and what is running. A ReplicaBackend does the work
// (the simulator's cards; on a real node, the process runner). With node records, the
// workloads and the answers given survive an agent restart: the same key after a
// restart is still answered from the record, never by starting a second replica.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/nodetypes.h"
#include "core/result.h"
#include "noderecords.h"

namespace meridian {

class ReplicaBackend {
public:
    virtual ~ReplicaBackend() = default;
    virtual Status startReplica(const Workload &workload) = 0;
    virtual Status stopReplica(const std::string &replicaId) = 0;
    // True once the replica answers requests (after its cold start).
    virtual bool replicaServing(const std::string &replicaId) = 0;
    // Why the replica is gone for good (it kept crashing, never became healthy); none
    // while it is starting, serving or restarting.
    virtual std::optional<std::string> replicaFailure(const std::string &) { return std::nullopt; }
    // True while a stopped replica still drains: its cards are not free yet.
    virtual bool replicaDraining(const std::string &) { return false; }
};

// A workload as the node's records keep it (JSON); none when the text is not one.
std::string workloadToJson(const Workload &workload);
std::optional<Workload> workloadFromJson(const std::string &text);

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
    // `records` (may be null) keeps workloads and answers across restarts; those found
    // there are taken up again.
    WorkloadManager(ReplicaBackend *backend, const Clock &clock, size_t cardCount,
                    NodeRecords *records = nullptr);

    Result<WorkloadOutcome> apply(const WorkloadRequest &request);
    std::vector<Workload> list();
    // The service of the replica starting or serving on a card; empty when none.
    std::string serviceOnCard(uint32_t cardIndex);

private:
    Result<Workload> start(const WorkloadRequest &request);
    Result<Workload> stop(const WorkloadRequest &request);
    const Workload *holderOf(uint32_t cardIndex) const;
    void keep(const Workload &workload);

    ReplicaBackend *m_backend;
    const Clock &m_clock;
    size_t m_cardCount;
    NodeRecords *m_records;
    std::mutex m_mutex;
    std::map<std::string, Workload> m_workloads;
    std::map<std::string, Workload> m_byKey;  // idempotency key → the answer given
};

}  // namespace meridian
