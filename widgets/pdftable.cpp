#include "pdftable.h"

#include <QFontMetrics>
#include <QRegularExpression>
#include <algorithm>
#include <numeric>

namespace meridian {

namespace {

constexpr qreal kLargestPoints = 8;
constexpr qreal kSmallestPoints = 6;

QFont sized(QFont font, qreal points, bool bold)
{
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

struct Needs {
    QList<int> least;  // the widest cell or header word: below this something is cut
    QList<int> whole;  // the header on one line as well
};

QFontMetrics metricsOf(const QFont &font, const QPaintDevice *device)
{
    return device ? QFontMetrics(font, device) : QFontMetrics(font);
}

Needs measure(const QFont &font, const QStringList &header, const QList<QStringList> &rows,
              int boldLastRows, qreal points, const QPaintDevice *device)
{
    const QFontMetrics plain = metricsOf(sized(font, points, false), device);
    const QFontMetrics bold = metricsOf(sized(font, points, true), device);
    const int pad = 2 * kPdfCellPadding;
    Needs needs;
    for (int c = 0; c < header.size(); ++c) {
        int least = 0;
        // A header breaks between words (and after a slash or hyphen, as Qt wraps).
        for (const QString &word :
             header[c].split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
            least = std::max(least, bold.horizontalAdvance(word) + pad);
        for (int r = 0; r < rows.size(); ++r) {
            if (c >= rows[r].size())
                continue;
            const QFontMetrics &metrics = r >= rows.size() - boldLastRows ? bold : plain;
            least = std::max(least, metrics.horizontalAdvance(rows[r][c]) + pad);
        }
        needs.least << least;
        needs.whole << std::max(least, bold.horizontalAdvance(header[c]) + pad);
    }
    return needs;
}

}  // namespace

PdfTableLayout layoutPdfTable(const QFont &font, const QStringList &header,
                              const QList<QStringList> &rows, int boldLastRows, int width,
                              const QPaintDevice *device)
{
    PdfTableLayout layout;
    Needs needs;
    for (qreal points = kLargestPoints; points >= kSmallestPoints; points -= 0.5) {
        layout.pointSize = points;
        needs = measure(font, header, rows, boldLastRows, points, device);
        if (std::accumulate(needs.least.begin(), needs.least.end(), 0) <= width)
            break;
    }
    layout.widths = needs.least;
    int spare = width - std::accumulate(layout.widths.begin(), layout.widths.end(), 0);
    if (spare < 0) {
        // Even the smallest type is too wide: the first column (names) gives way.
        layout.elided = true;
        if (!layout.widths.isEmpty())
            layout.widths[0] = std::max(2 * kPdfCellPadding + 8, layout.widths[0] + spare);
        return layout;
    }
    // Headers that would wrap get their whole width, the closest to fitting first.
    QList<int> order(header.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return needs.whole[a] - needs.least[a] < needs.whole[b] - needs.least[b];
    });
    for (int c : order) {
        const int more = needs.whole[c] - layout.widths[c];
        if (more > 0 && more <= spare) {
            layout.widths[c] += more;
            spare -= more;
        }
    }
    // What is left, shared out evenly so the figures stand apart.
    for (int c = 0; c < layout.widths.size() && spare > 0; ++c) {
        const int share = spare / static_cast<int>(layout.widths.size() - c);
        layout.widths[c] += share;
        spare -= share;
    }
    return layout;
}

}  // namespace meridian
