// The report as a PDF a manager can forward: title, period, the headline figures, the
// table by group, the trend and cost charts, and the cloud leases. A4, pages as needed.
// Needs a QApplication (the charts are Qt Charts); `meridian report --format pdf` makes
// an offscreen one.
#pragma once

#include <QString>

#include "core/result.h"
#include "models/reportbuilder.h"

namespace meridian {

Status writeReportPdf(const QString &path, const UsageReport &report, const UsageTrend &trend);

// "2026-07-01 00:00 – 2026-08-01 00:00 UTC (31 days)": the period as every export says it.
QString periodText(const UsageReport &report);

}  // namespace meridian
