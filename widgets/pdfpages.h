// A PDF a manager can forward, page by page: text that wraps, tables as wide as the page
// whose header row heads every page they run onto (columns sized by pdftable), charts,
// and "page N of M" at each foot. writeA4Pdf lays a document out once to count its pages
// (upright, or on its side where an upright page would cut a table's cell), then draws
// it. Shared by the reports and the plan.
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

#include "core/result.h"

class QChart;
class QPainter;
class QPdfWriter;

namespace meridian {

struct PdfTableLayout;

// What a PDF came to, for whoever checks it: its pages, whether they lie on their side for
// a table's columns, how many pages its tables ran over and how many header rows were set
// (one a page a table is on), and cells cut short.
struct PdfFacts {
    int pages = 0;
    bool landscape = false;
    int tablePages = 0;
    int tableHeaders = 0;
    int elidedCells = 0;
};

class PdfPages {
public:
    // `totalPages`: how many there will be, for "page 2 of 3" (0: not known yet).
    PdfPages(QPdfWriter &writer, QPainter &painter, int totalPages);

    int width() const { return m_width; }
    void advance(int by) { m_y += by; }
    // Starts a new page unless `height` still fits on this one; whether it did.
    bool need(int height);
    void text(const QString &line, int pointSize, bool bold = false,
              const QColor &color = Qt::black);
    // `boldLastRows`: the totals at its end, set bold under a rule.
    void table(const QStringList &header, const QList<QStringList> &rows, int boldLastRows);
    // Draws `chart` (taken) `height` high across the page.
    void chart(QChart *chart, int height);
    // Ends the last page; what the document came to.
    const PdfFacts &finish();

private:
    void footer();
    void setTableFont(qreal pointSize, bool bold);
    void drawTableRow(const PdfTableLayout &layout, const QStringList &cells, bool bold,
                      bool isHeader, int height);

    QPdfWriter &m_writer;
    QPainter &m_painter;
    int m_totalPages = 0;
    int m_page = 1;
    PdfFacts m_facts;
    int m_width = 0;
    int m_bottom = 0;
    int m_y = 0;
};

// Writes `path` as an A4 document titled `title`, drawn by `draw` (called twice: to count
// the pages, then with their number). `facts`: what it came to, where asked.
Status writeA4Pdf(const QString &path, const QString &title,
                  const std::function<void(PdfPages &)> &draw, PdfFacts *facts = nullptr);

}  // namespace meridian
