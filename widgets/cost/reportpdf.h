// The report as a PDF a manager can forward: title, period, the headline figures against
// the previous period, coverage, the table by group, the trend and value charts, and the
// cloud leases. A4, pages as needed, turned to landscape when the groups' table has more
// columns than an upright page holds; a table's header row is set again on every page.
// Needs a QApplication (the charts are Qt Charts); `meridian report --format pdf` makes
// an offscreen one.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "core/result.h"
#include "models/cost/reportbuilder.h"
#include "widgets/pdfpages.h"

namespace meridian {

// The groups' table as the PDF sets it: the window's table, every column of it, in its
// words, the total last.
struct ReportPdfTable {
    QStringList header;
    QList<QStringList> rows;
};
ReportPdfTable reportPdfTable(const UsageReport &report);

// What the PDF came to (widgets/pdfpages.h): pages, landscape, headers, cut cells.
using ReportPdfFacts = PdfFacts;

// `previous`: the period of the same length just before, for the comparison; may be null.
Status writeReportPdf(const QString &path, const UsageReport &report, const UsageTrend &trend,
                      const UsageReport *previous = nullptr, ReportPdfFacts *facts = nullptr);

}  // namespace meridian
