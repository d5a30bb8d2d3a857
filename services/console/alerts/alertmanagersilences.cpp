#include "alertmanagersilences.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>

#include "alertpayloads.h"
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

// The rule a silence's matchers say, or nothing when one of them is not a plain equality
// on a label Meridian's rules know (Alertmanager still applies it to what it holds).
std::optional<SilenceRule> ruleOf(const json &silence)
{
    SilenceRule rule;
    for (const json &m : silence.value("matchers", json::array())) {
        if (m.value("isRegex", false) || !m.value("isEqual", true))
            return std::nullopt;
        const std::string name = m.value("name", "");
        const std::string value = m.value("value", "");
        if (name == "meridian_key")
            rule.alertKey = value;
        else if (name == "alertname" && kindOfAlertname(value))
            rule.kind = kindOfAlertname(value);
        else if (name == "node")
            rule.node = value;
        else if (name == "dc")
            rule.dataCenter = value;
        else if (name != "source" || value != "meridian")
            return std::nullopt;
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

Result<std::vector<SilenceRule>> AlertmanagerSilences::active()
{
    const auto answer =
        callRoute(m_route, {"GET", base() + "/api/v2/silences"}, m_timeoutMs, m_calls);
    if (!answer)
        return answer.error();
    const json list = json::parse(answer->body, nullptr, false);
    if (answer->status != 200 || !list.is_array())
        return Error{fmt::format("{}: silences unreadable: HTTP {} {}", m_route.name,
                                 answer->status, answer->body.substr(0, 200))};
    std::vector<SilenceRule> rules;
    try {
        for (const json &silence : list) {
            if (!silence.is_object() ||
                silence.value("status", json::object()).value("state", "") != "active")
                continue;
            if (auto rule = ruleOf(silence))
                rules.push_back(std::move(*rule));
        }
    } catch (const json::exception &e) {
        // An answer of the wrong shape is said, never taken for "no silences".
        return Error{fmt::format("{}: silences unreadable: {}", m_route.name, e.what())};
    }
    return rules;
}

}  // namespace meridian
