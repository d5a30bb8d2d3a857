// Everything one node's agent knows, kept current: it samples the collector, derives
// NIC rates, turns state changes into events (throttling, ECC, link down/flap, PFC
// storm), feeds the usage ledger, and holds the latest inventory and sample for the
// gRPC service. Thread-safe: tick(), stop() and restart() are serialised (the simulator
// calls stop/restart from control threads); readers run anywhere.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "collector.h"
#include "core/clock.h"
#include "core/usageledger.h"
#include "eventlog.h"
#include "nicrates.h"

namespace meridian {

struct NodeIdentity {
    std::string nodeId;
    std::string dataCenter;
    std::string rack;
    std::string hostname;
};

struct NodeMonitorOptions {
    int64_t sampleIntervalMs = 1000;
    std::string agentVersion = "0.1.0";
    double busyThresholdPercent = UsageAccumulator::kDefaultBusyThresholdPercent;
    double pfcStormPausesPerSecond = 10'000;  // sustained pause frames that mean a storm
    int linkFlapTransitions = 3;              // transitions within a minute that mean flapping
    int64_t usageRetentionMs = 8LL * 24 * 3600 * 1000;
    int64_t nicRediscoveryMs = 60'000;  // LLDP neighbours change when a cable is moved
    // Where the agent says what goes wrong with its own files (its journal): a usage
    // ledger that cannot write (a full disk) and its recovery, once each. None: events only.
    std::function<void(const std::string &)> log;
};

class NodeMonitor {
public:
    NodeMonitor(NodeIdentity identity, std::unique_ptr<Collector> collector, EventLog &events,
                UsageLedger &usage, const Clock &clock, NodeMonitorOptions options = {});

    // Discovers the hardware and records the agent's (re)start as an event.
    Status start();
    // Takes one sample now. Collector failures become events and absent readings.
    void tick();
    // Writes the minute in progress to the ledger (clean shutdown).
    void stop();

    NodeInventory inventory() const;
    TelemetrySample latest() const;
    std::string bootId() const;
    int64_t sampleIntervalMs() const { return m_options.sampleIntervalMs; }
    EventLog &events() { return m_events; }
    UsageLedger &usage() { return m_usage; }
    Collector &collector() { return *m_collector; }

    // A new boot id, as after a process restart (the simulator's crash fault).
    void restart();

    // Who holds each card, so the usage ledger can bill minutes to an inference service.
    using ServiceOfCard = std::function<std::string(uint32_t cardIndex)>;
    void setServiceOfCard(ServiceOfCard lookup);
    // Signals of replicas the collector does not know (a real node's replica runner),
    // added to every sample.
    using ReplicaSignalsSource = std::function<std::vector<ReplicaSignals>()>;
    void setReplicaSignals(ReplicaSignalsSource source);

private:
    void detectCardChanges(const std::vector<CardSample> &cards, int64_t now);
    void detectNicChanges(const std::vector<NicSample> &nics, int64_t now);
    void reportProblems(const std::vector<std::string> &problems, int64_t now);
    void reportLedger(const Status &written, int64_t now);
    void emit(EventKind kind, Severity severity, std::string message, int64_t now,
              std::optional<uint32_t> card = std::nullopt, std::string netdev = {});

    NodeIdentity m_identity;
    std::unique_ptr<Collector> m_collector;
    EventLog &m_events;
    UsageLedger &m_usage;
    const Clock &m_clock;
    NodeMonitorOptions m_options;
    UsageAccumulator m_accumulator;
    int64_t m_nicsReadMs = 0;
    NicRateTracker m_rates;

    mutable std::mutex m_mutex;
    NodeInventory m_inventory;
    ServiceOfCard m_serviceOfCard;
    ReplicaSignalsSource m_replicaSignals;
    TelemetrySample m_latest;

    // Held for a whole tick: the accumulator and change detection below are not
    // thread-safe on their own.
    std::mutex m_samplingMutex;
    // Sampling state for change detection.
    std::map<uint32_t, CardSample> m_previousCards;
    std::map<std::string, LinkState> m_linkStates;
    std::map<std::string, std::vector<int64_t>> m_linkTransitions;
    std::map<std::string, int64_t> m_lastFlapEventMs;
    std::map<std::string, bool> m_pfcStorm;
    std::string m_lastProblems;
    std::string m_ledgerProblem;  // the usage ledger's failing write, while it fails
    int64_t m_lastRetentionMs = 0;
};

}  // namespace meridian
