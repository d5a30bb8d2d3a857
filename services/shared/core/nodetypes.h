// A node as the agent reports it: inventory, one telemetry sample, events, usage
// minutes and inference replicas. Plain values; they cross threads by copy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cardtypes.h"
#include "nictypes.h"

namespace meridian {

struct NodeInventory {
    std::string nodeId;
    std::string dataCenter;
    std::string rack;
    std::string hostname;
    std::vector<CardInfo> cards;
    std::vector<NicInfo> nics;
    std::string agentVersion;
    std::string collector;
    int64_t agentStartedUnixMs = 0;
    std::string bootId;
};

struct ReplicaSignals {
    std::string replicaId;
    std::string service;
    std::optional<uint32_t> waitingRequests;
    std::optional<uint32_t> runningRequests;
    std::optional<uint64_t> inflightTokens;
    std::optional<double> kvCacheUsedRatio;
    std::optional<double> tokensPerSecond;
    std::optional<double> ttftP50Seconds;
    std::optional<double> ttftP95Seconds;
    // Waiting before a batch took the request (vLLM's request_queue_time): what the
    // service's objective is on, where the engine reports it.
    std::optional<double> queueDelayP95Seconds;
    std::optional<double> e2eP95Seconds;
    std::optional<double> requestsPerSecond;
    uint32_t servingPort = 0;  // on the agent's host; 0: not a process of its own
};

struct TelemetrySample {
    int64_t sampleTimeUnixMs = 0;
    std::vector<CardSample> cards;
    std::vector<NicSample> nics;
    std::vector<ReplicaSignals> replicas;
};

enum class EventKind {
    Unknown,
    Xid,
    EccCorrected,
    EccUncorrected,
    ThermalThrottle,
    ThermalThrottleCleared,
    LinkDown,
    LinkUp,
    LinkFlap,
    PfcStorm,
    AgentRestart,
    CollectorError,
    Workload,
    Gap
};

enum class Severity { Info, Warning, Critical };

struct Event {
    uint64_t sequence = 0;
    int64_t timeUnixMs = 0;
    EventKind kind = EventKind::Unknown;
    Severity severity = Severity::Info;
    std::optional<uint32_t> cardIndex;
    std::string netdev;
    std::optional<uint32_t> xid;
    std::string message;
    std::optional<uint64_t> gapFirst;
    std::optional<uint64_t> gapLast;
};

const char *eventKindName(EventKind kind);

struct UsageMinute {
    int64_t minuteStartUnixS = 0;
    uint32_t cardIndex = 0;
    std::string cardUuid;
    double observedSeconds = 0;
    double busySeconds = 0;
    std::optional<double> meanUtilizationPercent;
    std::optional<double> energyJoules;
    std::string service;  // the inference service that held the card; empty: none
};

enum class WorkloadState { Starting, Serving, Stopping, Stopped, Failed };

struct Workload {
    std::string replicaId;
    std::string service;
    std::string model;
    std::vector<uint32_t> cardIndices;
    WorkloadState state = WorkloadState::Starting;
    int64_t startedUnixMs = 0;
    std::optional<int64_t> servingSinceUnixMs;
    std::string message;
};

}  // namespace meridian
