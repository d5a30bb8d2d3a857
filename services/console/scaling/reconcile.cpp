#include "reconcile.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace meridian {

namespace {

constexpr const char *kDrainingAtBalancer = "draining at the load balancer";

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

// What a step that starts or keeps replicas does next, by what its node reports; the same
// for a rented node and one of our own.
Recovery replicaRecovery(const JournalStep &step, ReplicaState state, const std::string &leaseId,
                         const std::string &node)
{
    const auto recovery = [&](RecoveryKind kind, const char *why) {
        return Recovery{kind, step.id, leaseId, node, why};
    };
    if (state == ReplicaState::Unknown)
        return recovery(RecoveryKind::Wait, "the agent did not answer");
    // It served once: a replica that is gone now is not started again with a key it has
    // used; the step fails, its capacity goes back, a new plan asks anew.
    if (step.state == StepState::Serving)
        return state == ReplicaState::Serving
                   ? recovery(RecoveryKind::Hold, "serving")
                   : recovery(RecoveryKind::MarkFailed, "the replica stopped serving");
    switch (state) {
    case ReplicaState::Absent:
    case ReplicaState::Partial:
        return recovery(RecoveryKind::StartReplica, "replicas missing on the node");
    case ReplicaState::Starting: return recovery(RecoveryKind::Wait, "replica starting");
    case ReplicaState::Failed:
        return recovery(RecoveryKind::MarkFailed, "the replica failed to start");
    default: return recovery(RecoveryKind::MarkServing, "replica serves");
    }
}

// A step on one of our own nodes: no lease to ask for, wait on or give back; its replica
// is started on the node the plan chose, and stopped when the step is released.
void reconcileLocal(const JournalStep &step, const ReplicaView *replica, bool draining,
                    std::vector<Recovery> &out)
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
        else if (draining)
            out.push_back({RecoveryKind::Wait, step.id, {}, node, kDrainingAtBalancer});
        else if (present(replica) && state != ReplicaState::Failed)
            out.push_back({RecoveryKind::StopReplica, step.id, {}, node, "released"});
        else
            out.push_back({RecoveryKind::MarkDone, step.id, {}, node, "stopped"});
        return;
    default: out.push_back(replicaRecovery(step, state, {}, node));
    }
}

bool timedOut(const JournalStep &step, const ReconcileContext &context)
{
    const auto measured = context.stateAgeMs.find(step.id);
    const int64_t age = measured != context.stateAgeMs.end()
                            ? measured->second
                            : context.nowUnixMs - step.updatedUnixMs;
    return age > context.provisioningTimeoutMs;
}

// A rented step whose node has not answered since its lease was ready, for longer than
// the context allows: the lease is paid for and nothing can run on it.
bool nodeSilentTooLong(const JournalStep &step, const ReconcileContext &context)
{
    if (step.state != StepState::Provisioned && step.state != StepState::Starting)
        return false;
    const auto silent = context.silentForMs.find(step.id);
    return silent != context.silentForMs.end() && silent->second > context.nodeAnswerTimeoutMs;
}

// Approved or leasing: the lease is asked for (again: the key makes it once), adopted, or
// found failed.
Recovery leaseRecovery(const JournalStep &step, const PoolLeaseView *lease,
                       const ReconcileContext &context)
{
    if (!lease)  // the call may never have left: asking again with the same key rents once
        return {RecoveryKind::Lease, step.id, {}, {}, "no lease with this key yet"};
    const std::string &leaseId = lease->leaseId;
    if (lease->state == PoolLeaseState::Failed)
        return {RecoveryKind::MarkFailed,
                step.id,
                leaseId,
                {},
                "the pool failed the lease: " + lease->message};
    if (lease->state == PoolLeaseState::Released)
        return {RecoveryKind::MarkFailed,
                step.id,
                leaseId,
                {},
                "the lease was released before it was used"};
    const bool ready = lease->state == PoolLeaseState::Ready;
    if (!ready && timedOut(step, context))
        return {
            RecoveryKind::GiveUp, step.id, leaseId, {}, "the lease did not become ready in time"};
    return {RecoveryKind::Adopt, step.id, leaseId, {}, ready ? "ready" : "provisioning", ready};
}

