#include "reportpdf.h"

#include <QBuffer>
#include <QChart>
#include <QDateTime>
#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QPdfWriter>
#include <memory>

#include "models/reporttablemodel.h"
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
    // Starts a new page unless `height` still fits on this one.
    void need(int height)
    {
        if (m_y + height <= m_bottom)
            return;
        footer();
        m_writer.newPage();
        ++m_page;
        m_y = kMargin;
    }
    // Ends the last page; how many there were.
    int finish()
    {
        footer();
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
    void table(const QStringList &header, const QList<QStringList> &rows, int boldLastRows,
               const QList<int> &widths)
    {
        const auto drawRow = [&](const QStringList &cells, bool bold, bool shaded) {
            QFont font = m_painter.font();
            font.setPointSize(8);
            font.setBold(bold);
            m_painter.setFont(font);
            const int height = m_painter.fontMetrics().height() + 6;
            need(height);
            if (shaded)
                m_painter.fillRect(QRect(kMargin, m_y, m_width, height), QColor(0xee, 0xf2, 0xf7));
            int x = kMargin;
            for (int c = 0; c < cells.size() && c < widths.size(); ++c) {
                const QRect cell(x + 4, m_y, widths[c] - 8, height);
                m_painter.setPen(Qt::black);
                m_painter.drawText(
                    cell, (c == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter,
                    m_painter.fontMetrics().elidedText(cells[c], Qt::ElideRight, cell.width()));
                x += widths[c];
            }
            m_y += height;
            return height;
        };
        drawRow(header, true, true);
        for (int r = 0; r < rows.size(); ++r) {
            const bool total = r >= rows.size() - boldLastRows;
            if (total)
                m_painter.drawLine(kMargin, m_y, kMargin + m_width, m_y);
            drawRow(rows[r], total, false);
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

    QPdfWriter &m_writer;
    QPainter &m_painter;
    int m_totalPages = 0;
    int m_page = 1;
    int m_width = 0;
    int m_bottom = 0;
    int m_y = 0;
};

QString money(double cny)
{
    return QLocale().toString(cny, 'f', 2);
}
QString number(double value, int decimals = 1)
{
    return QLocale().toString(value, 'f', decimals);
}

}  // namespace

QString periodText(const UsageReport &report)
{
    const auto at = [](int64_t t) {
        return QDateTime::fromSecsSinceEpoch(t, Qt::UTC)
            .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    };
    const double days = static_cast<double>(report.toUnixS - report.fromUnixS) / 86400.0;
    return QObject::tr("%1 – %2 UTC (%3 days)")
        .arg(at(report.fromUnixS), at(report.toUnixS), QLocale().toString(days, 'g', 4));
}

namespace {

// What the period cost and how busy it was, in sentences.
void drawSummary(PdfPages &pages, const UsageReport &report)
{
    const ReportRow &total = report.total;
    pages.text(QObject::tr("Utilisation and cost"), 18, true);
    pages.text(QObject::tr("%1, by %2")
                   .arg(periodText(report), ReportTableModel::groupHeader(report.group).toLower()),
               10, false, QColor(0x44, 0x44, 0x44));
    pages.advance(6);
    const double idleShare = total.costCny > 0 ? 100 * total.idleCostCny / total.costCny : 0;
    pages.text(
        QObject::tr(
            "Value of own cards at price-book rates: %1 CNY, of which idle cards %2 CNY (%3%).")
            .arg(money(total.costCny), money(total.idleCostCny), number(idleShare)),
        11, true);
    pages.text(QObject::tr("%1 cards, %2 card-hours observed: %3 busy, %4 idle (busy %5%); "
                           "energy %6 kWh.")
                   .arg(total.cards)
                   .arg(number(total.cardHours), number(total.busyCardHours),
                        number(total.idleCardHours()), number(total.busyPercent()),
                        number(total.energyKwh)),
               10);
    if (report.cloud.empty()) {
        pages.text(QObject::tr("No cloud capacity was rented in this period."), 10);
    } else {
        pages.text(QObject::tr("Cloud bursts: %1 CNY over %n lease(s).", nullptr,
                               static_cast<int>(report.cloud.size()))
                       .arg(money(report.cloudSpendCny)),
                   10);
    }
    if (total.unpricedCardHours > 0) {
        pages.text(QObject::tr("%1 card-hours had no price in the price book and are not in "
                               "the cost.")
                       .arg(number(total.unpricedCardHours)),
                   10, false, QColor(0xb0, 0x30, 0x20));
    }
    pages.advance(8);
}

// The groups' table, with the total last.
void drawGroups(PdfPages &pages, const UsageReport &report)
{
    const int w = pages.width();
    const QList<int> widths = {w * 20 / 100, w * 8 / 100,  w * 12 / 100, w * 9 / 100,
                               w * 12 / 100, w * 14 / 100, w * 13 / 100, w * 12 / 100};
    const QStringList header = {ReportTableModel::groupHeader(report.group),
                                QObject::tr("Cards"),
                                QObject::tr("Card-hours"),
                                QObject::tr("Busy"),
                                QObject::tr("Mean util."),
                                QObject::tr("Idle (h)"),
                                QObject::tr("Cost (CNY)"),
                                QObject::tr("Idle (CNY)")};
    QList<QStringList> rows;
    const auto cells = [&](const QString &name, const ReportRow &row) {
        const auto util = row.meanUtilizationPercent();
        return QStringList{name,
                           QLocale().toString(row.cards),
                           number(row.cardHours),
                           number(row.busyPercent()) + QStringLiteral("%"),
                           util ? number(*util) + QStringLiteral("%") : QStringLiteral("–"),
                           number(row.idleCardHours()),
                           money(row.costCny),
                           money(row.idleCostCny)};
    };
    for (const ReportRow &row : report.rows)
        rows << cells(ReportTableModel::groupTitle(report.group, row.group), row);
    rows << cells(QObject::tr("Total"), report.total);
    pages.table(header, rows, 1, widths);
}

void drawLeases(PdfPages &pages, const UsageReport &report)
{
    const int w = pages.width();
    pages.text(QObject::tr("Cloud leases"), 12, true);
    QList<QStringList> leases;
    for (const CloudSpendRow &lease : report.cloud) {
        leases << QStringList{QString::fromStdString(lease.leaseId),
                              QString::fromStdString(lease.service),
                              QString::fromStdString(lease.region),
                              QString::fromStdString(lease.cardModel),
                              QString::number(lease.cards),
                              money(lease.cnyPerCardHour),
                              number(lease.billedHours),
                              money(lease.costCny)};
    }
    leases << QStringList{QObject::tr("Total"),       {}, {}, {}, {}, {}, {},
                          money(report.cloudSpendCny)};
    pages.table({QObject::tr("Lease"), QObject::tr("Service"), QObject::tr("Region"),
                 QObject::tr("Card model"), QObject::tr("Cards"), QObject::tr("CNY/card-h"),
                 QObject::tr("Billed h"), QObject::tr("Cost (CNY)")},
                leases, 1,
                {w * 18 / 100, w * 12 / 100, w * 11 / 100, w * 17 / 100, w * 7 / 100, w * 11 / 100,
                 w * 10 / 100, w * 14 / 100});
}

// The report's pages; how many there were. Drawn twice: once to count the pages, once
// with "page N of M" on each.
int drawReport(QPdfWriter &writer, QPainter &painter, const UsageReport &report,
               const UsageTrend &trend, int totalPages)
{
    PdfPages pages(writer, painter, totalPages);
    drawSummary(pages, report);
    drawGroups(pages, report);
    if (!trend.buckets.empty())
        pages.chart(makeTrendChart(trend), 330);
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
    return pages.finish();
}

void setUp(QPdfWriter &writer)
{
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(kDpi);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(QObject::tr("Meridian utilisation and cost report"));
    writer.setCreator(QStringLiteral("Meridian"));
}

}  // namespace

Status writeReportPdf(const QString &path, const UsageReport &report, const UsageTrend &trend)
{
    int totalPages = 0;
    {
        QBuffer scratch;
        scratch.open(QIODevice::WriteOnly);
        QPdfWriter counting(&scratch);
        setUp(counting);
        QPainter painter;
        if (!painter.begin(&counting))
            return Error{QObject::tr("%1: cannot lay out the PDF").arg(path).toStdString()};
        totalPages = drawReport(counting, painter, report, trend, 0);
        painter.end();
    }
    QPdfWriter writer(path);
    setUp(writer);
    QPainter painter;
    if (!painter.begin(&writer))
        return Error{QObject::tr("%1: cannot write the PDF").arg(path).toStdString()};
    drawReport(writer, painter, report, trend, totalPages);
    if (!painter.end())
        return Error{QObject::tr("%1: cannot write the PDF").arg(path).toStdString()};
    return {};
}

}  // namespace meridian
