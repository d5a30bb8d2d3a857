// What the autoscaler shows and what operators may do about it, whether it runs inside
// the console or as meridian-scaled elsewhere: the view (services with their signals,
// plans, the journal and the audit log) and the calls that approve, reject and steer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/inferenceservice.h"
#include "core/result.h"
#include "scaling/journalstep.h"
#include "scaling/reconcile.h"
#include "scaling/scalingpolicy.h"

namespace meridian {

enum class ApprovalMode { Manual, Assisted, Automatic };
std::string_view approvalModeName(ApprovalMode mode);

struct ServicePoint {
    int64_t atMs = 0;
    double arrivalRps = 0;
    double waitingRequests = 0;
    std::optional<double> ttftP95Seconds;
    std::optional<double> e2eP95Seconds;
    int readyReplicas = 0;
    int startingReplicas = 0;
    int desiredReplicas = 0;
    std::optional<double> queueDelayP95Seconds;  // where the replicas report it

    // The p95 the objective is held to (see objectiveLatency).
    std::optional<double> objectiveP95Seconds() const
    {
        return objectiveLatency(queueDelayP95Seconds, ttftP95Seconds);
    }
};

struct ServiceScalingView {
    InferenceService service;
    std::vector<ServicePoint> history;  // oldest first, the last hour
    int localReplicas = 0;              // serving on our own cards
    int rentedReplicas = 0;             // serving on rented cards
    int startingReplicas = 0;           // ordered or cold-starting
    int desiredReplicas = 0;
    ScalingReason reason = ScalingReason::Hold;
    std::string why;
    int rentedCards = 0;
    double rentedCnyPerHour = 0;
    int64_t planVersion = 0;    // names the plan waiting (0: none); approval must name it
    int pendingSteps = 0;       // planned, waiting for approval ...
    int pendingLocalSteps = 0;  // ... of which replicas on free local cards
    double pendingCnyPerHour = 0;
    int surplusSteps = 0;            // rented nodes the policy no longer needs
    bool releaseApproved = false;    // they go back at the end of their paid hour
    std::vector<std::string> notes;  // caps and shortages behind the last plan
    // What the daily shape expects within the forecast lead (req/s); none without a
    // forecast or an earlier day at this time.
    std::optional<double> forecastRps;
};

struct ScalingView {
    int64_t atMs = 0;
    ApprovalMode mode = ApprovalMode::Assisted;
    std::vector<ServiceScalingView> services;
    std::vector<JournalStep> journal;  // the newest steps, oldest first
    std::vector<AuditEntry> audit;     // the newest entries, oldest first
    std::string problem;               // why the last pass could not do everything
};

class ScalingControl {
public:
    virtual ~ScalingControl() = default;

    // The latest view; never waits on the network.
    virtual ScalingView view() const = 0;

    // `who` is the operator, for the audit log.
    virtual Status setMode(ApprovalMode mode, const std::string &who) = 0;
    // Manual mode: plan for this service at the next pass, as if assisted.
    virtual Status requestPlan(const std::string &service, const std::string &who) = 0;
    // The service's planned steps go ahead. Approval names the plan version the approver
    // saw: a plan replaced since is refused, and the refusal names the new one.
    virtual Status approvePlan(const std::string &service, const std::string &who,
                               std::optional<int64_t> shownVersion) = 0;
    virtual Status rejectPlan(const std::string &service, const std::string &who,
                              const std::string &why) = 0;
    // Lets the surplus rented nodes go at the end of their paid hour.
    virtual Status approveRelease(const std::string &service, const std::string &who) = 0;
};

std::optional<ApprovalMode> approvalModeFromName(std::string_view name);

}  // namespace meridian
