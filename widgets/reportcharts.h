// The report's charts, for the Reports window and for the PDF alike: busy and idle
// card-hours per day or week with what they cost, and cost per group. Built as plain
// QCharts so a view can show them and a painter can print them.
#pragma once

#include <QPalette>

#include "models/reportbuilder.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace meridian {

// Stacked busy/idle card-hours per bucket (left axis) and cost per bucket (right axis).
QChart *makeTrendChart(const UsageTrend &trend);
// Cost per group, largest first (at most 12 bars; the rest are summed as "others").
QChart *makeCostByGroupChart(const UsageReport &report);
// Qt Charts has themes of its own; the console's palette (light or dark) wins.
void applyPalette(QChart *chart, const QPalette &palette);

}  // namespace meridian
