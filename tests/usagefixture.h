// Usage minutes for history and report tests: `cards` A100s of one node, each with
// `minutes` finished minutes from `firstMinute`, busy `busySeconds` of each, serving
// `service` (none when empty).
#pragma once

#include <string>
#include <thread>
#include <vector>

#include "history/historystore.h"
#include "testsupport.h"

namespace meridian::test {

// A thread submitting `minutes` one-minute batches of node xm-n1's eight A100s from
// 2026-07-01, as the console's sync does while other writers use the file.
std::thread streamUsage(HistoryStore &store, int minutes);

UsageBatch a100Minutes(const std::string &node, const std::string &dataCenter, int cards,
                       int64_t firstMinute, int minutes, double busySeconds,
                       double energyJoulesPerMinute, const std::string &service = {});

// A history file at `file` holding `batches`, flushed; an error says why not.
Status writeUsageHistory(const std::string &file, std::vector<UsageBatch> batches);

}  // namespace meridian::test
