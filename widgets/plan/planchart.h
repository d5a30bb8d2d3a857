// The plan's chart, for the Plan view and its PDF alike: requests inside the objective
// against a month's cost, the front of mixes as a line and each marked row (the pick, the
// rules, or the backtest's rows) a point of its own, both axes covering every point.
#pragma once

#include <QPalette>
#include <vector>

#include "models/plan/planwording.h"

class QChart;

namespace meridian {

QChart *makePlanChart(const std::vector<PlanCandidate> &front, const std::vector<PlanRow> &rows,
                      const QPalette &palette);

}  // namespace meridian
