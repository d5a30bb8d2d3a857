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
#include "operatorasks.h"
#include "rentedagents.h"
#include "scaling/offerholds.h"
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
    // A rented node whose agent has not answered this long after its lease was ready is
    // given back: it is paid for and nothing can run on it.
    int64_t nodeAnswerTimeoutMs = 5 * 60'000;
    // How long an offer is not ordered from after a lease of it was given back unused.
    int64_t offerHoldMs = 15 * 60'000;
    ConnectionOptions rentedAgents;  // how the rented nodes' telemetry is followed
    // The approval mode an operator sets is kept in the journal (an own journal file,
    // meridian-scaled's) and wins over `mode` at the next start.
    bool modeInJournal = false;
};

struct ScalingServiceState;  // servicestate.h
struct ReplicaCount;         // replicatally.h
struct JournalCount;
struct LocalFree;  // replicaplaces.h

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
    const FleetState &rentedFleet() const { return m_rented.fleet(); }
    // What operators ask (operatorasks.h).
    Status setMode(ApprovalMode mode, const std::string &who) override
    {
        return m_asks.setMode(mode, who);
    }
    Status requestPlan(const std::string &service, const std::string &who) override
    {
        return m_asks.requestPlan(service, who);
    }
    Status approvePlan(const std::string &service, const std::string &who,
                       std::optional<int64_t> shownVersion = std::nullopt) override
    {
        return m_asks.approvePlan(service, who, shownVersion);
    }
    Status rejectPlan(const std::string &service, const std::string &who,
                      const std::string &why) override
    {
        return m_asks.rejectPlan(service, who, why);
    }
    Status approveRelease(const std::string &service, const std::string &who) override
    {
        return m_asks.approveRelease(service, who);
    }

private:
    using ServiceState = ScalingServiceState;
    // One service's pass; `local` and `rented` are every replica's readings, read once.
    // It counts, asks the policy, shows the result, then plans, drops a plan or releases.
    void decide(ServiceState &state, const std::vector<JournalStep> &open,
                const std::vector<ReplicaReading> &local, const std::vector<ReplicaReading> &rented,
                int64_t nowMs, std::vector<std::string> &problems);
    ScalingDecision askPolicy(ServiceState &state, const ReplicaCount &replicas,
                              const JournalCount &journal, int64_t nowMs);
    void showPass(ServiceState &state, const ReplicaCount &replicas, const JournalCount &journal,
                  const ScalingDecision &decision, const std::vector<JournalStep> &open,
                  int64_t nowMs) const;
    // Places the missing replicas and plans them, superseding a smaller plan still waiting.
    void scaleUp(ServiceState &state, const std::vector<JournalStep> &open,
                 const ScalingDecision &decision, int shortReplicas, const JournalCount &journal,
                 int64_t nowMs, std::vector<std::string> &problems);
    void plan(ServiceState &state, const PlacementPlan &placement, std::vector<LocalFree> local,
              const std::string &why, int64_t nowMs, std::vector<std::string> &problems);
    // Moves the step to releasing and audits it; false (said in `problems`) where the
    // journal did not take it.
    bool startRelease(const JournalStep &step, int64_t now, std::vector<std::string> &problems,
                      const std::string &what, const std::string &why);
    void releaseSurplus(ServiceState &state, const std::vector<JournalStep> &open, int surplus,
                        int64_t nowMs, std::vector<std::string> &problems);
    void setReplicaTargets(const std::vector<JournalStep> &open);
    void auditActions(const std::vector<Recovery> &actions, const std::vector<JournalStep> &open,
                      int64_t nowMs);
    // Offers whose lease was given back unused are not ordered from for a while.
    void holdOffersGivenBack(const std::vector<Recovery> &actions,
                             const std::vector<JournalStep> &open);
    // The pool's leases (their agents followed) and offers; false when it did not answer.
    bool readPool(std::vector<std::string> &problems);
    // Keeps each service's load balancer equal to its ready replicas, those of steps
    // being released drained first; returns the releasing steps still draining there.
    std::set<int64_t> followBalancers(const std::vector<ReplicaReading> &replicas,
                                      const std::vector<JournalStep> &open, int64_t now,
                                      std::vector<std::string> &problems);
    // The pass's view for the UI, with its problems; the pass's status.
    Status publishView(int64_t now, const std::vector<std::string> &problems);
    // Audits the causes in `limits` that were not said at the service's last scale-up.
    void sayLimits(ServiceState &state, const std::vector<std::string> &limits);

    ScalingJournal &m_journal;
    const FleetState &m_localFleet;
    const Clock &m_clock;
    ScalingControllerOptions m_options;
    OperatorAsks m_asks;
    RentedAgents m_rented;
    std::unique_ptr<GrpcCapacityPool> m_pool;
    std::unique_ptr<GrpcReplicas> m_replicas;
    std::unique_ptr<StepExecutor> m_executor;
    int64_t m_startedMs = 0;
    std::vector<CloudOfferView> m_offers;
    std::string m_poolSilence;  // why the pool's last leases or offers are not known; "": they are
    OfferHolds m_offerHolds;
    std::shared_ptr<const FleetLayout> m_localLayout;  // this pass's

    mutable std::mutex m_mutex;  // guards what the UI thread touches
    std::vector<std::unique_ptr<ServiceState>> m_services;
    ScalingView m_view;

    PeriodicThread m_passes;
};

}  // namespace meridian
