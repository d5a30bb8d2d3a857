// An evaluation run as people and tools read it: the table `evaluate` prints, the JSON it
// writes, and the per-minute CSV that lets a schedule be read beside its latency.
#pragma once

#include <string>

#include "evaluation.h"

namespace meridian {

// Rented card-hours are set against the cheapest foresight schedule that keeps as many
// requests inside the objective as the oracle was held to.
std::string evaluationTable(const EvaluationRun &run);
std::string evaluationJson(const EvaluationRun &run);
// One row per minute: the p95 TTFT of each autoscaler's replay (empty: no request).
std::string evaluationMinutesCsv(const EvaluationRun &run);
// One row per minute of Meridian's replay, as its last decision of the minute saw it: the
// load, the rate it read, what it asked for, what was provisioning, loading weights and
// serving, the queue, and the minute's p95 queueing delay. Where a scale-up's time goes.
std::string evaluationTimelineCsv(const EvaluationRun &run);

}  // namespace meridian
