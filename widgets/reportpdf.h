// The report as a PDF a manager can forward: title, period, the headline figures against
// the previous period, coverage, the table by group, the trend and value charts, and the
// cloud leases. A4, pages as needed.
// Needs a QApplication (the charts are Qt Charts); `meridian report --format pdf` makes
// an offscreen one.
#pragma once

#include <QString>

#include "core/result.h"
#include "models/reportbuilder.h"

namespace meridian {

// `previous`: the period of the same length just before, for the comparison; may be null.
Status writeReportPdf(const QString &path, const UsageReport &report, const UsageTrend &trend,
                      const UsageReport *previous = nullptr);

}  // namespace meridian
