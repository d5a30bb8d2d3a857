// The fault-response clock, for managers and the on-call lead: how long alerts took from
// being sent to acknowledgement and to resolution, grouped by week, data center, kind or
// person, with the share acknowledged within the escalation time and resolved within
// the hour the provider promises. Pure: it reads the incidents it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alertincident.h"

namespace meridian {

enum class ResponseGrouping { Week, DataCenter, Kind, Person };
std::optional<ResponseGrouping> responseGroupingFromName(std::string_view name);
const char *responseGroupingName(ResponseGrouping grouping);

struct ResponseTargets {
    int64_t acknowledgeWithinMs = 15 * 60'000;  // the escalation time
    int64_t resolveWithinMs = 3600'000;         // the provider's promise
};

struct ResponseRow {
    std::string group;  // "2026-W49", "wuhu", "Xid", "zhang.min"; "total" last
    int incidents = 0;
    int acknowledged = 0;
    int acknowledgedInTime = 0;
    int resolved = 0;
    int resolvedInTime = 0;
    int open = 0;  // not resolved yet
    std::optional<int64_t> medianAcknowledgeMs;
    std::optional<int64_t> p90AcknowledgeMs;
    std::optional<int64_t> medianResolveMs;
    std::optional<int64_t> p90ResolveMs;

    // Of all incidents: one never acknowledged (or resolved) counts as late.
    double shareAcknowledgedInTime() const;
    double shareResolvedInTime() const;
};

// "2026-W49": the ISO 8601 week of a time, in UTC.
std::string isoWeek(int64_t unixMs);

// One row per group (sorted by name; weeks in order), then the total. An incident with
// nobody's acknowledgement is grouped by person as "(not acknowledged)".
std::vector<ResponseRow> tallyResponse(const std::vector<AlertIncident> &incidents,
                                       ResponseGrouping grouping, const ResponseTargets &targets);

std::string responseToCsv(const std::vector<ResponseRow> &rows, ResponseGrouping grouping);
std::string responseToJson(const std::vector<ResponseRow> &rows, ResponseGrouping grouping,
                           const ResponseTargets &targets, int64_t fromMs, int64_t toMs);

}  // namespace meridian
