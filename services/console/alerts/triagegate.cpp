#include "triagegate.h"

#include <fmt/format.h>

#include "silencecheck.h"
#include "triageallowance.h"

namespace meridian {

namespace {

// Without tokens (loopback only) nothing proves a name: the caller is recorded as someone
// on this host, with the name it claims beside it for the people reading the log.
std::string whoIsAsking(const TriageCaller &caller, const std::string &claimed)
{
    if (!caller.tokenName.empty())
        return caller.tokenName;
    const std::string anonymous = "anonymous@" + (caller.host.empty() ? "localhost" : caller.host);
    if (claimed.empty())
        return anonymous;
    return fmt::format("{} (says {})", anonymous, claimed.substr(0, 64));
}

TriageVerdict refused(int status, std::string why)
{
    TriageVerdict v;
    v.status = status;
    v.why = std::move(why);
    return v;
}

}  // namespace

TriageVerdict judgeTriage(std::string_view body, const TriageCaller &caller, int64_t nowMs,
                          TriageAllowance &allowance, int64_t silenceMaxMs)
{
    if (!caller.mayOperate)
        return refused(403, "this token may read the alerts, not act on them (role: read-only)");
    // Before the body is even read: a flood costs the watcher as little as can be.
    if (const auto wait = allowance.take(caller.tokenName)) {
        TriageVerdict v =
            refused(429, fmt::format("too many triage requests from {}: one more in {:.1f} s",
                                     caller.tokenName.empty() ? "this host" : caller.tokenName,
                                     static_cast<double>(*wait) / 1000.0));
        v.retryAfterMs = *wait;
        return v;
    }
    auto asked = parseTriageRequest(body);
    if (!asked)
        return refused(400, asked.error().message);
    TriageVerdict v;
    v.request = std::move(asked).value();
    switch (v.request.action) {
    case TriageRequest::Action::Silence:
        if (Status rules = checkSilence(v.request.silence, nowMs, silenceMaxMs); !rules)
            return refused(422, "silence refused: " + rules.message());
        break;
    case TriageRequest::Action::Lift:
        if (v.request.silence.id == 0)
            return refused(422, "lift names no silence: give its id");
        break;
    case TriageRequest::Action::Acknowledge:
    case TriageRequest::Action::Note: break;
    }
    v.who = whoIsAsking(caller, v.request.who);
    return v;
}

}  // namespace meridian
