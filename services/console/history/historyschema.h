// The console's history file, every version of it: migrations[i] takes a file from
// schema i to i + 1 (docs/history.md describes the latest). One place, so the usage
// writer, the scaling journal and the reports agree on what a file holds.
#pragma once

#include "sqlite/sqlitefile.h"

namespace meridian {

constexpr int kHistoryApplicationId = 1296388424;  // "MERH"

const SqliteSchema &historySchema();

// meridian-scaled's journal file: the history file's scaling tables, and its settings.
constexpr int kScalingJournalApplicationId = 1296388435;  // "MERS"
const SqliteSchema &scalingJournalSchema();

}  // namespace meridian
