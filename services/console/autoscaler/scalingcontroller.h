// The live autoscaler: every few seconds it reads each inference service's replica
// signals (local agents through the console's FleetState, rented nodes through its own
// connections), asks the policy for a replica count, turns a shortfall into a plan of
// cloud leases (placement inside the service's caps), and carries approved steps through
// the journal with the step executor. Surplus rented capacity is given back at the end of
// its paid hour.
//
// Approval modes: manual (a plan is made only when an operator asks), assisted (plans are
// proposed and wait for one click), automatic (plans inside the service's price, card and
// budget caps go ahead at once). Every plan, approval, rejection, lease, start and release
// is in the audit log with who and why.
//
// tick() runs on the controller's own thread (start()); the other calls come from the UI
// thread (or meridian-scaled's gRPC threads) and only touch the journal and a few flags.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/periodicthread.h"
#include "fleet/fleetstate.h"
#include "fleetlink/agentconnection.h"
#include "scaling/placement.h"
#include "scalingcontrol.h"
#include "scalingjournal.h"
#include "wire/security.h"

namespace meridian {

class FleetState;
struct FleetLayout;
class FleetClient;
class GrpcCapacityPool;
class GrpcReplicas;
class StepExecutor;

struct ScalingControllerOptions {
    ApprovalMode mode = ApprovalMode::Assisted;
    ScalingPolicyConfig policy;
    // Services with a policy of their own (loadServicePolicies); the others use `policy`.
    std::map<std::string, ScalingPolicyConfig> servicePolicies;
    std::string requestedBy = "meridian-autoscaler";  // names our leases in the pool
    int64_t intervalMs = 5000;
    int64_t historyMs = 3'600'000;
    int64_t callTimeoutMs = 5000;
    // After a start nothing is planned or released until the agents have had time to
    // report: replicas not heard from yet are not replicas that are missing.
    int64_t warmUpMs = 15'000;
    ConnectionOptions rentedAgents;  // how the rented nodes' telemetry is followed
    // The approval mode an operator sets is kept in the journal (an own journal file,
    // meridian-scaled's) and wins over `mode` at the next start.
    bool modeInJournal = false;
};

struct ScalingServiceState;  // servicestate.h

class ScalingController final : public ScalingControl {
public:
    ScalingController(std::vector<InferenceService> services, ScalingJournal &journal,
                      const FleetState &localFleet, std::string poolAddress,
                      ClientSecurity security, const Clock &clock,
                      ScalingControllerOptions options = {});
    ~ScalingController() override;

    // Runs tick() every interval on a thread of its own until stop().
    void start();
    void stop();

    // One pass: signals, decisions, plans, and the executor. Errors are in the view too.
    Status tick();

