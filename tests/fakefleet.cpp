#include "fakefleet.h"

#include <functional>

namespace meridian::test {

void fillFleet(FleetState &state, const std::vector<FakeNode> &nodes, int64_t nowMs)
{
    for (const FakeNode &fake : nodes) {
        const NodeHandle n = state.addNode(
            "127.0.0.1:" + std::to_string(40000 + std::hash<std::string>{}(fake.nodeId) % 20000),
            fake.dataCenter);
        if (!fake.reports) {
            state.setConnection(n, ConnectionState::Unreachable, "connection refused");
            continue;
        }
        NodeInventory inventory;
        inventory.nodeId = fake.nodeId;
        inventory.rack = fake.rack;
        inventory.hostname = fake.nodeId + ".example";
        TelemetrySample sample;
        sample.sampleTimeUnixMs = nowMs;
        for (int i = 0; i < fake.cards; ++i) {
            CardInfo card;
            card.index = static_cast<uint32_t>(i);
            card.uuid = fake.nodeId + "-card-" + std::to_string(i);
            card.vendor = fake.vendor;
            card.model = fake.vendor == Vendor::Nvidia ? "A100-SXM4-80GB" : "Ascend 910B";
            inventory.cards.push_back(card);
            CardSample s;
            s.index = card.index;
            s.utilizationPercent = fake.utilization;
            s.temperatureCelsius = 60;
            sample.cards.push_back(s);
        }
        state.setInventory(n, inventory, 1000);
        state.recordTelemetry(n, sample, nowMs);
    }
}

std::vector<FakeNode> threeDataCenters(int nodes, int perRack)
{
    std::vector<FakeNode> fleet;
    const char *dcs[] = {"xiamen", "wuhu", "zhongwei"};
    for (int i = 0; i < nodes; ++i) {
        FakeNode n;
        n.dataCenter = dcs[i % 3];
        n.nodeId = "n" + std::to_string(i);
        n.rack = n.dataCenter.substr(0, 2) + "-r" + std::to_string(i / perRack);
        n.utilization = i % 100;
        fleet.push_back(n);
    }
    return fleet;
}

}  // namespace meridian::test
