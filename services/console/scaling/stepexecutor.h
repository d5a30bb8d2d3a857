// Carries scale-up steps through: approved → leasing → provisioned → starting → serving
// → done. Every pass reconciles each open step with what the pool and the agents report
// and takes its next action, writing the step's new state to the journal before the
// call it stands for. Normal progress and recovery after a crash are the same path: a
// new executor over the same journal simply goes on, renting nothing twice.
#pragma once

#include <map>
#include <optional>
#include <set>
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
    // `steadyMs`: a monotonic clock's reading, on which every timeout is measured (by
    // default the wall clock's, for callers that have only that).
    Result<std::vector<Recovery>> advance(int64_t nowUnixMs, std::set<int64_t> draining = {},
                                          std::optional<int64_t> steadyMs = {});
    // Our own nodes (ids and agent addresses): a lease that names one is given back.
    void setOwnNodes(std::set<std::string> nodes) { m_ownNodes = std::move(nodes); }
    // How long a rented node may stay silent after its lease is ready.
    void setNodeAnswerTimeoutMs(int64_t ms) { m_nodeAnswerTimeoutMs = ms; }

private:
    // How long each open step has been in its state and its node silent, on the monotonic
    // clock, for the context; forgets steps no longer open.
    void measureAges(const std::vector<JournalStep> &steps,
                     const std::vector<ReplicaView> &replicas, int64_t nowUnixMs, int64_t steadyMs,
                     ReconcileContext &context);
    Status act(const Recovery &action, const JournalStep &step, int64_t nowUnixMs,
               std::vector<Recovery> &done);
    // Journals the move, noting when it was made on the monotonic clock.
    Status move(int64_t id, StepState state, const std::string &leaseId, const std::string &nodeId,
                int64_t nowUnixMs);
    // Journals the step as leasing, then asks the pool; a refusal fails the step.
    Status lease(const JournalStep &step, int64_t now, std::vector<Recovery> &done);

    StepJournal &m_journal;
    CapacityPoolApi &m_pool;
    ReplicaApi &m_replicas;
    std::string m_requestedBy;
    std::set<std::string> m_ownNodes;
    int64_t m_nodeAnswerTimeoutMs = ReconcileContext{}.nodeAnswerTimeoutMs;
    // Since when (monotonic) each open step has been in the state it was last seen in: set
    // when this executor moves it, or at its first sight from its journal age.
    struct InState {
        StepState state;
        int64_t sinceSteadyMs = 0;
    };
    std::map<int64_t, InState> m_inState;
    std::map<int64_t, int64_t> m_movedAtSteadyMs;      // moved by this executor, last pass
    std::map<int64_t, int64_t> m_silentSinceSteadyMs;  // rented steps whose node is silent
    int64_t m_steadyMs = 0;                            // this pass's
};

}  // namespace meridian
