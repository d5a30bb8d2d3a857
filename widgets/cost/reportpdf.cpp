#include "reportpdf.h"

#include <QBuffer>
#include <QChart>
#include <QDateTime>
#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QPdfWriter>
#include <memory>

#include "models/cost/reporttablemodel.h"
#include "models/cost/reportwording.h"
#include "pdftable.h"
#include "reportcharts.h"

namespace meridian {

namespace {

constexpr int kDpi = 96;  // page coordinates in pixels: A4 is 794 × 1123
constexpr int kMargin = 48;

class PdfPages {
public:
    // `totalPages`: how many there will be, for "page 2 of 3" (0: not known yet).
    PdfPages(QPdfWriter &writer, QPainter &painter, int totalPages)
        : m_writer(writer), m_painter(painter), m_totalPages(totalPages)
    {
        m_width = m_writer.width() - 2 * kMargin;
        m_bottom = m_writer.height() - kMargin;
        m_y = kMargin;
    }
    int width() const { return m_width; }
    int y() const { return m_y; }
    void advance(int by) { m_y += by; }
    // Starts a new page unless `height` still fits on this one; whether it did.
    bool need(int height)
    {
        if (m_y + height <= m_bottom)
            return false;
        footer();
        m_writer.newPage();
        ++m_page;
        m_y = kMargin;
        return true;
    }
    const ReportPdfFacts &facts() const { return m_facts; }
    // Ends the last page; how many there were.
    int finish()
    {
        footer();
        m_facts.pages = m_page;
        return m_page;
    }
    void text(const QString &line, int pointSize, bool bold = false,
              const QColor &color = Qt::black)
    {
        QFont font = m_painter.font();
        font.setPointSize(pointSize);
        font.setBold(bold);
        m_painter.setFont(font);
        m_painter.setPen(color);
        const QRect bounds =
            m_painter.boundingRect(QRect(kMargin, m_y, m_width, 2000), Qt::TextWordWrap, line);
        need(bounds.height());
        m_painter.drawText(QRect(kMargin, m_y, m_width, bounds.height()), Qt::TextWordWrap, line);
        m_y += bounds.height() + 4;
    }
    // A table as wide as the page: columns fit their cells (pdftable.h), headers wrap, and
    // the header row is set again at the top of every page the table runs onto.
    void table(const QStringList &header, const QList<QStringList> &rows, int boldLastRows)
    {
        const PdfTableLayout layout =
            layoutPdfTable(m_painter.font(), header, rows, boldLastRows, m_width, &m_writer);
        const auto heightOf = [&](const QStringList &cells, bool bold, bool isHeader) {
            setTableFont(layout.pointSize, bold);
            const int flags = isHeader ? Qt::TextWordWrap : Qt::TextSingleLine;
            int height = m_painter.fontMetrics().height();
            for (int c = 0; c < cells.size() && c < layout.widths.size(); ++c) {
                const QRect room(0, 0, layout.widths[c] - 2 * kPdfCellPadding, 1000);
                height = std::max(height, m_painter.boundingRect(room, flags, cells[c]).height());
            }
            return height + 6;
        };
        const int headerHeight = heightOf(header, true, true);
        // A header never ends a page on its own: it goes with the first row.
        need(headerHeight + (rows.isEmpty() ? 0 : heightOf(rows.front(), false, false)));
        drawTableRow(layout, header, true, true, headerHeight);
        ++m_facts.tablePages;
        for (int r = 0; r < rows.size(); ++r) {
            const bool total = r >= rows.size() - boldLastRows;
            const int height = heightOf(rows[r], total, false);
            if (need(height)) {
                drawTableRow(layout, header, true, true, headerHeight);
                ++m_facts.tablePages;
            }
            if (total)
                m_painter.drawLine(kMargin, m_y, kMargin + m_width, m_y);
            drawTableRow(layout, rows[r], total, false, height);
        }
        m_y += 10;
    }
    void chart(QChart *chart, int height)
    {
        need(height);
        QGraphicsScene scene;
        scene.addItem(chart);  // the scene owns and deletes it
        chart->setGeometry(0, 0, m_width, height);
        scene.render(&m_painter, QRectF(kMargin, m_y, m_width, height),
                     QRectF(0, 0, m_width, height));
        m_y += height + 12;
    }

private:
    void footer()
    {
        QFont font = m_painter.font();
        font.setPointSize(8);
        font.setBold(false);
        m_painter.setFont(font);
        m_painter.setPen(QColor(0x66, 0x66, 0x66));
        const QString text = m_totalPages > 0
                                 ? QObject::tr("Page %1 of %2").arg(m_page).arg(m_totalPages)
                                 : QObject::tr("Page %1").arg(m_page);
        m_painter.drawText(QRect(kMargin, m_bottom + 8, m_width, kMargin - 16),
                           Qt::AlignRight | Qt::AlignTop, text);
    }

