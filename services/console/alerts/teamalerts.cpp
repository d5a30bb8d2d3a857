#include "teamalerts.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/jsonnesting.h"

namespace meridian {

using nlohmann::json;

namespace {

// An alert is an object of plain fields, a silence's matcher one level further down.
constexpr size_t kMaxNesting = 6;

json matchersJson(const std::vector<LabelMatcher> &matchers)
{
    json list = json::array();
    for (const LabelMatcher &m : matchers)
        list.push_back({{"name", m.name()},
                        {"value", m.value()},
                        {"isRegex", m.isRegex()},
                        {"isEqual", m.isEqual()}});
    return list;
}

json silenceJson(const SilenceRule &r)
{
    json s = {{"id", r.id},
              {"alertKey", r.alertKey},
              {"node", r.node},
              {"dataCenter", r.dataCenter},
              {"untilMs", r.untilMs},
              {"by", r.by},
              {"reason", r.reason},
              {"alertmanagerId", r.alertmanagerId},
              {"matchers", matchersJson(r.matchers)}};
    if (r.kind)
        s["kind"] = alertKindName(*r.kind);
    return s;
}

json alertJson(const Alert &a)
{
    json j = {{"key", a.key},
              {"kind", alertKindName(a.kind)},
              {"critical", a.severity == AlertSeverity::Critical},
              {"dataCenter", a.dataCenter},
              {"nodeName", a.nodeName},
              {"netdev", a.netdev},
              {"service", a.service},
              {"subject", a.subject},
              {"message", a.message},
              {"firstSeenMs", a.firstSeenMs},
              {"activeSinceMs", a.activeSinceMs},
              {"lastSeenMs", a.lastSeenMs},
              {"count", a.count},
              {"active", a.active},
              {"acknowledgedBy", a.acknowledgedBy},
              {"silencedUntilMs", a.silencedUntilMs},
              {"silencedBy", a.silencedBy},
              {"silenceReason", a.silenceReason},
              {"note", a.note}};
    if (a.cardIndex)
        j["cardIndex"] = *a.cardIndex;
    if (a.xid)
        j["xid"] = *a.xid;
    if (a.acknowledgedMs)
        j["acknowledgedMs"] = *a.acknowledgedMs;
    return j;
}

// Each reader throws json::exception on a wrong type; the callers turn it into an error.
AlertKind kindOf(const json &j, const char *field)
{
    const std::string name = j.at(field).get<std::string>();
    const auto kind = alertKindFromName(name);
    if (!kind)
        throw std::invalid_argument(fmt::format("unknown alert kind '{}'", name));
    return *kind;
}

SilenceRule silenceOf(const json &j)
{
    SilenceRule r;
    r.id = j.value("id", int64_t{0});
    r.alertKey = j.value("alertKey", "");
    if (j.contains("kind"))
        r.kind = kindOf(j, "kind");
    r.node = j.value("node", "");
    r.dataCenter = j.value("dataCenter", "");
    r.untilMs = j.at("untilMs").get<int64_t>();
    r.by = j.value("by", "");
    r.reason = j.value("reason", "");
    r.alertmanagerId = j.value("alertmanagerId", "");
    for (const json &m : j.value("matchers", json::array())) {
        auto matcher =
            LabelMatcher::make(m.at("name").get<std::string>(), m.at("value").get<std::string>(),
                               m.value("isRegex", false), m.value("isEqual", true));
        if (!matcher)
            throw std::invalid_argument(matcher.error().message);
        r.matchers.push_back(std::move(matcher).value());
    }
    return r;
}

Alert alertOf(const json &j)
{
    Alert a;
    a.key = j.at("key").get<std::string>();
    if (a.key.empty())
        throw std::invalid_argument("an alert without a key");
    a.kind = kindOf(j, "kind");
    a.severity = j.value("critical", false) ? AlertSeverity::Critical : AlertSeverity::Warning;
    a.dataCenter = j.value("dataCenter", "");
    a.nodeName = j.value("nodeName", "");
    a.netdev = j.value("netdev", "");
    a.service = j.value("service", "");
    a.subject = j.value("subject", "");
    a.message = j.value("message", "");
    a.firstSeenMs = j.value("firstSeenMs", int64_t{0});
    a.activeSinceMs = j.value("activeSinceMs", int64_t{0});
    a.lastSeenMs = j.value("lastSeenMs", int64_t{0});
    a.count = j.value("count", uint64_t{0});
    a.active = j.value("active", true);
    a.acknowledgedBy = j.value("acknowledgedBy", "");
    a.silencedUntilMs = j.value("silencedUntilMs", int64_t{0});
    a.silencedBy = j.value("silencedBy", "");
    a.silenceReason = j.value("silenceReason", "");
    a.note = j.value("note", "");
    if (j.contains("cardIndex"))
        a.cardIndex = j.at("cardIndex").get<uint32_t>();
    if (j.contains("xid"))
        a.xid = j.at("xid").get<uint32_t>();
    if (j.contains("acknowledgedMs"))
        a.acknowledgedMs = j.at("acknowledgedMs").get<int64_t>();
    return a;
}

// The text as a JSON object, or why it is not one we take.
Result<json> objectOf(std::string_view text, size_t maxBytes, const char *what)
{
    if (text.size() > maxBytes)
        return Error{
            fmt::format("{} of {} bytes; at most {} are taken", what, text.size(), maxBytes)};
    if (const auto line = lineNestedDeeperThan(text, kMaxNesting))
        return Error{
            fmt::format("{} nested more than {} deep at line {}", what, kMaxNesting, *line)};
    json j = json::parse(text, nullptr, false);  // invalid UTF-8 is not JSON either
    if (!j.is_object())
        return Error{
            fmt::format("{} is not a JSON object: {}", what, std::string(text.substr(0, 120)))};
    return j;
}

}  // namespace

std::string teamAlertsJson(const TeamAlerts &team)
{
    json alerts = json::array();
    for (const Alert &a : team.alerts)
        alerts.push_back(alertJson(a));
    json silences = json::array();
    for (const SilenceRule &r : team.silences)
        silences.push_back(silenceJson(r));
    return json{{"watcher", team.watcher},
                {"nowMs", team.nowMs},
                {"behind", team.behind},
                {"alerts", std::move(alerts)},
                {"silences", std::move(silences)}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<TeamAlerts> parseTeamAlerts(std::string_view text)
{
    auto object = objectOf(text, kMaxTeamAlertsBytes, "the watcher's alert list");
    if (!object)
        return object.error();
    const json &j = object.value();
    TeamAlerts team;
    try {
        team.watcher = j.at("watcher").get<std::string>();
        team.nowMs = j.at("nowMs").get<int64_t>();
        team.behind = j.value("behind", "");
        for (const json &a : j.at("alerts")) {
            team.alerts.push_back(alertOf(a));
            team.alerts.back().firing = true;  // a watcher lists only what fires
        }
        for (const json &s : j.value("silences", json::array()))
            team.silences.push_back(silenceOf(s));
    } catch (const std::exception &e) {
        return Error{fmt::format("the watcher's alert list is not one: {}", e.what())};
    }
    return team;
}

std::string triageRequestJson(const TriageRequest &request)
{
    static constexpr const char *kActions[] = {"acknowledge", "note", "silence", "lift"};
    json j = {{"action", kActions[static_cast<int>(request.action)]}, {"who", request.who}};
    switch (request.action) {
    case TriageRequest::Action::Acknowledge: j["key"] = request.key; break;
    case TriageRequest::Action::Note:
        j["key"] = request.key;
        j["note"] = request.note;
        break;
    case TriageRequest::Action::Silence: j["silence"] = silenceJson(request.silence); break;
    case TriageRequest::Action::Lift: j["id"] = request.silence.id; break;
    }
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<TriageRequest> parseTriageRequest(std::string_view text)
{
    auto object = objectOf(text, kMaxTriageRequestBytes, "a triage request");
    if (!object)
        return object.error();
    const json &j = object.value();
    TriageRequest r;
    try {
        const std::string action = j.at("action").get<std::string>();
        r.who = j.value("who", "");
        if (action == "acknowledge" || action == "note") {
            r.action =
                action == "note" ? TriageRequest::Action::Note : TriageRequest::Action::Acknowledge;
            r.key = j.at("key").get<std::string>();
            if (r.key.empty())
                return Error{"a triage request names no alert"};
            if (action == "note")
                r.note = j.at("note").get<std::string>();
            if (r.note.size() > kMaxNoteBytes)
                return Error{
                    fmt::format("a note of {} bytes; at most {}", r.note.size(), kMaxNoteBytes)};
        } else if (action == "silence") {
            r.action = TriageRequest::Action::Silence;
            r.silence = silenceOf(j.at("silence"));
        } else if (action == "lift") {
            r.action = TriageRequest::Action::Lift;
            r.silence.id = j.at("id").get<int64_t>();
        } else {
            return Error{
                fmt::format("unknown triage action '{}': acknowledge, note, silence "
                            "or lift",
                            action)};
        }
    } catch (const std::exception &e) {
        return Error{fmt::format("a triage request is not one: {}", e.what())};
    }
    return r;
}

}  // namespace meridian
