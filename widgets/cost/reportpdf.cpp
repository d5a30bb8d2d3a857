#include "reportpdf.h"

#include <QChart>
#include <QDateTime>
#include <QLocale>
#include <memory>

#include "models/cost/reporttablemodel.h"
#include "models/cost/reportwording.h"
#include "reportcharts.h"
#include "widgets/pdfpages.h"

namespace meridian {

namespace {

// What the period earned and how busy it was, in sentences; against the period before,
// and how much of the period the history holds.
void drawSummary(PdfPages &pages, const UsageReport &report, const UsageTrend &trend,
                 const UsageReport *previous)
{
    const ReportRow &total = report.total;
    pages.text(QObject::tr("Utilisation and value"), 18, true);
    pages.text(
        QObject::tr("%1, by %2")
            .arg(reportPeriodText(report), ReportTableModel::groupHeader(report.group).toLower()),
        10, false, QColor(0x44, 0x44, 0x44));
    pages.advance(6);
    if (const QString warning = coverageWarning(report, trend.buckets.empty() ? nullptr : &trend);
        !warning.isEmpty()) {
        pages.text(QObject::tr("%1.", "a sentence's full stop").arg(warning), 10, true,
                   QColor(0xb0, 0x30, 0x20));
        pages.advance(4);
    }
    const double idleShare = total.costCny > 0 ? 100 * total.idleCostCny / total.costCny : 0;
    const QString whyNot = notComparable(report, previous);
    const ReportRow before = previous ? previous->total : ReportRow{};
    pages.text(
        QObject::tr("Value of own cards at price-book rates: %1 CNY (%2), of which idle "
                    "cards %3 CNY (%4).")
            .arg(moneyText(total.costCny), changeText(total.costCny, before.costCny, false, whyNot),
                 moneyText(total.idleCostCny), percentText(idleShare)),
        11, true);
    pages.text(QObject::tr("%1 cards, %2 card-hours recorded (coverage %3): %4 busy, %5 idle; "
                           "busy %6 of card-hours (%7), mean utilisation %8; energy %9 kWh. "
                           "A card-hour is busy at or above 5% utilisation.")
                   .arg(QLocale().toString(total.cards), cardHoursText(total.cardHours),
                        percentText(report.coveragePercent(total.cardHours, total.cards)),
                        cardHoursText(total.busyCardHours), cardHoursText(total.idleCardHours()),
                        percentText(total.busyPercent()),
                        changeText(total.busyPercent(), before.busyPercent(), true, whyNot),
                        percentText(total.meanUtilizationPercent()),
                        QLocale().toString(total.energyKwh, 'f', 1)),
               10);
    if (report.cloud.empty()) {
        pages.text(QObject::tr("No cloud capacity was rented in this period."), 10);
    } else {
        pages.text(QObject::tr("Cloud spend: %1 CNY over %n lease(s).", nullptr,
                               static_cast<int>(report.cloud.size()))
                       .arg(moneyText(report.cloudSpendCny)),
                   10);
    }
    if (total.unpricedCardHours > 0) {
        pages.text(QObject::tr("%1 card-hours had no price in the price book and are not in "
                               "the value.")
                       .arg(cardHoursText(total.unpricedCardHours)),
                   10, false, QColor(0xb0, 0x30, 0x20));
    }
    pages.advance(8);
}

// The groups' table, with the total last.
void drawGroups(PdfPages &pages, const UsageReport &report)
{
    const ReportPdfTable table = reportPdfTable(report);
    pages.table(table.header, table.rows, 1);
}

void drawLeases(PdfPages &pages, const UsageReport &report)
{
    pages.text(QObject::tr("Cloud leases"), 12, true);
    QList<QStringList> leases;
    for (const CloudSpendRow &lease : report.cloud) {
        leases << QStringList{QString::fromStdString(lease.leaseId),
                              QString::fromStdString(lease.service),
                              QString::fromStdString(lease.region),
                              QString::fromStdString(lease.cardModel),
                              QString::number(lease.cards),
                              moneyText(lease.cnyPerCardHour),
                              QLocale().toString(lease.billedHours, 'f', 1),
                              moneyText(lease.costCny)};
    }
    leases << QStringList{QObject::tr("Total"),           {}, {}, {}, {}, {}, {},
                          moneyText(report.cloudSpendCny)};
    pages.table({QObject::tr("Lease"), QObject::tr("Service"), QObject::tr("Region"),
                 QObject::tr("Card model"), QObject::tr("Cards"), QObject::tr("CNY/card-h"),
                 QObject::tr("Billed h"), QObject::tr("Spend (CNY)")},
                leases, 1);
}

// The report's pages.
void drawReport(PdfPages &pages, const UsageReport &report, const UsageTrend &trend,
                const UsageReport *previous)
{
    drawSummary(pages, report, trend, previous);
    drawGroups(pages, report);
    if (!trend.buckets.empty())
        pages.chart(makeTrendChart(trend, report.total.cards), 330);
    if (!report.rows.empty())
        pages.chart(
            makeCostByGroupChart(report),
            std::min(400, 120 + 24 * static_cast<int>(std::min<size_t>(report.rows.size(), 12))));
    if (!report.cloud.empty())
        drawLeases(pages, report);
    pages.text(
        QObject::tr("Figures as of %1 UTC, by Meridian. Own cards are priced by the price book "
                    "in force at each minute; rented cloud capacity at what the pool "
                    "charged, per started billing increment.")
            .arg(QDateTime::fromSecsSinceEpoch(report.asOfUnixS, Qt::UTC)
                     .toString(QStringLiteral("yyyy-MM-dd HH:mm"))),
        8, false, QColor(0x66, 0x66, 0x66));
}

}  // namespace

ReportPdfTable reportPdfTable(const UsageReport &report)
{
    ReportTableModel model;
    model.setReport(report);
    ReportPdfTable table;
    for (int c = 0; c < model.columnCount(); ++c)
        table.header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << model.index(r, c).data().toString();
        table.rows << cells;
    }
    return table;
}

Status writeReportPdf(const QString &path, const UsageReport &report, const UsageTrend &trend,
                      const UsageReport *previous, ReportPdfFacts *facts)
{
    return writeA4Pdf(
        path, QObject::tr("Meridian utilisation and value report"),
        [&](PdfPages &pages) { drawReport(pages, report, trend, previous); }, facts);
}

}  // namespace meridian
