// How a table fits an A4 page's width: each column as wide as its widest cell and its
// header's longest word (a header wraps onto a second line before anything is cut), the
// room left over given first to headers that would otherwise wrap, and a smaller type
// before any cell is elided. Pure layout, so the fit is tested in both languages.
#pragma once

#include <QFont>
#include <QList>
#include <QStringList>

class QPaintDevice;

namespace meridian {

struct PdfTableLayout {
    QList<int> widths;    // one per column, summing to the width given
    qreal pointSize = 8;  // the type the table is set in
    bool elided = false;  // even at the smallest type some cell is cut
};

// `boldLastRows`: the total rows, set bold (and so measured bold). `device`: the page,
// whose resolution the type is measured at (null: the screen's).
PdfTableLayout layoutPdfTable(const QFont &font, const QStringList &header,
                              const QList<QStringList> &rows, int boldLastRows, int width,
                              const QPaintDevice *device = nullptr);

// Padding either side of a cell's text.
constexpr int kPdfCellPadding = 4;

}  // namespace meridian
