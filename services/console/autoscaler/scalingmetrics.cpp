#include "scalingmetrics.h"

#include <fmt/format.h>

#include <algorithm>

namespace meridian {

namespace {

std::string escaped(std::string_view value)
{
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

void family(std::string &out, const char *name, const char *type, const char *help)
{
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

}  // namespace

void ScalingMetrics::record(const ScalingView &view)
{
    std::lock_guard lock(m_mutex);
    if (view.atMs <= m_lastPassMs)
        return;
    // Leases are paid while held, passes or not (a suspended machine): the whole time.
    const int64_t stepMs = m_lastPassMs > 0 ? view.atMs - m_lastPassMs : 0;
    for (const ServiceScalingView &s : view.services) {
        Totals &t = m_totals[s.service.name];
        t.rentedCardSeconds += t.lastRentedCards * static_cast<double>(stepMs) / 1000.0;
        t.lastRentedCards = s.rentedCards;
        if (const auto held =
                s.history.empty() ? std::nullopt : s.history.back().objectiveP95Seconds()) {
            ++t.passes;
            t.passesWithinObjective += *held <= s.service.objectiveP95Seconds;
        }
    }
    m_lastPassMs = view.atMs;
    m_services = view.services;
}

std::string ScalingMetrics::exposition() const
{
    std::lock_guard lock(m_mutex);
    std::string out;
    family(out, "meridian_scaled_last_pass_timestamp_seconds", "gauge",
           "When the controller's last pass ran.");
    out += fmt::format("meridian_scaled_last_pass_timestamp_seconds {:.3f}\n",
                       static_cast<double>(m_lastPassMs) / 1000);
    family(out, "meridian_scaled_replicas", "gauge", "Replicas serving or starting.");
    for (const ServiceScalingView &s : m_services) {
        const std::string svc = escaped(s.service.name);
        out += fmt::format("meridian_scaled_replicas{{service=\"{}\",state=\"serving\"}} {}\n", svc,
                           s.localReplicas + s.rentedReplicas);
        out += fmt::format("meridian_scaled_replicas{{service=\"{}\",state=\"starting\"}} {}\n",
                           svc, s.startingReplicas);
    }
    appendServiceGauges(out);
    appendTotals(out);
    return out;
}

void ScalingMetrics::appendServiceGauges(std::string &out) const
{
    const auto gauge = [&](const char *name, const char *help, auto value) {
        family(out, name, "gauge", help);
        for (const ServiceScalingView &s : m_services)
            out +=
                fmt::format("{}{{service=\"{}\"}} {}\n", name, escaped(s.service.name), value(s));
    };
    gauge("meridian_scaled_replicas_desired", "Replicas the policy wants.",
          [](const ServiceScalingView &s) { return s.desiredReplicas; });
    gauge("meridian_scaled_waiting_requests", "Requests queued at the replicas.",
          [](const ServiceScalingView &s) {
              return s.history.empty() ? 0.0 : s.history.back().waitingRequests;
          });
    // NaN where there is no reading: Prometheus's word for it, where 0 would read as fast.
    const auto newest = [](std::optional<double> ServicePoint::*reading) {
        return [reading](const ServiceScalingView &s) {
            return s.history.empty() || !(s.history.back().*reading)
                       ? std::string("NaN")
                       : fmt::format("{}", *(s.history.back().*reading));
        };
    };
    gauge("meridian_scaled_queue_delay_p95_seconds",
          "p95 time requests wait before their prefill starts (NaN: not reported).",
          newest(&ServicePoint::queueDelayP95Seconds));
    gauge("meridian_scaled_ttft_p95_seconds", "p95 time to first token (NaN: no reading).",
          newest(&ServicePoint::ttftP95Seconds));
    gauge("meridian_scaled_objective_p95_seconds",
          "The service's objective: on the p95 queueing delay, or the TTFT where replicas do "
          "not report the delay.",
          [](const ServiceScalingView &s) { return s.service.objectiveP95Seconds; });
    gauge("meridian_scaled_rented_cards", "Cards rented now.",
          [](const ServiceScalingView &s) { return s.rentedCards; });
    gauge("meridian_scaled_rented_cny_per_hour", "What the rented cards cost an hour.",
          [](const ServiceScalingView &s) { return s.rentedCnyPerHour; });
    gauge("meridian_scaled_plan_steps_pending", "Steps of a plan waiting for approval.",
          [](const ServiceScalingView &s) { return s.pendingSteps; });
}

void ScalingMetrics::appendTotals(std::string &out) const
{
    const auto counter = [&](const char *name, const char *help, auto value) {
        family(out, name, "counter", help);
        for (const auto &[service, t] : m_totals)
            out += fmt::format("{}{{service=\"{}\"}} {}\n", name, escaped(service), value(t));
    };
    counter("meridian_scaled_passes_total", "Passes with a latency reading.",
            [](const Totals &t) { return t.passes; });
    counter("meridian_scaled_passes_within_objective_total",
            "Passes whose p95 (queueing delay, or TTFT) was inside the objective.",
            [](const Totals &t) { return t.passesWithinObjective; });
    // In seconds, Prometheus's base unit: card-hours are this over 3600.
    counter("meridian_scaled_rented_card_seconds_total", "Rented card-seconds since start.",
            [](const Totals &t) { return t.rentedCardSeconds; });
    family(out, "meridian_scaled_condition", "gauge",
           "1 for each condition that limits a service's scaling (HPA's ScalingLimited).");
    for (const ServiceScalingView &s : m_services) {
        for (const std::string &note : s.notes)
            out += fmt::format("meridian_scaled_condition{{service=\"{}\",condition=\"{}\"}} 1\n",
                               escaped(s.service.name), escaped(note));
    }
}

}  // namespace meridian
