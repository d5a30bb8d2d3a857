// The rules a silence must keep, wherever it is asked for: the Silence dialog, a console
// following a watcher, or anyone calling the watcher's POST /triage. A silence quiets
// pages for the whole team, so it names what it quiets (an alert, a node or a data
// center; never the whole fleet), says why, and ends within the team's maximum.
// Alertmanager checks the same kind of thing where a silence enters (validateSilence).
#pragma once

#include <cstdint>

#include "alert.h"
#include "core/result.h"

namespace meridian {

// The dialog offers 1 to 72 hours; a routing file may allow more (`silence_max_hours:`).
constexpr int64_t kDefaultSilenceMaxMs = 72 * 3600'000LL;
// A silence shorter than this is a mistake (a time in the past, or in seconds not ms).
constexpr int64_t kSilenceMinMs = 60'000;
constexpr size_t kMaxSilenceReasonBytes = 500;
constexpr size_t kMaxSilenceNameBytes = 200;

// Whether `rule`, asked for at `nowMs`, may be made; the error names the rule it breaks.
Status checkSilence(const SilenceRule &rule, int64_t nowMs, int64_t maxMs = kDefaultSilenceMaxMs);

}  // namespace meridian
