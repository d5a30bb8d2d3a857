#include "reconcile.h"

#include <algorithm>
#include <set>

namespace meridian {

namespace {

const PoolLeaseView *leaseFor(const JournalStep &step, const std::vector<PoolLeaseView> &pool)
{
    for (const PoolLeaseView &lease : pool) {
        if ((!step.leaseId.empty() && lease.leaseId == step.leaseId) ||
            (!step.idempotencyKey.empty() && lease.idempotencyKey == step.idempotencyKey))
            return &lease;
    }
    return nullptr;
}

const ReplicaView *replicaFor(const JournalStep &step, const std::vector<ReplicaView> &replicas)
{
    for (const ReplicaView &r : replicas) {
        if (r.idempotencyKey == step.idempotencyKey)
            return &r;
    }
    return nullptr;
}

bool present(const ReplicaView *replica)
{
    return replica && replica->state != ReplicaState::Absent;
}

// A step on one of our own nodes: no lease to ask for, wait on or give back; its replica
// is started on the node the plan chose, and stopped when the step is released.
void reconcileLocal(const JournalStep &step, const ReplicaView *replica, std::vector<Recovery> &out)
{
    const ReplicaState state = replica ? replica->state : ReplicaState::Absent;
    const std::string &node = step.nodeId;
    switch (step.state) {
    case StepState::Planned:
    case StepState::Rejected:
    case StepState::Superseded:
    case StepState::Done: return;
    case StepState::Failed:
        // A replica that failed holds nothing; one still up is stopped.
        if (present(replica) && state != ReplicaState::Unknown && state != ReplicaState::Failed)
            out.push_back({RecoveryKind::StopReplica, step.id, {}, node, "the step failed"});
        return;
    case StepState::Releasing:
        if (state == ReplicaState::Unknown)
            out.push_back({RecoveryKind::Wait, step.id, {}, node, "the agent did not answer"});
        else if (present(replica) && state != ReplicaState::Failed)
            out.push_back({RecoveryKind::StopReplica, step.id, {}, node, "released"});
        else
            out.push_back({RecoveryKind::MarkDone, step.id, {}, node, "stopped"});
        return;
    default: break;
    }
    if (state == ReplicaState::Unknown)
        out.push_back({RecoveryKind::Wait, step.id, {}, node, "the agent did not answer"});
    else if (step.state == StepState::Serving)
        out.push_back(
            state == ReplicaState::Serving
                ? Recovery{RecoveryKind::Hold, step.id, {}, node, "serving"}
                : Recovery{
                      RecoveryKind::MarkFailed, step.id, {}, node, "the replica stopped serving"});
    else if (state == ReplicaState::Absent || state == ReplicaState::Partial)
        out.push_back(
            {RecoveryKind::StartReplica, step.id, {}, node, "replicas missing on the node"});
    else if (state == ReplicaState::Starting)
        out.push_back({RecoveryKind::Wait, step.id, {}, node, "replica starting"});
    else if (state == ReplicaState::Failed)
        out.push_back({RecoveryKind::MarkFailed, step.id, {}, node, "the replica failed to start"});
    else
        out.push_back({RecoveryKind::MarkServing, step.id, {}, node, "replica serves"});
}

}  // namespace

std::vector<Recovery> reconcile(const std::vector<JournalStep> &journal,
                                const std::vector<PoolLeaseView> &pool,
                                const std::vector<ReplicaView> &replicas,
                                const ReconcileContext &context)
{
    std::vector<Recovery> out;
    std::set<std::string> known;  // leases some step accounts for
    for (const JournalStep &step : journal) {
        if (step.offerId == kLocalOffer) {
            reconcileLocal(step, replicaFor(step, replicas), out);
            continue;
        }
        const PoolLeaseView *lease = leaseFor(step, pool);
        if (lease)
            known.insert(lease->leaseId);
        const std::string leaseId = lease ? lease->leaseId : step.leaseId;
        switch (step.state) {
        case StepState::Planned:
        case StepState::Rejected:
        case StepState::Superseded:
        case StepState::Done: break;  // nothing asked of anyone, or already given back
        case StepState::Failed:
            // A failed step's lease serves nobody: give it back.
            if (lease && (lease->state == PoolLeaseState::Provisioning ||
                          lease->state == PoolLeaseState::Ready))
                out.push_back({RecoveryKind::Release,
                               step.id,
                               leaseId,
                               {},
                               "the step failed; its lease is not used"});
            break;
        case StepState::Approved:
        case StepState::Leasing:
            if (!lease) {
                // The call may never have left: asking again with the same key rents once.
                out.push_back({RecoveryKind::Lease, step.id, {}, {}, "no lease with this key yet"});
            } else if (lease->state == PoolLeaseState::Failed) {
                out.push_back({RecoveryKind::MarkFailed,
                               step.id,
                               leaseId,
                               {},
                               "the pool failed the lease: " + lease->message});
            } else if (lease->state == PoolLeaseState::Released) {
                out.push_back({RecoveryKind::MarkFailed,
                               step.id,
                               leaseId,
                               {},
                               "the lease was released before it was used"});
            } else {
                const bool ready = lease->state == PoolLeaseState::Ready;
                if (!ready &&
                    context.nowUnixMs - step.updatedUnixMs > context.provisioningTimeoutMs)
                    out.push_back({RecoveryKind::GiveUp,
                                   step.id,
                                   leaseId,
                                   {},
                                   "the lease did not become ready in time"});
                else
                    out.push_back({RecoveryKind::Adopt,
                                   step.id,
                                   leaseId,
                                   {},
                                   ready ? "ready" : "provisioning",
                                   ready});
            }
            break;
        case StepState::Provisioned:
        case StepState::Starting:
        case StepState::Serving: {
            if (!lease || lease->state == PoolLeaseState::Released ||
                lease->state == PoolLeaseState::Failed) {
                out.push_back({RecoveryKind::MarkFailed,
                               step.id,
                               leaseId,
                               {},
                               "its lease is gone; a new plan will ask again"});
                break;
            }
            if (lease->state == PoolLeaseState::Provisioning) {
                if (context.nowUnixMs - step.updatedUnixMs > context.provisioningTimeoutMs)
                    out.push_back({RecoveryKind::GiveUp,
                                   step.id,
                                   leaseId,
                                   {},
                                   "the lease did not become ready in time"});
                else
                    out.push_back({RecoveryKind::Wait, step.id, leaseId, {}, "still provisioning"});
                break;
            }
            const std::string node = !step.nodeId.empty()      ? step.nodeId
                                     : !lease->nodeIds.empty() ? lease->nodeIds.front()
                                                               : std::string();
            const ReplicaView *replica = replicaFor(step, replicas);
            const ReplicaState replicaState = replica ? replica->state : ReplicaState::Absent;
            if (replicaState == ReplicaState::Unknown) {
                out.push_back(
                    {RecoveryKind::Wait, step.id, leaseId, node, "the agent did not answer"});
            } else if (step.state == StepState::Serving) {
                // It served once: a replica that is gone now is not started again with a
                // key it has used; the step fails, its lease goes back, a new plan asks anew.
                if (replicaState == ReplicaState::Serving)
                    out.push_back({RecoveryKind::Hold, step.id, leaseId, node, "serving"});
                else
                    out.push_back({RecoveryKind::MarkFailed, step.id, leaseId, node,
                                   "the replica stopped serving"});
            } else if (replicaState == ReplicaState::Absent ||
                       replicaState == ReplicaState::Partial) {
                out.push_back({RecoveryKind::StartReplica, step.id, leaseId, node,
                               "replicas missing on the node"});
            } else if (replicaState == ReplicaState::Starting) {
                out.push_back({RecoveryKind::Wait, step.id, leaseId, node, "replica starting"});
            } else if (replicaState == ReplicaState::Failed) {
                out.push_back({RecoveryKind::MarkFailed, step.id, leaseId, node,
                               "the replica failed to start"});
            } else {
                out.push_back(
                    {RecoveryKind::MarkServing, step.id, leaseId, node, "replica serves"});
            }
            break;
        }
        case StepState::Releasing:
            if (!lease || lease->state == PoolLeaseState::Released)
                out.push_back({RecoveryKind::MarkDone, step.id, leaseId, {}, "released"});
            else
                out.push_back({RecoveryKind::Release, step.id, leaseId, {}, "still held"});
            break;
        }
    }
    // Leases of ours that no step accounts for: the console died between the pool's
    // answer and the journal's write, with a key no step kept. Nobody uses them.
    for (const PoolLeaseView &lease : pool) {
        const bool live =
            lease.state == PoolLeaseState::Provisioning || lease.state == PoolLeaseState::Ready;
        if (live && lease.requestedBy == context.requestedBy && !known.count(lease.leaseId))
            out.push_back({RecoveryKind::ReleaseOrphan,
                           0,
                           lease.leaseId,
                           {},
                           "held for us but in no journal step"});
    }
    return out;
}

}  // namespace meridian
