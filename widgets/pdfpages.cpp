#include "pdfpages.h"

#include <QBuffer>
#include <QChart>
#include <QGraphicsScene>
#include <QPainter>
#include <QPdfWriter>

#include "pdftable.h"

namespace meridian {

namespace {

constexpr int kDpi = 96;  // page coordinates in pixels: A4 is 794 × 1123
constexpr int kMargin = 48;

void setUpA4(QPdfWriter &writer, const QString &title, QPageLayout::Orientation orientation)
{
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageOrientation(orientation);
    writer.setResolution(kDpi);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Meridian"));
}

}  // namespace

PdfPages::PdfPages(QPdfWriter &writer, QPainter &painter, int totalPages)
    : m_writer(writer), m_painter(painter), m_totalPages(totalPages)
{
    m_width = m_writer.width() - 2 * kMargin;
    m_bottom = m_writer.height() - kMargin;
    m_y = kMargin;
}

bool PdfPages::need(int height)
{
    if (m_y + height <= m_bottom)
        return false;
    footer();
    m_writer.newPage();
    ++m_page;
    m_y = kMargin;
    return true;
}

const PdfFacts &PdfPages::finish()
{
    footer();
    m_facts.pages = m_page;
    return m_facts;
}

void PdfPages::text(const QString &line, int pointSize, bool bold, const QColor &color)
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

void PdfPages::table(const QStringList &header, const QList<QStringList> &rows, int boldLastRows)
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

void PdfPages::chart(QChart *chart, int height)
{
    need(height);
    QGraphicsScene scene;
    scene.addItem(chart);  // the scene owns and deletes it
    chart->setGeometry(0, 0, m_width, height);
    scene.render(&m_painter, QRectF(kMargin, m_y, m_width, height), QRectF(0, 0, m_width, height));
    m_y += height + 12;
}

void PdfPages::footer()
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

void PdfPages::setTableFont(qreal pointSize, bool bold)
{
    QFont font = m_painter.font();
    font.setPointSizeF(pointSize);
    font.setBold(bold);
    m_painter.setFont(font);
}

void PdfPages::drawTableRow(const PdfTableLayout &layout, const QStringList &cells, bool bold,
                            bool isHeader, int height)
{
    setTableFont(layout.pointSize, bold);
    if (isHeader) {
        m_painter.fillRect(QRect(kMargin, m_y, m_width, height), QColor(0xee, 0xf2, 0xf7));
        ++m_facts.tableHeaders;
    }
    int x = kMargin;
    for (int c = 0; c < cells.size() && c < layout.widths.size(); ++c) {
        const QRect cell(x + kPdfCellPadding, m_y, layout.widths[c] - 2 * kPdfCellPadding, height);
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

Status writeA4Pdf(const QString &path, const QString &title,
                  const std::function<void(PdfPages &)> &draw, PdfFacts *facts)
{
    // Laid out once to count the pages (upright, or on its side where an upright page cuts
    // a table's cells), then drawn with "page N of M".
    PdfFacts laidOut;
    QPageLayout::Orientation orientation = QPageLayout::Portrait;
    for (const auto tried : {QPageLayout::Portrait, QPageLayout::Landscape}) {
        QBuffer scratch;
        scratch.open(QIODevice::WriteOnly);
        QPdfWriter counting(&scratch);
        setUpA4(counting, title, tried);
        QPainter painter;
        if (!painter.begin(&counting))
            return Error{QObject::tr("%1: cannot lay out the PDF").arg(path).toStdString()};
        PdfPages pages(counting, painter, 0);
        draw(pages);
        laidOut = pages.finish();
        painter.end();
        orientation = tried;
        if (laidOut.elidedCells == 0)
            break;
    }
    QPdfWriter writer(path);
    setUpA4(writer, title, orientation);
    QPainter painter;
    if (!painter.begin(&writer))
        return Error{QObject::tr("%1: cannot write the PDF").arg(path).toStdString()};
    PdfPages pages(writer, painter, laidOut.pages);
    draw(pages);
    PdfFacts written = pages.finish();
    if (!painter.end())
        return Error{QObject::tr("%1: cannot write the PDF").arg(path).toStdString()};
    written.landscape = orientation == QPageLayout::Landscape;
    if (facts)
        *facts = written;
    return {};
}

}  // namespace meridian
