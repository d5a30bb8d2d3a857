// Everything the console knows about the fleet right now, as struct-of-arrays indexed by
// dense card and node handles. gRPC callback threads write into it (a few microseconds
// under one mutex per batch); the UI and other consumers pull whole snapshots on their
// own timers and never wait on the network. Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cardhistory.h"
#include "core/nodetypes.h"

namespace meridian {

using CardHandle = uint32_t;
using NodeHandle = uint32_t;

enum class ConnectionState { Connecting, Connected, Unreachable };

// A node read from a Prometheus-compatible store rather than from its agent is added with
// this address, so views can tell (its history is the store's, not this console's).
std::string storeNodeAddress(const std::string &host);
bool isStoreNodeAddress(const std::string &address);

struct FleetEvent {
    NodeHandle node = 0;
    Event event;
};

// Who is where: which cards exist, on which node, in which data center. It changes
// only when an inventory arrives, so snapshots share one copy instead of copying
// thousands of strings ten times a second.
struct FleetLayout {
    uint64_t generation = 0;

    // Cards (index = CardHandle).
    std::vector<NodeHandle> cardNode;
    std::vector<uint32_t> cardIndex;
    std::vector<Vendor> cardVendor;
    std::vector<std::string> cardModel;
    std::vector<std::string> cardUuid;

    // Nodes (index = NodeHandle).
    std::vector<std::string> nodeAddress;
    std::vector<std::string> nodeId;          // as the agent says; empty until it does
    std::vector<std::string> nodeHint;        // the inventory's name for it; may be empty
    std::vector<std::string> nodeDataCenter;  // as configured in the inventory
    std::vector<std::string> nodeRack;
    std::vector<std::string> nodeHostname;
    std::vector<std::vector<CardHandle>> nodeCards;

    size_t cardCount() const { return cardNode.size(); }
    size_t nodeCount() const { return nodeAddress.size(); }
};

// What a node's agent is doing, as people count it: live; connecting (not heard from
// yet, nothing refused); stale (heard from, then silent); unreachable (refused or failing).
enum class NodeStatus { Live, Connecting, Stale, Unreachable };

// What is wrong with a card, as bits of FleetSnapshot::cardFaults. Xid and ECC stay once
// seen (the card needs a reset or a swap whatever it reads now); throttling is as the
// latest reading says.
enum CardFault : uint8_t {
    kFaultXid = 1,
    kFaultEccUncorrected = 2,
    kFaultThermal = 4,
    kFaultThrottled = 8,  // slowed by hardware (power brake, slowdown), not by heat
};

// The readings at one moment, beside the layout they belong to; plain values, cheap to
// hand to the UI thread.
struct FleetSnapshot {
    int64_t takenUnixMs = 0;
    std::shared_ptr<const FleetLayout> layout;

    // Cards (index = CardHandle).
    std::vector<float> utilization;    // percent; NaN when not reported
    std::vector<float> memoryPercent;  // used / total
    std::vector<float> temperature;    // °C
    std::vector<float> power;          // W
    std::vector<uint32_t> errors;      // uncorrectable ECC + Xid seen since the console started
    std::vector<uint8_t> cardFaults;   // CardFault bits
    std::vector<int64_t> cardLastSeenMs;

    // Nodes (index = NodeHandle).
    std::vector<ConnectionState> nodeConnection;
    std::vector<std::string> nodeError;
    std::vector<int64_t> nodeLastSeenMs;
    std::vector<int64_t> nodeIntervalMs;
    // A link of the node's is down, or dropped twice or more in the last ten minutes.
    std::vector<uint8_t> nodeLinkFault;

    size_t cardCount() const { return utilization.size(); }
    size_t nodeCount() const { return nodeConnection.size(); }
    // Missed three intervals (or never reported).
    bool nodeStale(NodeHandle node) const;
    NodeStatus nodeStatus(NodeHandle node) const;
};

// One NIC's rates at a moment, kept for the fabric's charts (the last 15 minutes).
struct NicPoint {
    int64_t timeUnixMs = 0;
    float rxBitsPerSecond = 0;  // NaN: not reported
    float txBitsPerSecond = 0;
    float pfcPausesPerSecond = 0;
    float ecnPerSecond = 0;
};

// One inference replica's latest signals, with the node that reported them.
struct ReplicaReading {
    std::string nodeId;
    std::string dataCenter;
    std::string agentAddress;  // host:port of the node's agent; the replica serves on its host
    int64_t receivedUnixMs = 0;
    ReplicaSignals signals;
};

class FleetState {
public:
    // A judge that draws no charts (the headless watcher) keeps no card history: 15
    // minutes of 6,000 cards are 40 MB it would never read. Called before any node.
    void keepNoCardHistory() { m_keepsCardHistory = false; }

