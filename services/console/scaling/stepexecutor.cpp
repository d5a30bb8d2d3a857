#include "stepexecutor.h"

#include <algorithm>
#include <map>

namespace meridian {

StepExecutor::StepExecutor(StepJournal &journal, CapacityPoolApi &pool, ReplicaApi &replicas,
                           std::string requestedBy)
    : m_journal(journal), m_pool(pool), m_replicas(replicas), m_requestedBy(std::move(requestedBy))
{}

Result<std::vector<Recovery>> StepExecutor::advance(int64_t nowUnixMs, std::set<int64_t> draining,
                                                    std::optional<int64_t> steadyMs)
{
    m_steadyMs = steadyMs.value_or(nowUnixMs);
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
    context.ownNodes = m_ownNodes;
    context.nodeAnswerTimeoutMs = m_nodeAnswerTimeoutMs;
    measureAges(steps.value(), replicas.value(), nowUnixMs, m_steadyMs, context);
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

void StepExecutor::measureAges(const std::vector<JournalStep> &steps,
                               const std::vector<ReplicaView> &replicas, int64_t nowUnixMs,
                               int64_t steadyMs, ReconcileContext &context)
{
    std::map<int64_t, InState> inState;
    std::map<int64_t, int64_t> silentSince;
    for (const JournalStep &step : steps) {
        // In this state since it was last seen in it; since this executor moved it; or, at
        // its first sight (a restart, a step planned this pass), since the journal says it
        // moved (never in the future: a clock set back).
        InState now{step.state, steadyMs - std::max<int64_t>(0, nowUnixMs - step.updatedUnixMs)};
        const auto seen = m_inState.find(step.id);
        const auto moved = m_movedAtSteadyMs.find(step.id);
        if (seen != m_inState.end() && seen->second.state == step.state)
            now = seen->second;
        else if (moved != m_movedAtSteadyMs.end())
            now.sinceSteadyMs = moved->second;
        inState[step.id] = now;
        context.stateAgeMs[step.id] = steadyMs - now.sinceSteadyMs;
        // A rented node is waited on from when its lease is ready until its replicas serve.
        const bool waitedOn =
            step.state == StepState::Provisioned || step.state == StepState::Starting;
        if (step.offerId == kLocalOffer || !waitedOn)
            continue;
        const auto replica = std::find_if(
            replicas.begin(), replicas.end(),
            [&](const ReplicaView &r) { return r.idempotencyKey == step.idempotencyKey; });
        if (replica == replicas.end() || replica->state != ReplicaState::Unknown)
            continue;
        const auto was = m_silentSinceSteadyMs.find(step.id);
        silentSince[step.id] = was != m_silentSinceSteadyMs.end() ? was->second : steadyMs;
        context.silentForMs[step.id] = steadyMs - silentSince[step.id];
    }
    m_inState = std::move(inState);
    m_silentSinceSteadyMs = std::move(silentSince);
    m_movedAtSteadyMs.clear();
}

Status StepExecutor::move(int64_t id, StepState state, const std::string &leaseId,
                          const std::string &nodeId, int64_t nowUnixMs)
{
    m_movedAtSteadyMs[id] = m_steadyMs;  // it entered its new state now: the next pass's age
    return m_journal.moveStep(id, state, leaseId, nodeId, nowUnixMs);
}

Status StepExecutor::lease(const JournalStep &step, int64_t now, std::vector<Recovery> &done)
{
    if (Status s = move(step.id, StepState::Leasing, {}, {}, now); !s)
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
    return move(step.id, StepState::Failed, {}, {}, now);
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
            return move(step.id, StepState::Provisioned, a.leaseId, {}, now);
        if (step.leaseId == a.leaseId)
            return {};
        return move(step.id, StepState::Leasing, a.leaseId, {}, now);
    case RecoveryKind::Wait:
    case RecoveryKind::Hold: return {};
    case RecoveryKind::StartReplica:
        if (Status s = move(step.id, StepState::Starting, a.leaseId, a.nodeId, now); !s)
            return s;
        return m_replicas.start(a.nodeId, step.idempotencyKey, step.service);
    case RecoveryKind::StopReplica:
        // Releasing and failed steps are already journalled as such: the stop is repeated
        // until the agent says nothing of this key runs.
        return m_replicas.stop(a.nodeId, step.idempotencyKey);
    case RecoveryKind::MarkServing:
        return move(step.id, StepState::Serving, a.leaseId, a.nodeId, now);
    case RecoveryKind::MarkDone: return move(step.id, StepState::Done, a.leaseId, a.nodeId, now);
    case RecoveryKind::MarkFailed:
        return move(step.id, StepState::Failed, a.leaseId, a.nodeId, now);
    case RecoveryKind::Release:
        if (step.state == StepState::Failed)
            return m_pool.release(a.leaseId);  // the step stays failed; its lease goes back
        if (Status s = move(step.id, StepState::Releasing, a.leaseId, {}, now); !s)
            return s;
        return m_pool.release(a.leaseId);
    case RecoveryKind::GiveUp:
        if (Status s = move(step.id, StepState::Failed, a.leaseId, {}, now); !s)
            return s;
        return m_pool.release(a.leaseId);
    case RecoveryKind::ReleaseOrphan: return m_pool.release(a.leaseId);
    }
    return {};
}

}  // namespace meridian
