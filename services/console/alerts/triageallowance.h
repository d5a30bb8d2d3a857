// How much triage each caller of a watcher may ask for: a burst, then one request every
// few seconds, per token (or, without tokens, per host). People acknowledge and silence at
// the pace of reading; a script that floods would otherwise grow the history file, the
// watcher's memory and what it forwards to Alertmanager without bound, and delay the
// rules that page. Past its allowance a caller is told when to come back (HTTP 429 with
// Retry-After) and nothing it asked is kept. Thread-safe: the listener's workers share it.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace meridian {

class Clock;

struct TriageAllowanceLimits {
    int burst = 10;                 // requests a caller may make at once
    int64_t refillEveryMs = 2'000;  // and one more after each of these
};

class TriageAllowance {
public:
    explicit TriageAllowance(const Clock &clock, TriageAllowanceLimits limits = {});

    // Takes one request from `caller`'s allowance; if none is left, how many ms until one is.
    std::optional<int64_t> take(const std::string &caller);

private:
    struct Bucket {
        double requests = 0;
        int64_t atMs = 0;
    };
    const Clock &m_clock;
    TriageAllowanceLimits m_limits;
    std::mutex m_mutex;
    std::map<std::string, Bucket> m_buckets;  // by caller: tokens are few, so this stays small
};

}  // namespace meridian
