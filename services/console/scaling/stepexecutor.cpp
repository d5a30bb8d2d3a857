#include "stepexecutor.h"

#include <map>

namespace meridian {

StepExecutor::StepExecutor(StepJournal &journal, CapacityPoolApi &pool, ReplicaApi &replicas,
                           std::string requestedBy)
    : m_journal(journal), m_pool(pool), m_replicas(replicas), m_requestedBy(std::move(requestedBy))
{}

Result<std::vector<Recovery>> StepExecutor::advance(int64_t nowUnixMs, std::set<int64_t> draining)
{
    auto steps = m_journal.openSteps();
    if (!steps)
        return steps.error();
    auto leases = m_pool.leases();
    if (!leases)
        return leases.error();
    auto replicas = m_replicas.replicas();
    if (!replicas)
        return replicas.error();
    std::map<int64_t, JournalStep> byId;
    for (const JournalStep &s : steps.value())
        byId[s.id] = s;
    ReconcileContext context{m_requestedBy, nowUnixMs};
    context.draining = std::move(draining);
    const std::vector<Recovery> actions =
        reconcile(steps.value(), leases.value(), replicas.value(), context);
    std::vector<Recovery> done;
    for (const Recovery &action : actions) {
        const auto it = byId.find(action.stepId);
        const JournalStep step = it != byId.end() ? it->second : JournalStep{};
        if (Status status = act(action, step, nowUnixMs, done); !status)
            return status.error();
    }
    return done;
}

Status StepExecutor::lease(const JournalStep &step, int64_t now, std::vector<Recovery> &done)
{
    if (Status s = m_journal.moveStep(step.id, StepState::Leasing, {}, {}, now); !s)
        return s;
    auto answer = m_pool.lease(step.idempotencyKey, step.offerId, m_requestedBy);
    if (!answer)
        return answer.error();
    if (!answer.value().refused)
        return {};
    done.push_back({RecoveryKind::MarkFailed,
                    step.id,
                    {},
                    {},
                    "the pool refused the lease: " + answer.value().why});
    return m_journal.moveStep(step.id, StepState::Failed, {}, {}, now);
}

Status StepExecutor::act(const Recovery &a, const JournalStep &step, int64_t now,
                         std::vector<Recovery> &done)
{
    done.push_back(a);
    // The journal first, then the call: a crash between them leaves a step that says
    // "maybe", which the next pass resolves with the same idempotency key.
    switch (a.kind) {
    case RecoveryKind::Lease: return lease(step, now, done);
    case RecoveryKind::Adopt:
        // A ready lease moves on; a provisioning one is recorded once and waited for (the
        // step's time is not touched again, so the provisioning limit still counts).
        if (a.leaseReady)
            return m_journal.moveStep(step.id, StepState::Provisioned, a.leaseId, {}, now);
        if (step.leaseId == a.leaseId)
            return {};
        return m_journal.moveStep(step.id, StepState::Leasing, a.leaseId, {}, now);
    case RecoveryKind::Wait:
    case RecoveryKind::Hold: return {};
    case RecoveryKind::StartReplica:
        if (Status s = m_journal.moveStep(step.id, StepState::Starting, a.leaseId, a.nodeId, now);
            !s)
            return s;
        return m_replicas.start(a.nodeId, step.idempotencyKey, step.service);
    case RecoveryKind::StopReplica:
        // Releasing and failed steps are already journalled as such: the stop is repeated
        // until the agent says nothing of this key runs.
        return m_replicas.stop(a.nodeId, step.idempotencyKey);
    case RecoveryKind::MarkServing:
        return m_journal.moveStep(step.id, StepState::Serving, a.leaseId, a.nodeId, now);
    case RecoveryKind::MarkDone:
        return m_journal.moveStep(step.id, StepState::Done, a.leaseId, a.nodeId, now);
    case RecoveryKind::MarkFailed:
        return m_journal.moveStep(step.id, StepState::Failed, a.leaseId, a.nodeId, now);
    case RecoveryKind::Release:
        if (step.state == StepState::Failed)
            return m_pool.release(a.leaseId);  // the step stays failed; its lease goes back
        if (Status s = m_journal.moveStep(step.id, StepState::Releasing, a.leaseId, {}, now); !s)
            return s;
        return m_pool.release(a.leaseId);
    case RecoveryKind::GiveUp:
        if (Status s = m_journal.moveStep(step.id, StepState::Failed, a.leaseId, {}, now); !s)
            return s;
        return m_pool.release(a.leaseId);
    case RecoveryKind::ReleaseOrphan: return m_pool.release(a.leaseId);
    }
    return {};
}

}  // namespace meridian
