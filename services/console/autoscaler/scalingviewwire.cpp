#include "scalingviewwire.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "meridian/v1/scaling_control.pb.h"

namespace meridian {

namespace {

std::optional<ScalingReason> reasonFromName(std::string_view name)
{
    for (ScalingReason r :
         {ScalingReason::Hold, ScalingReason::Up, ScalingReason::Panic, ScalingReason::LatencyGuard,
          ScalingReason::Down, ScalingReason::Bounds})
        if (scalingReasonName(r) == name)
            return r;
    return std::nullopt;
}

void pointToWire(const ServicePoint &p, v1::ScalingServicePoint &out)
{
    out.set_at_unix_ms(p.atMs);
    out.set_arrival_rps(p.arrivalRps);
    out.set_waiting_requests(p.waitingRequests);
    if (p.ttftP95Seconds)
        out.set_ttft_p95_seconds(*p.ttftP95Seconds);
    if (p.e2eP95Seconds)
        out.set_e2e_p95_seconds(*p.e2eP95Seconds);
    out.set_ready_replicas(p.readyReplicas);
    out.set_starting_replicas(p.startingReplicas);
    out.set_desired_replicas(p.desiredReplicas);
    if (p.queueDelayP95Seconds)
        out.set_queue_delay_p95_seconds(*p.queueDelayP95Seconds);
}

ServicePoint pointFromWire(const v1::ScalingServicePoint &p)
{
    ServicePoint out;
    out.atMs = p.at_unix_ms();
    out.arrivalRps = p.arrival_rps();
    out.waitingRequests = p.waiting_requests();
    if (p.has_ttft_p95_seconds())
        out.ttftP95Seconds = p.ttft_p95_seconds();
    if (p.has_e2e_p95_seconds())
        out.e2eP95Seconds = p.e2e_p95_seconds();
    out.readyReplicas = p.ready_replicas();
    out.startingReplicas = p.starting_replicas();
    out.desiredReplicas = p.desired_replicas();
    if (p.has_queue_delay_p95_seconds())
        out.queueDelayP95Seconds = p.queue_delay_p95_seconds();
    return out;
}

void serviceToWire(const ServiceScalingView &s, v1::ScaledService &out)
{
    out.set_name(s.service.name);
    out.set_model(s.service.model);
    out.set_cards_per_replica(s.service.cardsPerReplica);
    out.set_ttft_p95_objective_seconds(s.service.objectiveP95Seconds);
    out.set_min_replicas(s.service.minReplicas);
    out.set_max_replicas(s.service.maxReplicas);
    out.set_rent_budget_cny_per_hour(s.service.rent.budgetCnyPerHour);
    for (const ServicePoint &p : s.history)
        pointToWire(p, *out.add_history());
    out.set_local_replicas(s.localReplicas);
    out.set_rented_replicas(s.rentedReplicas);
    out.set_starting_replicas(s.startingReplicas);
    out.set_desired_replicas(s.desiredReplicas);
    out.set_reason(std::string(scalingReasonName(s.reason)));
    out.set_why(s.why);
    out.set_rented_cards(s.rentedCards);
    out.set_rented_cny_per_hour(s.rentedCnyPerHour);
    out.set_plan_version(s.planVersion);
    out.set_pending_steps(s.pendingSteps);
    out.set_pending_local_steps(s.pendingLocalSteps);
    out.set_pending_cny_per_hour(s.pendingCnyPerHour);
    out.set_surplus_steps(s.surplusSteps);
    out.set_release_approved(s.releaseApproved);
    for (const std::string &note : s.notes)
        out.add_notes(note);
    if (s.forecastRps)
        out.set_forecast_rps(*s.forecastRps);
}

ServiceScalingView serviceFromWire(const v1::ScaledService &s, std::vector<std::string> &unknown)
{
    ServiceScalingView out;
    out.service.name = s.name();
    out.service.model = s.model();
    out.service.cardsPerReplica = s.cards_per_replica();
    out.service.objectiveP95Seconds = s.ttft_p95_objective_seconds();
    out.service.minReplicas = s.min_replicas();
    out.service.maxReplicas = s.max_replicas();
    out.service.rent.budgetCnyPerHour = s.rent_budget_cny_per_hour();
    out.history.reserve(static_cast<size_t>(s.history_size()));
    for (const v1::ScalingServicePoint &p : s.history())
        out.history.push_back(pointFromWire(p));
    out.localReplicas = s.local_replicas();
    out.rentedReplicas = s.rented_replicas();
    out.startingReplicas = s.starting_replicas();
    out.desiredReplicas = s.desired_replicas();
    if (auto reason = reasonFromName(s.reason()))
        out.reason = *reason;
    else
        unknown.push_back(fmt::format("{}: decision '{}'", s.name(), s.reason()));
    out.why = s.why();
    out.rentedCards = s.rented_cards();
    out.rentedCnyPerHour = s.rented_cny_per_hour();
    out.planVersion = s.plan_version();
    out.pendingSteps = s.pending_steps();
    out.pendingLocalSteps = s.pending_local_steps();
    out.pendingCnyPerHour = s.pending_cny_per_hour();
    out.surplusSteps = s.surplus_steps();
    out.releaseApproved = s.release_approved();
    out.notes.assign(s.notes().begin(), s.notes().end());
    if (s.has_forecast_rps())
        out.forecastRps = s.forecast_rps();
    return out;
}

void stepToWire(const JournalStep &s, v1::ScalingStep &out)
{
    out.set_id(s.id);
    out.set_service(s.service);
    out.set_idempotency_key(s.idempotencyKey);
    out.set_state(std::string(stepStateName(s.state)));
    out.set_offer_id(s.offerId);
    out.set_lease_id(s.leaseId);
    out.set_node_id(s.nodeId);
    out.set_created_unix_ms(s.createdUnixMs);
    out.set_updated_unix_ms(s.updatedUnixMs);
    out.set_cny_per_hour(s.cnyPerHour);
    out.set_requested_by(s.requestedBy);
    out.set_reason(s.reason);
}

JournalStep stepFromWire(const v1::ScalingStep &s, std::vector<std::string> &unknown)
{
    JournalStep out;
    out.id = s.id();
    out.service = s.service();
    out.idempotencyKey = s.idempotency_key();
    if (auto state = stepStateFromName(s.state()))
        out.state = *state;
    else
        unknown.push_back(fmt::format("step {}: state '{}'", s.id(), s.state()));
    out.offerId = s.offer_id();
    out.leaseId = s.lease_id();
    out.nodeId = s.node_id();
    out.createdUnixMs = s.created_unix_ms();
    out.updatedUnixMs = s.updated_unix_ms();
    out.cnyPerHour = s.cny_per_hour();
    out.requestedBy = s.requested_by();
    out.reason = s.reason();
    return out;
}

}  // namespace

int approvalModeToWire(ApprovalMode mode)
{
    switch (mode) {
    case ApprovalMode::Manual: return v1::APPROVAL_MODE_MANUAL;
    case ApprovalMode::Assisted: return v1::APPROVAL_MODE_ASSISTED;
    case ApprovalMode::Automatic: return v1::APPROVAL_MODE_AUTOMATIC;
    }
    return v1::APPROVAL_MODE_UNSPECIFIED;
}

std::optional<ApprovalMode> approvalModeFromWire(int mode)
{
    switch (mode) {
    case v1::APPROVAL_MODE_MANUAL: return ApprovalMode::Manual;
    case v1::APPROVAL_MODE_ASSISTED: return ApprovalMode::Assisted;
    case v1::APPROVAL_MODE_AUTOMATIC: return ApprovalMode::Automatic;
    default: return std::nullopt;
    }
}

void toWire(const ScalingView &view, const std::string &controllerId, v1::ScalingViewReply &out)
{
    out.set_at_unix_ms(view.atMs);
    out.set_mode(static_cast<v1::ApprovalMode>(approvalModeToWire(view.mode)));
    for (const ServiceScalingView &s : view.services)
        serviceToWire(s, *out.add_services());
    for (const JournalStep &s : view.journal)
        stepToWire(s, *out.add_journal());
    for (const AuditEntry &a : view.audit) {
        v1::ScalingAuditEntry &e = *out.add_audit();
        e.set_at_unix_ms(a.atUnixMs);
        e.set_who(a.who);
        e.set_what(a.what);
        e.set_why(a.why);
    }
    out.set_problem(view.problem);
    out.set_controller_id(controllerId);
}

ScalingView fromWire(const v1::ScalingViewReply &reply)
{
    ScalingView view;
    std::vector<std::string> unknown;
    view.atMs = reply.at_unix_ms();
    if (auto mode = approvalModeFromWire(reply.mode()))
        view.mode = *mode;
    else
        unknown.push_back(fmt::format("approval mode {}", static_cast<int>(reply.mode())));
    for (const v1::ScaledService &s : reply.services())
        view.services.push_back(serviceFromWire(s, unknown));
    for (const v1::ScalingStep &s : reply.journal())
        view.journal.push_back(stepFromWire(s, unknown));
    for (const v1::ScalingAuditEntry &a : reply.audit())
        view.audit.push_back({a.at_unix_ms(), a.who(), a.what(), a.why()});
    view.problem = reply.problem();
    if (!unknown.empty()) {
        if (!view.problem.empty())
            view.problem += "; ";
        view.problem +=
            fmt::format("the controller sent words this console does not know ({}): is it newer?",
                        fmt::join(unknown, ", "));
    }
    return view;
}

}  // namespace meridian
