#include "watchfigures.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace meridian {

namespace {

using nlohmann::json;

double seconds(int64_t ms)
{
    return static_cast<double>(ms) / 1000.0;
}

// A label value as the exposition format escapes it.
std::string labelValue(const std::string &text)
{
    std::string out;
    for (const char c : text) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

std::string ago(int64_t ms)
{
    const int64_t s = ms / 1000;
    if (s < 120)
        return fmt::format("{} s", s);
    if (s < 7200)
        return fmt::format("{} min", s / 60);
    return fmt::format("{:.1f} h", static_cast<double>(s) / 3600.0);
}

// Each alert route's deliveries by result, and what waits for it.
std::string routeExposition(const std::vector<RouteStatus> &routes)
{
    std::string out;
    if (routes.empty())
        return out;
    out +=
        "# HELP meridian_watch_route_deliveries_total Requests a route took, by result.\n"
        "# TYPE meridian_watch_route_deliveries_total counter\n";
    for (const RouteStatus &r : routes) {
        const std::string route = labelValue(r.name);
        out += fmt::format(
            "meridian_watch_route_deliveries_total{{route=\"{0}\",result=\"delivered\"}} "
            "{1}\n"
            "meridian_watch_route_deliveries_total{{route=\"{0}\",result=\"failed_attempt\"}}"
            " {2}\n"
            "meridian_watch_route_deliveries_total{{route=\"{0}\",result=\"dropped\"}} {3}\n",
            route, r.delivered, r.failedAttempts, r.droppedAfterRetries);
    }
    out +=
        "# HELP meridian_watch_route_waiting Deliveries queued or waiting for a retry.\n"
        "# TYPE meridian_watch_route_waiting gauge\n";
    for (const RouteStatus &r : routes)
        out += fmt::format("meridian_watch_route_waiting{{route=\"{}\"}} {}\n", labelValue(r.name),
                           r.waiting);
    return out;
}

}  // namespace

std::string watchExposition(const WatchFigures &f)
{
    std::string out;
    const auto metric = [&](const char *type, const char *name, const char *help,
                            const std::string &value) {
        out += fmt::format("# HELP {0} {1}\n# TYPE {0} {3}\n{0} {2}\n", name, help, value, type);
    };
    const auto gauge = [&](const char *name, const char *help, const std::string &value) {
        metric("gauge", name, help, value);
    };
    gauge("meridian_watch_start_time_seconds", "When this watcher started (Unix time).",
          fmt::format("{:.3f}", seconds(f.startedMs)));
    gauge("meridian_watch_last_evaluation_timestamp_seconds",
          "When the rules last ran over the fleet (Unix time).",
          fmt::format("{:.3f}", seconds(f.lastEvaluationMs)));
    metric("counter", "meridian_watch_evaluations_total", "Passes of the rules over the fleet.",
           std::to_string(f.evaluations));
    out +=
        "# HELP meridian_watch_agents Agents in the inventory, by connection state.\n"
        "# TYPE meridian_watch_agents gauge\n";
    out += fmt::format("meridian_watch_agents{{state=\"connected\"}} {}\n", f.connected);
    out += fmt::format("meridian_watch_agents{{state=\"unreachable\"}} {}\n", f.unreachable);
    out += fmt::format("meridian_watch_agents{{state=\"other\"}} {}\n",
                       f.agents - f.connected - f.unreachable);
    out +=
        "# HELP meridian_watch_alerts Alerts by state: firing, or pending their for: duration.\n"
        "# TYPE meridian_watch_alerts gauge\n";
    out += fmt::format("meridian_watch_alerts{{state=\"firing\"}} {}\n", f.firing);
    out += fmt::format("meridian_watch_alerts{{state=\"pending\"}} {}\n", f.pending);
    gauge("meridian_watch_behind",
          "1 while agents' staleness is not judged because this watcher is itself behind.",
          f.behind ? "1" : "0");
    gauge("meridian_watch_loop_late_seconds",
          "The latest evaluation tick's worst lateness over the last few seconds.",
          fmt::format("{:.3f}", seconds(f.loopLateMs)));
    gauge("meridian_watch_receive_gap_seconds",
          "Since the last batch from any connected agent was received.",
          fmt::format("{:.3f}", seconds(f.receiveGapMs)));
    metric("counter", "meridian_watch_behind_total",
           "Times this watcher fell behind and held staleness.", std::to_string(f.holds));
    return out + routeExposition(f.routes);
}

std::string watchStatusJson(const WatchFigures &f)
{
    json alerts = json::array();
    for (const WatchedAlert &a : f.alerts) {
        alerts.push_back({{"key", a.key},
                          {"title", a.title},
                          {"subject", a.subject},
                          {"data_center", a.dataCenter},
                          {"critical", a.critical},
                          {"since_ms", a.sinceMs},
                          {"acknowledged_by", a.acknowledgedBy},
                          {"silenced", a.silenced}});
    }
    json routes = json::array();
    for (const RouteStatus &r : f.routes) {
        routes.push_back({{"name", r.name},
                          {"delivered", r.delivered},
                          {"failed_attempts", r.failedAttempts},
                          {"dropped", r.droppedAfterRetries},
                          {"waiting", r.waiting},
                          {"last_error", r.lastError}});
    }
    const json status = {{"name", f.name},
                         {"started_ms", f.startedMs},
                         {"last_evaluation_ms", f.lastEvaluationMs},
                         {"evaluations", f.evaluations},
                         {"agents", f.agents},
                         {"connected", f.connected},
                         {"unreachable", f.unreachable},
                         {"firing", f.firing},
                         {"pending", f.pending},
                         {"behind", f.behind},
                         {"loop_late_ms", f.loopLateMs},
                         {"receive_gap_ms", f.receiveGapMs},
                         {"problem", f.problem},
                         {"routes", routes},
                         {"alerts", alerts}};
    // Text from agents and receivers may carry broken UTF-8: replaced, never thrown on.
    return status.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<std::string> watchStatusText(const std::string &text, int64_t nowMs)
{
    const json status = json::parse(text, nullptr, false, true);
    if (status.is_discarded() || !status.is_object())
        return Error{"its /status answer is not a JSON object"};
    try {
        std::string out = fmt::format("{}: up {}, rules last ran {} ago\n",
                                      status.value("name", std::string("watcher")),
                                      ago(nowMs - status.at("started_ms").get<int64_t>()),
                                      ago(nowMs - status.at("last_evaluation_ms").get<int64_t>()));
        out += fmt::format("agents: {} connected, {} unreachable, of {}\n",
                           status.at("connected").get<int>(), status.at("unreachable").get<int>(),
                           status.at("agents").get<int>());
        if (status.at("behind").get<bool>())
            out += fmt::format(
                "BEHIND: agents' silence not judged (loop {:.1f} s late, nothing received for "
                "{:.1f} s)\n",
                seconds(status.at("loop_late_ms").get<int64_t>()),
                seconds(status.at("receive_gap_ms").get<int64_t>()));
        if (const std::string problem = status.value("problem", std::string()); !problem.empty())
            out += "problem: " + problem + "\n";
        out += fmt::format("alerts: {} firing, {} pending\n", status.at("firing").get<int>(),
                           status.at("pending").get<int>());
        for (const json &a : status.at("alerts")) {
            std::string state;
            if (a.value("silenced", false))
                state = ", silenced";
            else if (const std::string by = a.value("acknowledged_by", std::string()); !by.empty())
                state = ", acknowledged by " + by;
            out += fmt::format("  {} {} {} — {} ({}, for {}{})\n",
                               alertShortId(a.value("key", std::string())),
                               a.value("critical", false) ? "CRITICAL" : "warning ",
                               a.value("title", std::string()), a.value("subject", std::string()),
                               a.value("data_center", std::string()),
                               ago(nowMs - a.value("since_ms", nowMs)), state);
        }
        if (const auto listed = static_cast<int>(status.at("alerts").size());
            status.at("firing").get<int>() > listed)
            out += fmt::format("  … and {} more\n", status.at("firing").get<int>() - listed);
        for (const json &r : status.at("routes")) {
            out += fmt::format("route {}: {} delivered, {} waiting, {} dropped{}\n",
                               r.value("name", std::string()), r.value("delivered", 0),
                               r.value("waiting", 0), r.value("dropped", 0),
                               r.value("last_error", std::string()).empty()
                                   ? std::string()
                                   : "; last error: " + r.value("last_error", std::string()));
        }
        return out;
    } catch (const json::exception &e) {
        return Error{std::string("its /status answer lacks what a watcher says: ") + e.what()};
    }
}

}  // namespace meridian
