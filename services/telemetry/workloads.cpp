#include "workloads.h"

#include <fmt/format.h>

#include <algorithm>

namespace meridian {

WorkloadManager::WorkloadManager(ReplicaBackend *backend, const Clock &clock, size_t cardCount)
    : m_backend(backend), m_clock(clock), m_cardCount(cardCount)
{}

Result<WorkloadOutcome> WorkloadManager::apply(const WorkloadRequest &request)
{
    if (request.idempotencyKey.empty())
        return Error{"idempotency_key is required for ApplyWorkload"};
    if (!m_backend) {
        return Error{
            "this agent has no replica runner: its collector cannot start inference "
            "replicas"};
    }
    std::lock_guard lock(m_mutex);
    if (const auto it = m_byKey.find(request.idempotencyKey); it != m_byKey.end())
        return WorkloadOutcome{it->second, true};
    auto outcome = request.start ? start(request) : stop(request);
    if (!outcome)
        return outcome.error();
    m_byKey.emplace(request.idempotencyKey, outcome.value());
    return WorkloadOutcome{std::move(outcome).value(), false};
}

Result<Workload> WorkloadManager::start(const WorkloadRequest &request)
{
    Workload w = request.workload;
    if (w.replicaId.empty())
        return Error{"start: replica_id is required"};
    if (w.cardIndices.empty())
        return Error{"start: card_indices is empty"};
    if (const auto it = m_workloads.find(w.replicaId); it != m_workloads.end() &&
                                                       it->second.state != WorkloadState::Stopped &&
                                                       it->second.state != WorkloadState::Failed) {
        return Error{fmt::format("replica {} is already running", w.replicaId)};
    }
    for (uint32_t card : w.cardIndices) {
        if (card >= m_cardCount)
            return Error{fmt::format("start: card {} does not exist on this node", card)};
        if (holderOf(card))
            return Error{fmt::format("start: card {} already runs a replica", card)};
    }
    w.state = WorkloadState::Starting;
    w.startedUnixMs = m_clock.nowUnixMs();
    w.message = request.reason;
    if (Status status = m_backend->startReplica(w); !status)
        return status.error();
    m_workloads[w.replicaId] = w;
    return w;
}

Result<Workload> WorkloadManager::stop(const WorkloadRequest &request)
{
    const auto it = m_workloads.find(request.workload.replicaId);
    if (it == m_workloads.end())
        return Error{fmt::format("stop: no replica {} on this node", request.workload.replicaId)};
    if (Status status = m_backend->stopReplica(it->second.replicaId); !status)
        return status.error();
    it->second.state = WorkloadState::Stopped;
    return it->second;
}

const Workload *WorkloadManager::holderOf(uint32_t cardIndex) const
{
    for (const auto &[id, w] : m_workloads) {
        const bool running =
            w.state == WorkloadState::Starting || w.state == WorkloadState::Serving;
        if (running &&
            std::find(w.cardIndices.begin(), w.cardIndices.end(), cardIndex) != w.cardIndices.end())
            return &w;
    }
    return nullptr;
}

std::string WorkloadManager::serviceOnCard(uint32_t cardIndex)
{
    std::lock_guard lock(m_mutex);
    const Workload *holder = holderOf(cardIndex);
    return holder ? holder->service : std::string();
}

std::vector<Workload> WorkloadManager::list()
{
    std::lock_guard lock(m_mutex);
    std::vector<Workload> out;
    for (auto &[id, w] : m_workloads) {
        if (w.state == WorkloadState::Starting && m_backend->replicaServing(id)) {
            w.state = WorkloadState::Serving;
            w.servingSinceUnixMs = m_clock.nowUnixMs();
        }
        out.push_back(w);
    }
    return out;
}

}  // namespace meridian
