#include "scalingstatustext.h"

#include <fmt/format.h>

namespace meridian {

namespace {

std::string latencyOf(const ServiceScalingView &s, std::optional<double> ServicePoint::*reading)
{
    if (s.history.empty() || !(s.history.back().*reading))
        return "-";
    return fmt::format("{:.1f} s", *(s.history.back().*reading));
}

}  // namespace

std::string scalingStatusText(const ScalingView &view, const std::string &controllerId,
                              const std::string &address, int64_t nowUnixMs)
{
    std::string out = fmt::format("{} at {}: approval mode {}, last pass {} s ago\n",
                                  controllerId.empty() ? "meridian-scaled" : controllerId, address,
                                  approvalModeName(view.mode),
                                  view.atMs > 0 ? (nowUnixMs - view.atMs) / 1000 : -1);
    out +=
        fmt::format("{:<24} {:>7} {:>8} {:>7} {:>7} {:>8} {:>9} {:>9}  {}\n", "service", "serving",
                    "starting", "desired", "rented", "CNY/h", "p95 queue", "p95 TTFT", "why");
    for (const ServiceScalingView &s : view.services) {
        out += fmt::format("{:<24} {:>7} {:>8} {:>7} {:>7} {:>8.2f} {:>9} {:>9}  {}\n",
                           s.service.name, s.localReplicas + s.rentedReplicas, s.startingReplicas,
                           s.desiredReplicas, s.rentedCards, s.rentedCnyPerHour,
                           latencyOf(s, &ServicePoint::queueDelayP95Seconds),
                           latencyOf(s, &ServicePoint::ttftP95Seconds), s.why);
        if (s.pendingSteps > 0)
            out += fmt::format("  waiting for approval: plan {}, {} step(s), {:.2f} CNY/h\n",
                               s.planVersion, s.pendingSteps, s.pendingCnyPerHour);
        for (const std::string &note : s.notes)
            out += fmt::format("  limited: {}\n", note);
    }
    if (!view.problem.empty())
        out += fmt::format("problem: {}\n", view.problem);
    return out;
}

}  // namespace meridian
