#include "usagesync.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include "agentlinks.h"
#include "cost/costrecords.h"
#include "history/historystore.h"
#include "leasesync.h"
#include "meridian/v1/node_agent.grpc.pb.h"
#include "wire/calldeadline.h"
#include "wire/callfailure.h"
#include "wire/protoconvert.h"

namespace meridian {

namespace {

// A minute a working agent could have measured. A broken or hostile agent's NaN,
// negative or over-long seconds would otherwise become cost.
bool plausible(const UsageMinute &m)
{
    const auto finiteIn = [](double v, double low, double high) {
        return std::isfinite(v) && v >= low && v <= high;
    };
    return m.minuteStartUnixS > 0 && m.minuteStartUnixS % 60 == 0 &&
           finiteIn(m.observedSeconds, 0, 60.5) &&
           finiteIn(m.busySeconds, 0, m.observedSeconds + 0.5) &&
           (!m.meanUtilizationPercent || finiteIn(*m.meanUtilizationPercent, 0, 100)) &&
           (!m.energyJoules || finiteIn(*m.energyJoules, 0, 60.5 * 10'000)) &&
           !m.cardUuid.empty() && m.service.size() <= 200;
}

Result<NodeInventory> fetchInventory(v1::NodeAgent::Stub &stub, const InventoryAgent &agent,
                                     int64_t callTimeoutMs)
{
    grpc::ClientContext context;
    setCallDeadline(context, callTimeoutMs);
    v1::NodeInventory message;
    const grpc::Status status = stub.GetInventory(&context, {}, &message);
    if (!status.ok())
        return Error{fmt::format("{}: {}", agent.address, describeCallFailure(status))};
    return fromProto(message);
}

// One agent; minutes written, or an error that names it.
Result<int64_t> syncAgent(const InventoryAgent &agent, const ClientSecurity &security,
                          HistoryStore &store, int64_t callTimeoutMs, const AgentLinks *links)
{
    std::shared_ptr<grpc::Channel> channel = links ? links->channelTo(agent.address) : nullptr;
    if (!channel)
        channel = makeChannel(agent.address, security);
    auto stub = v1::NodeAgent::NewStub(channel);
    std::optional<NodeInventory> known = links ? links->inventoryOf(agent.address) : std::nullopt;
    if (!known) {
        auto fetched = fetchInventory(*stub, agent, callTimeoutMs);
        if (!fetched)
            return fetched.error();
        known = std::move(fetched).value();
    }
    NodeInventory inventory = std::move(*known);
    if (inventory.dataCenter.empty() || inventory.dataCenter == "unknown")
        inventory.dataCenter = agent.dataCenter;  // the inventory file knows where it stands

    grpc::ClientContext usageContext;
    setCallDeadline(usageContext, callTimeoutMs);
    v1::GetUsageRequest request;
    request.set_since_minute_unix_s(store.lastMinute(inventory.nodeId));
    auto reader = stub->GetUsage(&usageContext, request);
    v1::UsageChunk chunk;
    int64_t minutes = 0;
    int64_t implausible = 0;
    while (reader->Read(&chunk)) {
        UsageBatch batch;
        batch.node = inventory;
        batch.minutes.reserve(static_cast<size_t>(chunk.minutes_size()));
        for (const auto &m : chunk.minutes()) {
            UsageMinute minute = fromProto(m);
            if (plausible(minute))
                batch.minutes.push_back(std::move(minute));
            else
                ++implausible;
        }
        minutes += static_cast<int64_t>(batch.minutes.size());
        store.submit(std::move(batch));
    }
    const grpc::Status usageStatus = reader->Finish();
    if (!usageStatus.ok()) {
        // What arrived is kept; the next sync resumes after it.
        return Error{fmt::format("{}: usage stream ended early: {}", agent.address,
                                 describeCallFailure(usageStatus))};
    }
    if (implausible > 0) {
        return Error{
            fmt::format("{}: {} usage minutes ignored as impossible (NaN, negative, or "
                        "more than a minute); {} stored",
                        agent.address, implausible, minutes)};
    }
    return minutes;
}

}  // namespace

SyncReport syncUsage(const FleetInventory &inventory, HistoryStore &store, int parallel,
                     int64_t callTimeoutMs, const Clock &clock, const AgentLinks *links)
{
    SyncReport report;
    std::vector<InventoryAgent> agents = inventory.agents;
    if (!inventory.capacityPool.empty()) {
        auto pool = fetchLeases(inventory.capacityPool, inventory.security, callTimeoutMs);
        if (!pool) {
            report.failures.push_back(pool.error().message);
        } else if (Status recorded = recordCloudLeases(store, pool->leases); !recorded) {
            report.failures.push_back(recorded.message());
        } else {
            report.leases = static_cast<int>(pool->leases.size());
            for (const LeasedAgent &agent : pool->agents) {
                const bool known = std::any_of(agents.begin(), agents.end(), [&](const auto &a) {
                    return a.address == agent.address;
                });
                if (!known)
                    agents.push_back({agent.nodeId, agent.address, "cloud"});
            }
        }
    }
    report.agents = static_cast<int>(agents.size());
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::vector<std::thread> workers;
    for (int w = 0; w < std::max(1, parallel); ++w) {
        workers.emplace_back([&] {
            for (size_t i = next++; i < agents.size(); i = next++) {
                auto result = syncAgent(agents[i], inventory.security, store, callTimeoutMs, links);
                std::lock_guard lock(mutex);
                if (result) {
                    ++report.synced;
                    report.minutes += result.value();
                } else {
                    report.failures.push_back(result.error().message);
                }
            }
        });
    }
    for (auto &worker : workers)
        worker.join();
    if (Status written = store.flush(); !written)
        report.failures.push_back(written.message());
    if (Status kept = store.applyRetention(clock.nowUnixMs() / 1000); !kept)
        report.failures.push_back(kept.message());
    return report;
}

}  // namespace meridian
