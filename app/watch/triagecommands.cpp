#include "triagecommands.h"

#include <fmt/format.h>

#include <cstdio>
#include <ctime>

#include "alerts/alertrouting.h"
#include "alerts/alerttriagelog.h"
#include "alerts/routehttp.h"
#include "alerts/teamalerts.h"
#include "core/clock.h"
#include "routefromfiles.h"
#include "watchfigures.h"

namespace meridian {

namespace {

constexpr int kCallMs = 5000;

int fail(const char *command, const std::string &message)
{
    std::fprintf(stderr, "meridian-watch %s: %s\n", command, message.c_str());
    return 1;
}

Result<AlertRoute> watcherRoute(const TriageCommand &command)
{
    return routeFromFiles("watcher", command.url, command.caFile, command.tokenFile);
}

// GET `path`, refused unless the watcher answers 200.
Result<std::string> fetch(const AlertRoute &watcher, const std::string &path, size_t maxBytes)
{
    RouteCall call;
    call.method = "GET";
    call.url = watcher.url + path;
    call.maxAnswerBytes = maxBytes;
    CallWatch watch;
    auto answer = callRoute(watcher, call, kCallMs, watch);
    if (!answer)
        return answer.error();
    if (answer->status != 200)
        return Error{fmt::format("{} answered HTTP {}: {}", call.url, answer->status,
                                 answer->body.substr(0, 300))};
    return answer->body;
}

Result<TeamAlerts> teamAlerts(const AlertRoute &watcher)
{
    auto body = fetch(watcher, "/alerts", kMaxTeamAlertsBytes);
    if (!body)
        return body.error();
    return parseTeamAlerts(body.value());
}

// The alert a key or a short id (or the start of one) names, among those firing.
Result<std::string> alertKeyOf(const AlertRoute &watcher, const std::string &asked)
{
    auto team = teamAlerts(watcher);
    if (!team)
        return team.error();
    std::vector<std::string> matches;
    for (const Alert &a : team->alerts) {
        if (a.key == asked)
            return a.key;
        if (alertShortId(a.key).starts_with(asked))
            matches.push_back(a.key);
    }
    if (matches.size() == 1)
        return matches.front();
    if (matches.empty())
        return Error{fmt::format("no firing alert has the key or short id '{}' (see list)", asked)};
    return Error{
        fmt::format("'{}' names {} alerts; give more of the id or the key", asked, matches.size())};
}

int ask(const char *command, const AlertRoute &watcher, const TriageRequest &request,
        const std::string &done)
{
    RouteCall call;
    call.url = watcher.url + "/triage";
    call.body = triageRequestJson(request);
    CallWatch watch;
    auto answer = callRoute(watcher, call, kCallMs, watch);
    if (!answer)
        return fail(command, answer.error().message);
    if (answer->status != 202)
        return fail(command, fmt::format("refused (HTTP {}): {}", answer->status,
                                         answer->body.substr(0, 500)));
    std::printf("%s\n", done.c_str());
    return 0;
}

// "2026-12-07 21:20 UTC": a shift in any time zone reads the same minute.
std::string utcMinute(int64_t unixMs)
{
    const std::time_t t = static_cast<std::time_t>(unixMs / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    return text;
}

std::string stateOf(const Alert &a, int64_t nowMs)
{
    if (a.silenced(nowMs))
        return "silenced by " + a.silencedBy;
    if (a.acknowledgedMs)
        return "acknowledged by " + a.acknowledgedBy;
    return "open";
}

}  // namespace

int runWatchStatus(const TriageCommand &command)
{
    auto watcher = watcherRoute(command);
    if (!watcher)
        return fail("status", watcher.error().message);
    auto body = fetch(*watcher, "/status", kMaxRouteAnswerBytes);
    if (!body)
        return fail("status", body.error().message);
    auto text = watchStatusText(body.value(), SystemClock::instance().nowUnixMs());
    if (!text)
        return fail("status", command.url + ": " + text.error().message);
    std::printf("%s", text->c_str());
    return 0;
}

int runWatchList(const TriageCommand &command)
{
    auto watcher = watcherRoute(command);
    if (!watcher)
        return fail("list", watcher.error().message);
    auto team = teamAlerts(*watcher);
    if (!team)
        return fail("list", team.error().message);
    std::printf("%s: %zu alerts firing\n", team->watcher.c_str(), team->alerts.size());
    for (const Alert &a : team->alerts)
        std::printf("  %s  %-8s %-22s %-28s %s  %s\n    key %s\n", alertShortId(a.key).c_str(),
                    a.severity == AlertSeverity::Critical ? "CRITICAL" : "warning",
                    alertKindName(a.kind), a.subject.c_str(), utcMinute(a.activeSinceMs).c_str(),
                    stateOf(a, team->nowMs).c_str(), a.key.c_str());
    std::printf("%zu silences in force\n", team->silences.size());
    for (const SilenceRule &r : team->silences)
        std::printf("  silence %lld  until %s  by %s: %s\n", static_cast<long long>(r.id),
                    utcMinute(r.untilMs).c_str(), r.by.c_str(), r.reason.c_str());
    return 0;
}

namespace {

// Acknowledge or note the alert the command names (a key, or a short id of one firing).
int askAboutAlert(const char *name, const TriageCommand &command, TriageRequest::Action action)
{
    auto watcher = watcherRoute(command);
    if (!watcher)
        return fail(name, watcher.error().message);
    auto key = alertKeyOf(*watcher, command.alert);
    if (!key)
        return fail(name, key.error().message);
    TriageRequest request;
    request.action = action;
    request.key = key.value();
    request.note = command.note;
    const bool noting = action == TriageRequest::Action::Note;
    return ask(name, *watcher, request, (noting ? "noted on " : "acknowledged ") + key.value());
}

}  // namespace

int runAcknowledge(const TriageCommand &command)
{
    return askAboutAlert("ack", command, TriageRequest::Action::Acknowledge);
}

int runNote(const TriageCommand &command)
{
    return askAboutAlert("note", command, TriageRequest::Action::Note);
}

int runSilence(const TriageCommand &command)
{
    auto watcher = watcherRoute(command);
    if (!watcher)
        return fail("silence", watcher.error().message);
    TriageRequest request;
    request.action = TriageRequest::Action::Silence;
    SilenceRule &rule = request.silence;
    if (!command.alert.empty()) {
        auto key = alertKeyOf(*watcher, command.alert);
        if (!key)
            return fail("silence", key.error().message);
        rule.alertKey = key.value();
    }
    rule.node = command.node;
    rule.dataCenter = command.dataCenter;
    if (!command.kind.empty()) {
        rule.kind = alertKindFromAnyName(command.kind);
        if (!rule.kind)
            return fail("silence", "no alert kind is called '" + command.kind + "'");
    }
    rule.reason = command.reason;
    rule.untilMs =
        SystemClock::instance().nowUnixMs() + static_cast<int64_t>(command.hours * 3600'000);
    return ask("silence", *watcher, request,
               fmt::format("silenced {} until {}", silenceScope(rule), utcMinute(rule.untilMs)));
}

int runLift(const TriageCommand &command)
{
    auto watcher = watcherRoute(command);
    if (!watcher)
        return fail("lift", watcher.error().message);
    TriageRequest request;
    request.action = TriageRequest::Action::Lift;
    request.silence.id = command.silenceId;
    return ask("lift", *watcher, request, fmt::format("lifted silence {}", command.silenceId));
}

}  // namespace meridian