    void setTableFont(qreal pointSize, bool bold)
    {
        QFont font = m_painter.font();
        font.setPointSizeF(pointSize);
        font.setBold(bold);
        m_painter.setFont(font);
    }

    void drawTableRow(const PdfTableLayout &layout, const QStringList &cells, bool bold,
                      bool isHeader, int height)
    {
        setTableFont(layout.pointSize, bold);
        if (isHeader) {
            m_painter.fillRect(QRect(kMargin, m_y, m_width, height), QColor(0xee, 0xf2, 0xf7));
            ++m_facts.tableHeaders;
        }
        int x = kMargin;
        for (int c = 0; c < cells.size() && c < layout.widths.size(); ++c) {
            const QRect cell(x + kPdfCellPadding, m_y, layout.widths[c] - 2 * kPdfCellPadding,
                             height);
            const int align =
                static_cast<int>((c == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
            m_painter.setPen(Qt::black);
            if (isHeader) {
                m_painter.drawText(cell, align | Qt::TextWordWrap, cells[c]);
            } else {
                const QString shown =
                    m_painter.fontMetrics().elidedText(cells[c], Qt::ElideRight, cell.width());
                m_facts.elidedCells += shown != cells[c] ? 1 : 0;
                m_painter.drawText(cell, align, shown);
            }
            x += layout.widths[c];
        }
        m_y += height;
    }

    QPdfWriter &m_writer;
    QPainter &m_painter;
    int m_totalPages = 0;
    int m_page = 1;
    ReportPdfFacts m_facts;
    int m_width = 0;
    int m_bottom = 0;
    int m_y = 0;
};

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

// The report's pages and what they came to. Drawn twice: once to count the pages, once
// with "page N of M" on each.
ReportPdfFacts drawReport(QPdfWriter &writer, QPainter &painter, const UsageReport &report,
                          const UsageTrend &trend, const UsageReport *previous, int totalPages)
{
    PdfPages pages(writer, painter, totalPages);
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
    pages.finish();
    return pages.facts();
}

void setUp(QPdfWriter &writer, QPageLayout::Orientation orientation)
{
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageOrientation(orientation);
    writer.setResolution(kDpi);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(QObject::tr("Meridian utilisation and value report"));
    writer.setCreator(QStringLiteral("Meridian"));
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
    // Laid out once to count the pages (upright, or on its side when an upright page cuts
    // the table's cells), then drawn with "page N of M".
    ReportPdfFacts laidOut;
    QPageLayout::Orientation orientation = QPageLayout::Portrait;
    for (const auto tried : {QPageLayout::Portrait, QPageLayout::Landscape}) {
        QBuffer scratch;
        scratch.open(QIODevice::WriteOnly);
        QPdfWriter counting(&scratch);
        setUp(counting, tried);
        QPainter painter;
        if (!painter.begin(&counting))
            return Error{QObject::tr("%1: cannot lay out the PDF").arg(path).toStdString()};
        laidOut = drawReport(counting, painter, report, trend, previous, 0);
        painter.end();
        orientation = tried;
        if (laidOut.elidedCells == 0)
            break;
    }
    QPdfWriter writer(path);
    setUp(writer, orientation);
    QPainter painter;
    if (!painter.begin(&writer))
        return Error{QObject::tr("%1: cannot write the PDF").arg(path).toStdString()};
    ReportPdfFacts written = drawReport(writer, painter, report, trend, previous, laidOut.pages);
    if (!painter.end())
        return Error{QObject::tr("%1: cannot write the PDF").arg(path).toStdString()};
    written.landscape = orientation == QPageLayout::Landscape;
    if (facts)
        *facts = written;
    return {};
}

}  // namespace meridian
