// Carries scale-up steps through: approved → leasing → provisioned → starting → serving
// → done. Every pass reconciles each open step with what the pool and the agents report
// and takes its next action, writing the step's new state to the journal before the
// call it stands for. Normal progress and recovery after a crash are the same path: a
// new executor over the same journal simply goes on, renting nothing twice.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "reconcile.h"

namespace meridian {

class StepJournal {
public:
    virtual ~StepJournal() = default;
    virtual Result<std::vector<JournalStep>> openSteps() = 0;
    virtual Status moveStep(int64_t id, StepState state, const std::string &leaseId,
                            const std::string &nodeId, int64_t nowUnixMs) = 0;
};

class CapacityPoolApi {
public:
    virtual ~CapacityPoolApi() = default;
    virtual Result<std::vector<PoolLeaseView>> leases() = 0;
    // Idempotent: the same key answers with the same lease. An error is a call that may
    // or may not have reached the pool; a refusal (sold out, no such offer) is an answer.
    struct LeaseAnswer {
        bool refused = false;
        std::string why;
    };
    virtual Result<LeaseAnswer> lease(const std::string &idempotencyKey, const std::string &offerId,
                                      const std::string &requestedBy) = 0;
    virtual Status release(const std::string &leaseId) = 0;
};

class ReplicaApi {
public:
    virtual ~ReplicaApi() = default;
    virtual Result<std::vector<ReplicaView>> replicas() = 0;
    // Idempotent: the same key starts one replica.
    virtual Status start(const std::string &nodeId, const std::string &idempotencyKey,
                         const std::string &service) = 0;
    // Stops what the key started on the node; stopping twice is harmless.
    virtual Status stop(const std::string &nodeId, const std::string &idempotencyKey) = 0;
};

class StepExecutor {
public:
    StepExecutor(StepJournal &journal, CapacityPoolApi &pool, ReplicaApi &replicas,
                 std::string requestedBy);

    // One pass over the open steps; what it did. A failed call ends the pass: the
    // journal already says what may have happened, and the next pass finds out. A lease
    // the pool refuses fails its step (reported as a MarkFailed with the pool's reason).
    // `draining`: releasing steps a load balancer still sends requests to (ReconcileContext).
    Result<std::vector<Recovery>> advance(int64_t nowUnixMs, std::set<int64_t> draining = {});

private:
    Status act(const Recovery &action, const JournalStep &step, int64_t nowUnixMs,
               std::vector<Recovery> &done);
    // Journals the step as leasing, then asks the pool; a refusal fails the step.
    Status lease(const JournalStep &step, int64_t now, std::vector<Recovery> &done);

    StepJournal &m_journal;
    CapacityPoolApi &m_pool;
    ReplicaApi &m_replicas;
    std::string m_requestedBy;
};

}  // namespace meridian