    ScalingView view() const override;
    // The rented nodes' agents as this controller follows them (their replicas' signals).
    const FleetState &rentedFleet() const { return *m_rentedFleet; }
    Status setMode(ApprovalMode mode, const std::string &who) override;
    Status requestPlan(const std::string &service, const std::string &who) override;
    Status approvePlan(const std::string &service, const std::string &who,
                       std::optional<int64_t> shownVersion = std::nullopt) override;
    Status rejectPlan(const std::string &service, const std::string &who,
                      const std::string &why) override;
    Status approveRelease(const std::string &service, const std::string &who) override;

private:
    using ServiceState = ScalingServiceState;
    // The journal's setting that keeps an operator's approval mode over a restart.
    static constexpr const char *kModeSetting = "approval_mode";
    bool knows(const std::string &service) const;
    static std::optional<int64_t> planVersion(const std::vector<JournalStep> &open,
                                              const std::string &service);
    // Moves the service's planned steps to `to` (rejected or superseded); how many.
    Result<int> dropPlan(const std::string &service, StepState to);
    // One service's pass; `local` and `rented` are every replica's readings, read once.
    // It counts, asks the policy, shows the result, then plans, drops a plan or releases.
    void decide(ServiceState &state, const std::vector<JournalStep> &open,
                const std::vector<ReplicaReading> &local, const std::vector<ReplicaReading> &rented,
                int64_t nowMs, std::vector<std::string> &problems);
    // The service's replicas as they report: serving (summed signals) or cold-starting.
    struct ReplicaCount {
        ServiceSignals signals;
        int ready = 0;
        int readyRented = 0;
        int coldStarting = 0;
        std::optional<double> ttftP95Seconds;  // the worst replica's, as are these
        std::optional<double> queueDelayP95Seconds;
        std::optional<double> e2eP95Seconds;
        std::vector<std::string> seenIds;  // to match replicas to the steps that ordered them
    };
    static ReplicaCount countReplicas(const std::string &service,
                                      const std::vector<ReplicaReading> &local,
                                      const std::vector<ReplicaReading> &rented, int64_t nowMs);
    // What the journal holds for the service: plans waiting, capacity held, replicas ordered
    // and not yet reporting.
    struct JournalCount {
        int ordered = 0;
        int pending = 0;
        int pendingLocal = 0;
        int pendingReplicas = 0;
        int rentedCards = 0;
        double pendingCny = 0;
        double rentedCny = 0;
        std::optional<int64_t> lastScaleUpMs;
        // Replicas still reporting whose step is being released (draining, then stopped):
        // they serve what they hold, but they are not capacity to plan with, or a second
        // pass would shed another for the same need.
        int going = 0;
        int goingRented = 0;
    };
    JournalCount countJournal(const InferenceService &service, const std::vector<JournalStep> &open,
                              const std::vector<std::string> &seenIds) const;
    ScalingDecision askPolicy(ServiceState &state, const ReplicaCount &replicas,
                              const JournalCount &journal, int64_t nowMs);
    void showPass(ServiceState &state, const ReplicaCount &replicas, const JournalCount &journal,
                  const ScalingDecision &decision, const std::vector<JournalStep> &open,
                  int64_t nowMs) const;
    // Adds the service's arrival rate to its daily shape and keeps each finished minute
    // in the journal; restoreDemand() reads the kept days back at the start.
    void rememberDemand(ServiceState &state, double arrivalRps, int64_t nowMs,
                        std::vector<std::string> &problems);
    void restoreDemand();
    // Places the missing replicas and plans them, superseding a smaller plan still waiting.
    void scaleUp(ServiceState &state, const std::vector<JournalStep> &open,
                 const ScalingDecision &decision, int shortReplicas, const JournalCount &journal,
                 int64_t nowMs, std::vector<std::string> &problems);
    struct LocalNode {
        std::string nodeId;
        std::string address;
        std::vector<uint32_t> cards;        // the cards the service runs on ...
        std::vector<std::string> models;    // ... and their models
        std::set<std::string> otherModels;  // those of the cards it cannot run on
    };
    struct LocalFree {
        std::string nodeId;
        std::string cardModel;
        int freeCards = 0;
    };
    std::optional<LocalNode> localNode(const std::string &nodeId,
                                       const InferenceService &service) const;
    // Cards of the service's local pool that no replica holds and no step is about to take.
    std::vector<LocalFree> freeLocalCards(const ServiceState &state,
                                          const std::vector<JournalStep> &open,
                                          std::vector<std::string> &notes);
    PlacementPlan place(const ServiceState &state, int shortReplicas,
                        const std::vector<LocalFree> &local) const;
    void plan(ServiceState &state, const PlacementPlan &placement, std::vector<LocalFree> local,
              const std::string &why, int64_t nowMs, std::vector<std::string> &problems);
    void releaseSurplus(ServiceState &state, const std::vector<JournalStep> &open, int surplus,
                        int64_t nowMs, std::vector<std::string> &problems);
    void followRentedAgents();
    void setReplicaTargets(const std::vector<JournalStep> &open);
    void auditActions(const std::vector<Recovery> &actions, const std::vector<JournalStep> &open,
                      int64_t nowMs);
    int replicasPerNode(const InferenceService &service, const std::string &cardModel,
                        int cardsPerNode) const;
    void audit(const std::string &who, const std::string &what, const std::string &why);
    // Reads what waits at each service's load balancer and the requests it has taken, for
    // this pass's decisions (a balancer that does not answer is the pass's problem).
    void readBalancers(int64_t now);
    // Keeps each service's load balancer equal to its ready replicas, those of steps
    // being released drained first; returns the releasing steps still draining there.
    std::set<int64_t> followReplicas(const std::vector<ReplicaReading> &local,
                                     const std::vector<ReplicaReading> &rented,
                                     const std::vector<JournalStep> &open, int64_t now,
                                     std::vector<std::string> &problems);
    // Audits the causes in `limits` that were not said at the service's last scale-up.
    void sayLimits(ServiceState &state, const std::vector<std::string> &limits);

    ScalingJournal &m_journal;
    const FleetState &m_localFleet;
    const Clock &m_clock;
    ScalingControllerOptions m_options;
    std::unique_ptr<FleetState> m_rentedFleet;
    std::unique_ptr<FleetClient> m_rentedClient;
    std::unique_ptr<GrpcCapacityPool> m_pool;
    std::unique_ptr<GrpcReplicas> m_replicas;
    std::unique_ptr<StepExecutor> m_executor;
    ClientSecurity m_security;
    int64_t m_startedMs = 0;
    std::set<std::string> m_followed;  // rented agents' addresses
    std::vector<CloudOfferView> m_offers;
    std::shared_ptr<const FleetLayout> m_localLayout;  // this pass's

    mutable std::mutex m_mutex;  // guards what the UI thread touches
    std::vector<std::unique_ptr<ServiceState>> m_services;
    ApprovalMode m_mode;
    ScalingView m_view;
    std::set<std::string> m_planRequested;    // services, manual mode
    std::set<std::string> m_releaseApproved;  // services
    std::map<std::string, int64_t> m_lastScaleUpMs;
    std::string m_auditProblem;  // a failed audit write, shown by the next pass

    PeriodicThread m_passes;
};

}  // namespace meridian
