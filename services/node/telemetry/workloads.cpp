#include "workloads.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace meridian {

namespace {

const std::string kWorkloadRecord = "workload";
const std::string kAnswerRecord = "workload-answer";

}  // namespace

std::string workloadToJson(const Workload &w)
{
    nlohmann::json j = {{"replica_id", w.replicaId},
                        {"service", w.service},
                        {"model", w.model},
                        {"cards", w.cardIndices},
                        {"state", static_cast<int>(w.state)},
                        {"started_unix_ms", w.startedUnixMs},
                        {"message", w.message}};
    if (w.servingSinceUnixMs)
        j["serving_since_unix_ms"] = *w.servingSinceUnixMs;
    return j.dump();
}

std::optional<Workload> workloadFromJson(const std::string &text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    try {
        Workload w;
        w.replicaId = j.at("replica_id").get<std::string>();
        w.service = j.value("service", "");
        w.model = j.value("model", "");
        w.cardIndices = j.at("cards").get<std::vector<uint32_t>>();
        const int state = j.value("state", 0);
        if (state < 0 || state > static_cast<int>(WorkloadState::Failed))
            return std::nullopt;
        w.state = static_cast<WorkloadState>(state);
        w.startedUnixMs = j.value("started_unix_ms", int64_t{0});
        if (j.contains("serving_since_unix_ms"))
            w.servingSinceUnixMs = j["serving_since_unix_ms"].get<int64_t>();
        w.message = j.value("message", "");
        return w;
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
}

WorkloadManager::WorkloadManager(ReplicaBackend *backend, const Clock &clock, size_t cardCount,
                                 NodeRecords *records)
    : m_backend(backend), m_clock(clock), m_cardCount(cardCount), m_records(records)
{
    if (!m_records)
        return;
    // A record that does not read is skipped: the rest still come back.
    if (auto saved = m_records->all(kWorkloadRecord)) {
        for (const auto &[id, text] : *saved) {
            if (auto w = workloadFromJson(text))
                m_workloads[id] = *w;
        }
    }
    if (auto answers = m_records->all(kAnswerRecord)) {
        for (const auto &[key, text] : *answers) {
            if (auto w = workloadFromJson(text))
                m_byKey[key] = *w;
        }
    }
}

void WorkloadManager::keep(const Workload &workload)
{
    if (m_records)
        (void)m_records->put(kWorkloadRecord, workload.replicaId, workloadToJson(workload));
}

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
    if (m_records) {
        // Kept before the answer leaves: a restart right after still knows the key.
        if (Status kept = m_records->put(kAnswerRecord, request.idempotencyKey,
                                         workloadToJson(outcome.value()));
            !kept)
            return kept.error();
    }
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
    keep(w);
    return w;
}

Result<Workload> WorkloadManager::stop(const WorkloadRequest &request)
{
    const auto it = m_workloads.find(request.workload.replicaId);
    if (it == m_workloads.end())
        return Error{fmt::format("stop: no replica {} on this node", request.workload.replicaId)};
    if (Status status = m_backend->stopReplica(it->second.replicaId); !status)
        return status.error();
    it->second.state = m_backend->replicaDraining(it->second.replicaId) ? WorkloadState::Stopping
                                                                        : WorkloadState::Stopped;
    keep(it->second);
    return it->second;
}

const Workload *WorkloadManager::holderOf(uint32_t cardIndex) const
{
    for (const auto &[id, w] : m_workloads) {
        const bool running = w.state == WorkloadState::Starting ||
                             w.state == WorkloadState::Serving ||
                             w.state == WorkloadState::Stopping;
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
        const WorkloadState before = w.state;
        const bool live = w.state == WorkloadState::Starting || w.state == WorkloadState::Serving;
        if (live && m_backend) {
            if (auto failure = m_backend->replicaFailure(id)) {
                w.state = WorkloadState::Failed;
                w.message = *failure;
            } else if (w.state == WorkloadState::Starting && m_backend->replicaServing(id)) {
                w.state = WorkloadState::Serving;
                w.servingSinceUnixMs = m_clock.nowUnixMs();
            }
        }
        if (w.state == WorkloadState::Stopping && m_backend && !m_backend->replicaDraining(id))
            w.state = WorkloadState::Stopped;
        if (w.state != before)
            keep(w);
        out.push_back(w);
    }
    return out;
}

}  // namespace meridian
