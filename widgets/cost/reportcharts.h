// The report's charts, for the Reports window and for the PDF alike: busy and idle
// card-hours per day or week with their value, and value per group. Built as plain
// QCharts so a view can show them and a painter can print them.
#pragma once

#include "models/cost/reportbuilder.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace meridian {

// Stacked busy/idle card-hours per bucket (left axis) and value per bucket (right axis).
// A bucket the history holds nothing for is a grey "No data" bar and a break in the
// line; a partly covered one says its coverage (against `expectedCards`) in its label.
QChart *makeTrendChart(const UsageTrend &trend, int expectedCards);
// Value per group, largest first (at most 12 bars; the rest are summed as "others").
QChart *makeCostByGroupChart(const UsageReport &report);

}  // namespace meridian
