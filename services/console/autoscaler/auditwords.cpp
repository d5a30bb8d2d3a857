#include "auditwords.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace meridian {

namespace {

// A cause is the same cause whatever its figures ("12.40 req/s cannot be placed" and
// "9.10 req/s cannot be placed"): it is audited once, not each time the demand moves.
std::string causeOf(const std::string &limit)
{
    std::string cause;
    for (const char c : limit) {
        const bool figure = std::isdigit(static_cast<unsigned char>(c)) || c == '.';
        if (!figure)
            cause += c;
        else if (cause.empty() || cause.back() != '#')
            cause += '#';
    }
    return cause;
}

}  // namespace

std::string actionWords(const Recovery &a, const std::vector<JournalStep> &open)
{
    const auto step = std::find_if(open.begin(), open.end(),
                                   [&](const JournalStep &s) { return s.id == a.stepId; });
    const std::string key = step != open.end() ? step->idempotencyKey : std::string();
    switch (a.kind) {
    case RecoveryKind::Lease:
        return fmt::format("lease {} for step {}", step != open.end() ? step->offerId : "", key);
    case RecoveryKind::StartReplica:
        return fmt::format("start replicas of step {} on {}", key, a.nodeId);
    case RecoveryKind::StopReplica:
        return fmt::format("stop replicas of step {} on {}", key, a.nodeId);
    case RecoveryKind::MarkServing: return fmt::format("step {} serves on {}", key, a.nodeId);
    case RecoveryKind::Release:
    case RecoveryKind::GiveUp:
    case RecoveryKind::ReleaseOrphan:
        return fmt::format("release lease {}{}", a.leaseId, key.empty() ? "" : " of step " + key);
    case RecoveryKind::MarkFailed: return fmt::format("step {} failed", key);
    case RecoveryKind::MarkDone: return fmt::format("step {} done", key);
    default: return {};  // waiting and holding are not actions
    }
}

std::vector<std::string> limitsNotSaid(std::set<std::string> &said,
                                       const std::vector<std::string> &limits)
{
    std::vector<std::string> news;
    std::set<std::string> now;
    for (const std::string &limit : limits) {
        const std::string cause = causeOf(limit);
        if (!said.count(cause) && !now.count(cause))
            news.push_back(limit);
        now.insert(cause);
    }
    said = std::move(now);
    return news;
}

}  // namespace meridian
