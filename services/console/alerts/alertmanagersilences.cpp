#include "alertmanagersilences.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <set>

#include "alertpayloads.h"
#include "core/jsonnesting.h"
#include "routehttp.h"

namespace meridian {

namespace {

using nlohmann::json;

json matcher(const std::string &name, const std::string &value)
{
    return {{"name", name}, {"value", value}, {"isRegex", false}, {"isEqual", true}};
}

// "2026-12-05T19:40:00.000Z" (Alertmanager writes UTC); 0 when it is not that.
int64_t parseUtcMs(const std::string &text)
{
    std::tm tm{};
    double seconds = 0;
    if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                    &tm.tm_hour, &tm.tm_min, &seconds) != 6)
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_sec = static_cast<int>(seconds);
    return static_cast<int64_t>(timegm(&tm)) * 1000 +
           static_cast<int64_t>((seconds - tm.tm_sec) * 1000);
}

std::optional<AlertKind> kindOfAlertname(const std::string &name)
{
    for (int k = 0; k <= static_cast<int>(kLastAlertKind); ++k) {
        if (alertmanagerAlertName(static_cast<AlertKind>(k)) == name)
            return static_cast<AlertKind>(k);
    }
    return std::nullopt;
}

// A silence as Alertmanager keeps it: every matcher, applied as Alertmanager applies it;
// and where they are all plain equalities on the labels Meridian's own silences use, the
// same in Meridian's words (an alert, a kind, a node, a data center) for the list. A
// matcher that does not compile leaves the silence out, said in `problems`.
std::optional<SilenceRule> ruleOf(const json &silence, std::vector<std::string> &problems)
{
    SilenceRule rule;
    SilenceRule named;
    bool plain = true;
    for (const json &m : silence.value("matchers", json::array())) {
        const std::string name = m.value("name", "");
        const std::string value = m.value("value", "");
        const bool isRegex = m.value("isRegex", false);
        const bool isEqual = m.value("isEqual", true);
        auto matcher = LabelMatcher::make(name, value, isRegex, isEqual);
        if (!matcher) {
            problems.push_back(
                fmt::format("silence {}: {}", silence.value("id", ""), matcher.error().message));
            return std::nullopt;
        }
        rule.matchers.push_back(std::move(matcher).value());
        if (isRegex || !isEqual || value.empty())
            plain = false;
        else if (name == "meridian_key")
            named.alertKey = value;
        else if (name == "alertname" && kindOfAlertname(value))
            named.kind = kindOfAlertname(value);
        else if (name == "node")
            named.node = value;
        else if (name == "dc")
            named.dataCenter = value;
        else if (name != "source" || value != "meridian")
            plain = false;
    }
    if (rule.matchers.empty())
        return std::nullopt;  // Alertmanager refuses such a silence; nothing to apply
    if (plain) {
        rule.alertKey = named.alertKey;
        rule.kind = named.kind;
        rule.node = named.node;
        rule.dataCenter = named.dataCenter;
    }
    rule.alertmanagerId = silence.value("id", "");
    rule.untilMs = parseUtcMs(silence.value("endsAt", ""));
    rule.by = silence.value("createdBy", "");
    rule.reason = silence.value("comment", "");
    return rule;
}

}  // namespace

AlertmanagerSilences::AlertmanagerSilences(AlertRoute route, int timeoutMs)
    : m_route(std::move(route)), m_timeoutMs(timeoutMs)
{}

std::string AlertmanagerSilences::base() const
{
    std::string url = m_route.url;
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    return url;
}

Result<std::string> AlertmanagerSilences::create(const SilenceRule &rule, int64_t nowMs)
{
    json matchers = json::array({matcher("source", "meridian")});
    if (!rule.alertKey.empty())
        matchers.push_back(matcher("meridian_key", rule.alertKey));
    if (rule.kind)
        matchers.push_back(matcher("alertname", alertmanagerAlertName(*rule.kind)));
    if (!rule.node.empty())
        matchers.push_back(matcher("node", rule.node));
    if (!rule.dataCenter.empty())
        matchers.push_back(matcher("dc", rule.dataCenter));
    const json body = {
        {"matchers", matchers},
        {"startsAt", rfc3339(nowMs)},
        {"endsAt", rfc3339(rule.untilMs)},
        {"createdBy", rule.by.empty() ? std::string("meridian") : rule.by},
        {"comment", rule.reason.empty() ? std::string("silenced in Meridian") : rule.reason}};
    const auto answer = callRoute(m_route, {"POST", base() + "/api/v2/silences", body.dump()},
                                  m_timeoutMs, m_calls);
    if (!answer)
        return answer.error();
    const json reply = json::parse(answer->body, nullptr, false);
    if (answer->status != 200 || !reply.is_object() || !reply.contains("silenceID"))
        return Error{fmt::format("{}: silence refused: HTTP {} {}", m_route.name, answer->status,
                                 answer->body.substr(0, 200))};
    return reply["silenceID"].get<std::string>();
}