    // An agent the console should talk to; its cards arrive with its inventory.
    // `hint` is the node's name in the inventory, until the agent says its own.
    NodeHandle addNode(const std::string &address, const std::string &dataCenter,
                       const std::string &hint = {});

    // Cards keep their handles across agent restarts (matched by UUID).
    void setInventory(NodeHandle node, const NodeInventory &inventory, int64_t intervalMs,
                      int64_t receivedUnixMs = 0);
    // The node's NICs as its agent reads them now (LLDP, link state). A neighbour that
    // disappears is kept as last seen, with when: the fabric calls it stale.
    void updateNics(NodeHandle node, const std::vector<NicInfo> &nics, int64_t receivedUnixMs);
    void recordTelemetry(NodeHandle node, const TelemetrySample &sample, int64_t receivedUnixMs);
    void recordEvent(NodeHandle node, const Event &event);
    void setConnection(NodeHandle node, ConnectionState state, const std::string &error = {});

    // The last event sequence seen from the node's agent (resume point), per boot.
    uint64_t lastEventSequence(NodeHandle node) const;

    FleetSnapshot snapshot(int64_t nowUnixMs) const;
    std::vector<HistoryPoint> history(CardHandle card, CardMetric metric) const;
    // The node's most recent events, newest last, at most `limit`.
    std::vector<Event> recentEvents(NodeHandle node, size_t limit) const;
    // The replicas of every node heard from within three intervals (a silent node's
    // replicas say nothing about now). Garbage numbers arrive as absent.
    std::vector<ReplicaReading> replicaReadings(int64_t nowUnixMs) const;
    // Every RDMA NIC of every node with an inventory: its LLDP neighbour and rail, its
    // latest rates, and how often its link dropped in the last ten minutes. The neighbour
    // counts as heard when its node last reported.
    std::vector<HostNic> hostNics(int64_t nowUnixMs) const;
    // One node's RDMA NICs, each with its switch neighbour as last named (the card panel
    // names a link alert's switch port).
    std::vector<NicInfo> nicsOf(NodeHandle node) const;
    // One NIC's rates over the last 15 minutes, a point every 5 s, oldest first.
    std::vector<NicPoint> nicHistory(const std::string &nodeId, const std::string &netdev) const;
    // Telemetry batches recorded so far (the ingest rate, for diagnostics).
    uint64_t telemetryBatches() const;
    // Events recorded after `afterCounter` (a running count), and the new count.
    std::vector<FleetEvent> eventsSince(uint64_t afterCounter, uint64_t *newCounter) const;

private:
    struct Node {
        ConnectionState connection = ConnectionState::Connecting;
        std::string error;
        int64_t lastSeenMs = 0;
        int64_t intervalMs = 1000;
        uint64_t lastEventSequence = 0;
        std::vector<ReplicaSignals> replicas;
        std::shared_ptr<const std::vector<NicInfo>> nics;  // as last read; shared, not copied
        std::map<std::string, std::pair<LldpNeighbor, int64_t>>
            lastNeighbor;  // netdev → (it, seen)
        std::vector<NicSample> nicSamples;
        std::map<std::string, std::deque<int64_t>> linkDrops;    // netdev → when
        std::map<std::string, int64_t> linksDown;                // netdev → since (events)
        int64_t lastFlapMs = 0;                                  // the agent's flap event
        std::map<std::string, std::deque<NicPoint>> nicHistory;  // netdev → the last minutes
        int64_t nicHistoryMs = 0;
    };
    void addCardLocked(CardHandle card);
    void storeNicsLocked(Node &node, const std::vector<NicInfo> &nics, int64_t receivedUnixMs);
    // A telemetry sample's two halves: NIC rates, link drops and history; card readings.
    void recordNicsLocked(Node &node, const std::vector<NicSample> &nics, int64_t receivedUnixMs);
    void recordCardsLocked(NodeHandle handle, const TelemetrySample &sample,
                           int64_t receivedUnixMs);
    void recordCardEventLocked(CardHandle card, EventKind kind);
    static void recordLinkEventLocked(Node &node, const Event &event);
    static bool linkFaulty(const Node &node, int64_t nowUnixMs);

    mutable std::mutex m_mutex;
    FleetLayout m_layout;  // the master copy, changed under the lock
    mutable std::shared_ptr<const FleetLayout> m_published;  // what snapshots share
    mutable bool m_layoutChanged = true;
    std::vector<Node> m_nodes;
    FleetSnapshot m_readings;  // card reading columns only
    std::vector<CardHistory> m_history;
    bool m_keepsCardHistory = true;
    std::map<std::string, CardHandle, std::less<>> m_byUuid;
    std::deque<FleetEvent> m_events;
    uint64_t m_eventCounter = 0;
    uint64_t m_batches = 0;
};

}  // namespace meridian
