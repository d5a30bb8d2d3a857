// The scaling journal's records: a scale-up step and the states it passes through, and
// an entry of the audit log of who did what and why. Written by the journal
// (autoscaler/scalingjournal), read by reconcile(), shown by every console.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace meridian {

// The offer of a step that starts a replica on one of our own nodes: no lease.
inline constexpr std::string_view kLocalOffer = "local";

enum class StepState {
    Planned,      // proposed; waits for approval (manual or assisted mode)
    Approved,     // may proceed; the lease is not asked for yet
    Leasing,      // the Lease call with this key was (maybe) made
    Provisioned,  // the lease is READY; its nodes' agents are expected
    Starting,     // ApplyWorkload with this key was (maybe) made
    Serving,      // verified: the replica answers; the step holds its lease until released
    Releasing,    // the Release call was (maybe) made
    Done,         // the capacity was given back
    Rejected,     // a planned step an operator turned down
    Superseded,   // a planned step a larger plan replaced before anyone approved it
    Failed,
};

struct JournalStep {
    int64_t id = 0;
    std::string service;
    std::string idempotencyKey;  // for Lease, ApplyWorkload and Release alike
    StepState state = StepState::Planned;
    std::string offerId;
    std::string leaseId;        // once known
    std::string nodeId;         // the rented node the replica runs on, once known
    int64_t updatedUnixMs = 0;  // when the step last moved
    int64_t createdUnixMs = 0;
    double cnyPerHour = 0;  // what its lease costs while held
    std::string requestedBy;
    std::string reason;
};

struct AuditEntry {
    int64_t atUnixMs = 0;
    std::string who;
    std::string what;
    std::string why;
};

// As the journal writes them: "planned", "leasing" ...
std::string_view stepStateName(StepState state);
std::optional<StepState> stepStateFromName(std::string_view name);

}  // namespace meridian
