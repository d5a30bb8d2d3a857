// Believable, seeded cards and NICs for one simulated node: diurnal load per card,
// temperature and power that follow it, growing NIC counters, and faults injected on
// demand that show up exactly as a real collector would report them.
// Thread-safe: faults and replicas are set from control threads while sampling runs.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "collector.h"
#include "workloads.h"

namespace meridian {

enum class SimNodeKind { A100, H100, Ascend910B, Hybrid, Mlu370, HygonDcu };

const char *simNodeKindName(SimNodeKind kind);

// Everything meridian-sim can break. The collector plays the card and NIC faults; the
// agent-level ones (crash, hang, slow) are played by the simulator around it.
enum class FaultKind {
    Crash,
    Hang,
    Slow,
    Xid79,
    EccDoubleBit,
    ThermalThrottle,
    LinkDown,
    LinkFlap,
    PfcStorm,
    EcnCongestion,
    GarbageValues
};

struct SimFault {
    FaultKind kind = FaultKind::Xid79;
    std::optional<uint32_t> card;  // default: card 0
    std::string netdev;            // default: the first NIC
    int64_t untilUnixMs = 0;       // 0: until cleared
};

struct SimNodeSpec {
    SimNodeKind kind = SimNodeKind::A100;
    uint64_t seed = 1;
    std::string nodeId;
    std::string dataCenter;
    int pod = 0;      // the group of leaves (one a rail) the node is cabled to in its data center
    int podSlot = 0;  // its place in the pod: the leaf port each of its NICs uses
    // How often it is sampled: a flapping link is down for two samples of every four,
    // so the flaps are seen at any sampling.
    int sampleIntervalMs = 1000;
};

class SimCollector final : public Collector, public ReplicaBackend {
public:
    explicit SimCollector(SimNodeSpec spec);

    std::string name() const override { return "sim"; }
    Result<NodeHardware> discover() override;
    Result<CollectedSample> sample(int64_t nowUnixMs) override;

    void injectFault(const SimFault &fault);
    int clearFaults();
    std::vector<FaultKind> activeFaults() const;

    // How long a replica of each service takes to load before it serves (the services'
    // cold_start_seconds); a service not named here takes 30-180 s.
    void setColdStarts(std::map<std::string, double> secondsByService);
    // How long a stopped replica of each service drains (its serving: drain grace): it
    // reports, and finishes what it holds, until then. A service not named stops at once.
    void setDrains(std::map<std::string, double> secondsByService);

    Status startReplica(const Workload &workload) override;
    Status stopReplica(const std::string &replicaId) override;
    bool replicaServing(const std::string &replicaId) override;
    bool replicaDraining(const std::string &replicaId) override;

    struct ReplicaOnNode {
        std::string replicaId;
        std::string service;
        std::string cardModel;
        bool serving = false;
    };
    std::vector<ReplicaOnNode> replicasAt(int64_t nowUnixMs) const;
    // What each serving replica reports in the next samples (the fleet's load model
    // decides it); a replica without an entry reports no signals.
    void setReplicaSignals(std::map<std::string, ReplicaSignals> signals);

private:
    // With m_mutex held: the replicas' signals into `out`, and how busy each keeps its cards.
    std::map<uint32_t, double> sampleReplicas(int64_t nowUnixMs, CollectedSample &out);
    struct CardState {
        CardInfo info;
        double baseLoad = 0;  // 0..1: how busy the tenant keeps it
        double phase = 0;     // where in its daily cycle
        double tdpWatts = 400;
        uint64_t eccCorrected = 0;
        uint64_t eccUncorrected = 0;
        bool fallenOff = false;
    };
    struct NicState {
        NicInfo info;
        NicCounters counters;
        bool hasCongestionCounters = true;
    };
    struct Replica {
        Workload workload;
        int64_t coldStartMs = 0;
        int64_t drainsUntilMs = -1;  // stopped and draining until then; -1: not stopped
    };

    void buildHardware();
    CardSample sampleCard(CardState &card, int64_t nowMs, double replicaLoad);
    void advanceNic(NicState &nic, double seconds, double load, int64_t nowMs);
    bool faultActive(FaultKind kind, int64_t nowMs, const SimFault **match = nullptr) const;
    double noise(uint64_t a, uint64_t b) const;

    SimNodeSpec m_spec;
    std::map<std::string, double> m_coldStartSeconds;  // by service
    std::map<std::string, double> m_drainSeconds;      // by service
    mutable std::mutex m_mutex;
    std::vector<CardState> m_cards;
    std::vector<NicState> m_nics;
    std::vector<SimFault> m_faults;
    std::map<std::string, Replica> m_replicas;
    std::map<std::string, ReplicaSignals> m_replicaSignals;
    int64_t m_lastSampleMs = 0;
    std::vector<Event> m_pendingEvents;
};

}  // namespace meridian