Status AlertmanagerSilences::expire(const std::string &alertmanagerId)
{
    const auto answer = callRoute(m_route, {"DELETE", base() + "/api/v2/silence/" + alertmanagerId},
                                  m_timeoutMs, m_calls);
    if (!answer)
        return answer.error();
    if (answer->status != 200)
        return Error{fmt::format("{}: silence {} not lifted: HTTP {} {}", m_route.name,
                                 alertmanagerId, answer->status, answer->body.substr(0, 200))};
    return {};
}

Result<std::vector<SilenceRule>> AlertmanagerSilences::active(std::vector<std::string> *problems)
{
    // Every silence is read, so that one made for other labels (node=~"wh-.*" from a phone)
    // holds back what Alertmanager holds back.
    auto all = activeMatching({}, problems);
    if (all || !answerWasCutOff(all.error()))
        return all;  // read, or not answering: asking twice more would only wait longer
    // An Alertmanager shared with other teams may keep so many of their silences that the
    // list passes its cap; then what can quiet Meridian's alerts is asked for by
    // Alertmanager's own filter, so a lift of ours is never hidden behind theirs. The
    // filter's matchers must all hold: Meridian's own silences (source="meridian") and
    // those made for an alert of ours (alertname="Meridian…") are two reads.
    std::vector<SilenceRule> rules;
    std::set<std::string> seen;
    for (const char *filter : {"source=\"meridian\"", "alertname=~\"Meridian.*\""}) {
        auto read = activeMatching(filter, problems);
        if (!read)
            return all.error();
        for (SilenceRule &rule : read.value()) {
            if (rule.alertmanagerId.empty() || seen.insert(rule.alertmanagerId).second)
                rules.push_back(std::move(rule));
        }
    }
    if (problems)
        problems->push_back(all.error().message +
                            "; only the silences for Meridian's alerts were read");
    return rules;
}

Result<std::vector<SilenceRule>> AlertmanagerSilences::activeMatching(
    const std::string &filter, std::vector<std::string> *problems)
{
    RouteCall call{"GET", base() + "/api/v2/silences"};
    if (!filter.empty())
        call.url += "?filter=" + urlEncode(filter);
    call.maxAnswerBytes = kMaxSilencesAnswerBytes;
    const auto answer = callRoute(m_route, call, m_timeoutMs, m_calls);
    if (!answer)
        return answer.error();
    const auto unreadable = [&](const std::string &why) {
        return Error{fmt::format("{}: silences unreadable: {}", m_route.name, why)};
    };
    if (answer->status != 200)
        return unreadable(fmt::format("HTTP {} {}", answer->status, answer->body.substr(0, 200)));
    // Before a tree is built: a tree deep enough to overflow a stack is hostile.
    if (const auto line = lineNestedDeeperThan(answer->body, kMaxSilencesNesting))
        return unreadable(
            fmt::format("nested more than {} deep at line {}; not what "
                        "Alertmanager writes",
                        kMaxSilencesNesting, *line));
    const json list = json::parse(answer->body, nullptr, false);
    if (!list.is_array())
        return unreadable(fmt::format("not a list of silences: {}", answer->body.substr(0, 200)));
    std::vector<SilenceRule> rules;
    std::vector<std::string> skipped;
    try {
        for (const json &silence : list) {
            if (!silence.is_object() ||
                silence.value("status", json::object()).value("state", "") != "active")
                continue;
            if (auto rule = ruleOf(silence, skipped))
                rules.push_back(std::move(*rule));
        }
    } catch (const json::exception &e) {
        // An answer of the wrong shape is said, never taken for "no silences".
        return unreadable(e.what());
    }
    if (problems)
        problems->insert(problems->end(), skipped.begin(), skipped.end());
    return rules;
}

}  // namespace meridian
