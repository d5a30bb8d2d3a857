// Where a watcher's POST /triage is judged before anything is done: the caller's role, its
// allowance (triageallowance.h), the request's form (teamalerts.h) and the same rules the
// Silence dialog keeps (silencecheck.h). Whoever calls, a dialog's rule is never skipped
// by going round the dialog. A refusal says which rule, with the HTTP status to answer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "teamalerts.h"

namespace meridian {

class TriageAllowance;

struct TriageCaller {
    std::string tokenName;   // the name its bearer token proves; empty: the watcher has none
    bool mayOperate = true;  // its token's role allows acting, not only reading
    std::string host;        // the watcher's host: who a caller without tokens is said to be
};

struct TriageVerdict {
    int status = 202;          // 202 taken; 400 malformed, 403 role, 422 a rule, 429 pace
    std::string why;           // refused: what is wrong, for the caller
    int64_t retryAfterMs = 0;  // 429: when the caller's allowance has room again
    TriageRequest request;     // taken: what to do
    std::string who;           // taken: in whose name (the triage log and audit say so)

    bool taken() const { return status == 202; }
};

TriageVerdict judgeTriage(std::string_view body, const TriageCaller &caller, int64_t nowMs,
                          TriageAllowance &allowance, int64_t silenceMaxMs);

}  // namespace meridian
