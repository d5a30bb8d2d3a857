// Inference replicas as processes on a real node. For each replica the agent is asked
// to start, it runs the service's declared command (its own copy of the services file:
// the network names a service, never a command) pinned to the assigned cards through
// the vendor's variable (CUDA_VISIBLE_DEVICES, ASCEND_RT_VISIBLE_DEVICES,
// MLU_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES), on a port of its own, with its output in a
// log file. Each check (tick) then:
//   - asks a starting replica's health URL until it answers 200, or gives up at the
//     startup timeout;
//   - restarts a replica that exited, up to the service's restart limit, each time an
//     event; past the limit the replica is failed, with the reason;
//   - drains a stopped one: SIGTERM, SIGKILL after the grace (replicalaunch.h);
//   - reads a serving replica's /metrics into its signals (replicametrics.h).
// Where systemd runs (and the agent is root), each replica is a transient unit of its own
// (systemd-run): its own control group, so the agent unit's memory limit and restarts
// do not reach it, and stopping it ends every process it forked. Elsewhere it is the
// agent's child, in a session of its own, stopped as a process group. Either way it is
// recorded (pid and its start time) in the node's records, so an agent restart adopts
// them instead of starting them again; a recorded pid that now belongs to another
// program is not mistaken for the replica.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/cardtypes.h"
#include "core/clock.h"
#include "core/nodetypes.h"
#include "core/servingcommand.h"
#include "replicametrics.h"
#include "telemetry/noderecords.h"
#include "telemetry/workloads.h"

namespace meridian {

struct ReplicaRunnerOptions {
    std::map<std::string, ServingCommand> services;  // by service name
    std::string logDirectory;                        // DIR/<replica>.log
    std::string host = "127.0.0.1";                  // where its health and metrics answer
    enum class Launcher { Auto, Child, Systemd };
    Launcher launcher = Launcher::Auto;  // Auto: systemd when it runs and the agent is root
    std::string systemdRun = "systemd-run";
    std::string systemctl = "systemctl";
};

class ReplicaRunner final : public ReplicaBackend {
public:
    // Takes up the replicas recorded by an earlier run of the agent.
    ReplicaRunner(ReplicaRunnerOptions options, std::vector<CardInfo> cards, NodeRecords &records,
                  const Clock &clock);
    // Replicas are left running: the next agent adopts them.
    ~ReplicaRunner() override;

    Status startReplica(const Workload &workload) override;
    Status stopReplica(const std::string &replicaId) override;
    bool replicaServing(const std::string &replicaId) override;
    std::optional<std::string> replicaFailure(const std::string &replicaId) override;
    bool replicaDraining(const std::string &replicaId) override;

    // One round of health checks, restarts, drains and metric reads.
    void tick();
    // The latest signals of every serving replica.
    std::vector<ReplicaSignals> signals() const;
    // Crashes, restarts and failures, for the node's event log.
    void setEventSink(std::function<void(const Event &)> sink);

    int portOf(const std::string &replicaId) const;  // 0: no such replica

private:
    enum class Phase { Starting, Serving, Draining, Failed };
    struct Replica {
        Workload workload;
        int port = 0;
        int pid = 0;
        uint64_t startTicks = 0;  // the process's start time: tells it from a reused pid
        Phase phase = Phase::Starting;
        int64_t phaseSinceMs = 0;
        int restarts = 0;
        std::string unit;  // the systemd unit it runs as; empty: the agent's child
        std::string failure;
        ReplicaSignalsTracker tracker;
        std::optional<ReplicaSignals> latest;
    };

    // What a tick asks a live replica over HTTP, outside the lock.
    struct Probe {
        std::string id;
        std::string url;
        std::string path;
        bool health;  // /health while it starts; its metrics once it serves
        ServingEngine engine;
    };
    // Under the lock: a replica's process looked at; false when it is gone for good (its
    // record with it). A live one that should be asked is added to `probes`.
    bool checkProcess(const std::string &id, Replica &replica, int64_t nowMs,
                      std::vector<Probe> &probes);
    // A replica whose process ended: restarted within its limit, else failed.
    void restartOrFail(Replica &replica, const std::string &howItEnded);
    void ask(const Probe &probe);

    Status spawn(Replica &replica);
    void keep(const Replica &replica);
    void adopt();
    bool alive(Replica &replica, std::string &howItEnded);
    void emit(const Replica &replica, Severity severity, const std::string &message);
    const ServingCommand *commandOf(const Replica &replica) const;
    int freePort(int basePort) const;

    ReplicaRunnerOptions m_options;
    std::vector<CardInfo> m_cards;
    NodeRecords &m_records;
    const Clock &m_clock;
    mutable std::mutex m_mutex;
    std::map<std::string, Replica> m_replicas;
    std::function<void(const Event &)> m_events;
};

}  // namespace meridian