// Provisioned, starting or serving: the lease must still be there and ready, and its node's
// replicas are what decide.
Recovery onLeaseRecovery(const JournalStep &step, const PoolLeaseView *lease,
                         const std::string &leaseId, const std::vector<ReplicaView> &replicas,
                         const ReconcileContext &context)
{
    if (!lease || lease->state == PoolLeaseState::Released ||
        lease->state == PoolLeaseState::Failed)
        return {RecoveryKind::MarkFailed,
                step.id,
                leaseId,
                {},
                "its lease is gone; a new plan will ask again"};
    if (lease->state == PoolLeaseState::Provisioning)
        return timedOut(step, context)
                   ? Recovery{RecoveryKind::GiveUp,
                              step.id,
                              leaseId,
                              {},
                              "the lease did not become ready in time"}
                   : Recovery{RecoveryKind::Wait, step.id, leaseId, {}, "still provisioning"};
    const std::string node = !step.nodeId.empty()      ? step.nodeId
                             : !lease->nodeIds.empty() ? lease->nodeIds.front()
                                                       : std::string();
    if (nodeSilentTooLong(step, context))
        return {RecoveryKind::GiveUp, step.id, leaseId, node,
                fmt::format("its node {} has not answered for {} min since the lease was ready; "
                            "the lease is given back",
                            node, context.nodeAnswerTimeoutMs / 60'000)};
    const ReplicaView *replica = replicaFor(step, replicas);
    return replicaRecovery(step, replica ? replica->state : ReplicaState::Absent, leaseId, node);
}

bool holdsCapacity(StepState state)
{
    return state == StepState::Approved || state == StepState::Leasing ||
           state == StepState::Provisioned || state == StepState::Starting ||
           state == StepState::Serving;
}

// Steps whose ready lease names a node that cannot be theirs, and why: one of our own, or
// one that an earlier step's lease already holds (a pool that hands one node to several
// leases is paid for each of them). The earliest step keeps a node; the others give back.
std::map<int64_t, std::string> leasesNamingTakenNodes(const std::vector<JournalStep> &journal,
                                                      const std::vector<PoolLeaseView> &pool,
                                                      const ReconcileContext &context)
{
    std::map<int64_t, std::string> refused;
    std::map<std::string, std::string> holder;  // node id or agent address → lease id
    for (const JournalStep &step : journal) {
        if (step.offerId == kLocalOffer || !holdsCapacity(step.state))
            continue;
        const PoolLeaseView *lease = leaseFor(step, pool);
        if (!lease || lease->state != PoolLeaseState::Ready)
            continue;
        std::vector<std::string> names = lease->nodeIds;
        for (const std::string &address : lease->agentAddresses)
            if (!address.empty())
                names.push_back(address);
        for (const std::string &name : names) {
            if (context.ownNodes.count(name)) {
                refused[step.id] = fmt::format(
                    "the pool leased {}, one of our own nodes; the lease is given back", name);
                break;
            }
            const auto held = holder.find(name);
            if (held != holder.end() && held->second != lease->leaseId) {
                refused[step.id] = fmt::format(
                    "the pool leased {}, which lease {} already holds; the lease is given back",
                    name, held->second);
                break;
            }
        }
        if (!refused.count(step.id))
            for (const std::string &name : names)
                holder.emplace(name, lease->leaseId);
    }
    return refused;
}

// A step on rented capacity.
void reconcileRented(const JournalStep &step, const PoolLeaseView *lease,
                     const std::vector<ReplicaView> &replicas, const ReconcileContext &context,
                     const std::map<int64_t, std::string> &refused, std::vector<Recovery> &out)
{
    const std::string leaseId = lease ? lease->leaseId : step.leaseId;
    if (const auto taken = refused.find(step.id); taken != refused.end()) {
        out.push_back({RecoveryKind::GiveUp, step.id, leaseId, {}, taken->second});
        return;
    }
    switch (step.state) {
    case StepState::Planned:
    case StepState::Rejected:
    case StepState::Superseded:
    case StepState::Done: return;  // nothing asked of anyone, or already given back
    case StepState::Failed:
        // A failed step's lease serves nobody: give it back.
        if (lease &&
            (lease->state == PoolLeaseState::Provisioning || lease->state == PoolLeaseState::Ready))
            out.push_back({RecoveryKind::Release,
                           step.id,
                           leaseId,
                           {},
                           "the step failed; its lease is not used"});
        return;
    case StepState::Approved:
    case StepState::Leasing: out.push_back(leaseRecovery(step, lease, context)); return;
    case StepState::Provisioned:
    case StepState::Starting:
    case StepState::Serving:
        out.push_back(onLeaseRecovery(step, lease, leaseId, replicas, context));
        return;
    case StepState::Releasing:
        if (!lease || lease->state == PoolLeaseState::Released)
            out.push_back({RecoveryKind::MarkDone, step.id, leaseId, {}, "released"});
        else if (context.draining.count(step.id))
            out.push_back({RecoveryKind::Wait, step.id, leaseId, {}, kDrainingAtBalancer});
        else
            out.push_back({RecoveryKind::Release, step.id, leaseId, {}, "still held"});
        return;
    }
}

}  // namespace

std::vector<Recovery> reconcile(const std::vector<JournalStep> &journal,
                                const std::vector<PoolLeaseView> &pool,
                                const std::vector<ReplicaView> &replicas,
                                const ReconcileContext &context)
{
    std::vector<Recovery> out;
    const std::map<int64_t, std::string> refused = leasesNamingTakenNodes(journal, pool, context);
    std::set<std::string> known;  // leases some step accounts for
    for (const JournalStep &step : journal) {
        if (step.offerId == kLocalOffer) {
            reconcileLocal(step, replicaFor(step, replicas), context.draining.count(step.id) > 0,
                           out);
            continue;
        }
        const PoolLeaseView *lease = leaseFor(step, pool);
        if (lease)
            known.insert(lease->leaseId);
        reconcileRented(step, lease, replicas, context, refused, out);
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
