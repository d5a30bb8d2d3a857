// Crash-safe scale-up: every step is written to the journal before it is taken, and
// after a restart the journal is reconciled with what the capacity pool and the agents
// actually have. Lease calls carry the step's idempotency key, so repeating one never
// rents twice; a lease the pool holds for us that no journal step knows is an orphan
// and is released; a replica is started (again, with its own key) until it serves.
//
//   planned → approved → leasing → provisioned → starting replica → serving
//   serving → releasing → done    (the capacity is given back; anything: failed, with why)
// A serving step stays open for as long as it holds its lease: the lease is accounted
// for, and a replica that stops serving fails the step so its lease goes back.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "journalstep.h"

namespace meridian {

enum class PoolLeaseState { Provisioning, Ready, Released, Failed };

struct PoolLeaseView {
    std::string leaseId;
    std::string idempotencyKey;
    std::string requestedBy;
    PoolLeaseState state = PoolLeaseState::Provisioning;
    std::vector<std::string> nodeIds;
    std::string message;
    std::vector<std::string> agentAddresses;  // beside nodeIds, as the pool says them
};

// A step's replicas on its node, together. Partial: some of them are missing (a crash
// between two starts, or one that died). Unknown: the agent did not answer this time;
// nothing is concluded from that.
enum class ReplicaState { Absent, Partial, Starting, Serving, Failed, Unknown };

struct ReplicaView {
    std::string nodeId;
    std::string idempotencyKey;
    ReplicaState state = ReplicaState::Absent;
};

enum class RecoveryKind {
    Lease,          // call Lease with the step's key (again: it is idempotent)
    Adopt,          // the pool has the step's lease: record it and go on
    Wait,           // provisioning or starting: look again later
    StartReplica,   // ApplyWorkload with the step's key on the lease's node
    StopReplica,    // stop the step's replicas (a local step released or failed)
    MarkServing,    // verified: the replica serves
    Release,        // call Release (again) for the step's lease
    ReleaseOrphan,  // a lease of ours that no step knows: give it back
    MarkDone,
    MarkFailed,
    Hold,    // serving as planned: nothing to do
    GiveUp,  // a lease that cannot be used (too slow, a silent or taken node): release
             // the lease and fail the step
};

struct Recovery {
    RecoveryKind kind;
    int64_t stepId = 0;  // 0 for an orphan
    std::string leaseId;
    std::string nodeId;
    std::string why;
    bool leaseReady = false;  // with Adopt: the lease is READY, not still provisioning
};

struct ReconcileContext {
    std::string requestedBy;  // names our leases in the pool
    int64_t nowUnixMs = 0;
    int64_t provisioningTimeoutMs = 15 * 60'000;  // a lease not READY by then is given up
    // How long each step has been in its state, measured on a monotonic clock by whoever
    // reconciles (a jump of the wall clock times nothing out); a step not in it is aged by
    // its journal time.
    std::map<int64_t, int64_t> stateAgeMs;
    // How long the node of each rented step that does not serve yet has not answered: past
    // `nodeAnswerTimeoutMs` its lease is given back (paid for, and nothing runs on it).
    std::map<int64_t, int64_t> silentForMs;
    int64_t nodeAnswerTimeoutMs = 5 * 60'000;
    // Our own nodes, by id and by agent address: a lease that names one is given back.
    std::set<std::string> ownNodes;
    // Releasing steps whose replicas a load balancer still sends requests to: they are
    // stopped (or their lease given back) once drained, not before.
    std::set<int64_t> draining;
};

// What to do, for every unfinished step and every lease of ours the journal lacks.
std::vector<Recovery> reconcile(const std::vector<JournalStep> &journal,
                                const std::vector<PoolLeaseView> &pool,
                                const std::vector<ReplicaView> &replicas,
                                const ReconcileContext &context);

}  // namespace meridian
