#include "silencecheck.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace meridian {

namespace {

bool blank(const std::string &text)
{
    return std::all_of(text.begin(), text.end(),
                       [](unsigned char c) { return std::isspace(c) != 0; });
}

// Names travel to Alertmanager as label values and to every console as text.
Status checkName(const std::string &value, const char *field)
{
    if (value.size() > kMaxSilenceNameBytes)
        return Error{
            fmt::format("{} of {} bytes; at most {}", field, value.size(), kMaxSilenceNameBytes)};
    if (std::any_of(value.begin(), value.end(), [](unsigned char c) { return c < 0x20; }))
        return Error{fmt::format("{} holds a control character", field)};
    return {};
}

}  // namespace

Status checkSilence(const SilenceRule &rule, int64_t nowMs, int64_t maxMs)
{
    if (!rule.matchers.empty())
        return Error{
            "a silence is asked for by alert key, node or data center (with a kind), not by "
            "raw matchers: those are made in Alertmanager itself"};
    if (rule.alertKey.empty() && rule.node.empty() && rule.dataCenter.empty())
        return Error{rule.kind ? "a silence of a kind across the whole fleet is not taken: name "
                                 "a node or a data center with it"
                               : "a silence must name what it quiets: an alert key, a node or a "
                                 "data center"};
    for (const auto &[value, field] :
         {std::pair{&rule.alertKey, "alertKey"}, std::pair{&rule.node, "node"},
          std::pair{&rule.dataCenter, "dataCenter"}}) {
        if (Status name = checkName(*value, field); !name)
            return name;
    }
    if (blank(rule.reason))
        return Error{"a silence needs a reason: every console and receiver shows why"};
    if (rule.reason.size() > kMaxSilenceReasonBytes)
        return Error{fmt::format("a reason of {} bytes; at most {}", rule.reason.size(),
                                 kMaxSilenceReasonBytes)};
    const int64_t lasts = rule.untilMs - nowMs;
    if (lasts < kSilenceMinMs)
        return Error{
            fmt::format("untilMs {} is not at least a minute after now ({}): a silence "
                        "ends in the future",
                        rule.untilMs, nowMs)};
    if (lasts > maxMs)
        return Error{
            fmt::format("a silence of {:.1f} hours; at most {} hours are allowed "
                        "(silence_max_hours in the routing file)",
                        static_cast<double>(lasts) / 3600'000.0, maxMs / 3600'000)};
    return {};
}

}  // namespace meridian
