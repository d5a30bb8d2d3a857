#include "historychart.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QEvent>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "timeticks.h"

namespace meridian {

HistoryChart::HistoryChart(const QString &title, const QString &unit, double maxValue,
                           QWidget *parent)
    : QWidget(parent), m_chart(new QChart), m_series(new QLineSeries), m_maxValue(maxValue)
{
    m_chart->addSeries(m_series);
    m_chart->legend()->hide();
    // The unit goes in the title: axis label formats are printf-style and mangle "°".
    m_chart->setTitle(unit.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, unit));
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setBackgroundRoundness(0);
    m_time = new QCategoryAxis;
    m_values = new QValueAxis;
    m_values->setRange(0, maxValue);
    m_values->setLabelFormat(QStringLiteral("%.0f"));
    m_values->setTickCount(3);
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_values, Qt::AlignLeft);
    m_series->attachAxis(m_time);
    m_series->attachAxis(m_values);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_emptyNote = new QLabel(m_view);
    m_emptyNote->setObjectName(QStringLiteral("emptyNote"));
    m_emptyNote->setWordWrap(true);
    m_emptyNote->setAlignment(Qt::AlignCenter);
    m_emptyNote->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_emptyNote->hide();
    setMinimumHeight(130);
    followPalette();
}

void HistoryChart::setEmptyNote(const QString &note)
{
    m_emptyText = note;
    m_emptyNote->setText(note);
    m_emptyNote->setVisible(!shownNote().isEmpty());
}

QString HistoryChart::shownNote() const
{
    return m_count == 0 ? m_emptyText : QString();
}

void HistoryChart::placeEmptyNote()
{
    // Over the plot, clear of the title and the axis labels.
    const QRectF plot = m_chart->plotArea();
    const QRect area = plot.isEmpty() ? m_view->rect().adjusted(8, 24, -8, -24)
                                      : plot.toRect().adjusted(4, 4, -4, -4);
    // On a patch of the chart's own background, so grid lines do not cross the words.
    const int width = std::max(40, area.width() - 16);
    const int height = std::min(area.height(), m_emptyNote->heightForWidth(width));
    m_emptyNote->setGeometry(
        QRect(0, 0, width, height).translated(area.center() - QPoint(width / 2, height / 2)));
}

void HistoryChart::followPalette()
{
    // Qt Charts has themes of its own; the console's palette (light or dark) wins.
    m_chart->setBackgroundBrush(palette().color(QPalette::Base));
    m_chart->setTitleBrush(palette().color(QPalette::Text));
    m_time->setLabelsBrush(palette().color(QPalette::Text));
    m_values->setLabelsBrush(palette().color(QPalette::Text));
    m_time->setGridLineColor(palette().color(QPalette::Mid));
    m_values->setGridLineColor(palette().color(QPalette::Mid));
    m_emptyNote->setStyleSheet(QStringLiteral("color: %1; background: %2; padding: 2px;")
                                   .arg(palette().color(QPalette::PlaceholderText).name(),
                                        palette().color(QPalette::Base).name()));
}

void HistoryChart::resizeEvent(QResizeEvent *event)
{
    // As many time labels as fit whole: a narrow chart gets two, not four cut to "05:…".
    const int label = fontMetrics().horizontalAdvance(QStringLiteral("00-00")) + 24;
    m_maxTicks = std::clamp(width() / label, 2, 8);
    setTimeTicks(*m_time, m_fromMs, m_toMs, m_maxTicks);
    QWidget::resizeEvent(event);
    placeEmptyNote();
}

void HistoryChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        followPalette();
    QWidget::changeEvent(event);
}

void HistoryChart::setWindowSeconds(int seconds)
{
    m_windowSeconds = seconds;
}

void HistoryChart::setPoints(const std::vector<HistoryPoint> &points, int64_t nowMs)
{
    QList<QPointF> list;
    list.reserve(static_cast<qsizetype>(points.size()));
    double highest = m_maxValue;
    for (const HistoryPoint &p : points) {
        if (std::isnan(p.value))
            continue;  // a gap in the line is honest; a zero would not be
        list.append(QPointF(static_cast<double>(p.timeUnixMs), p.value));
        highest = std::max(highest, static_cast<double>(p.value));
    }
    m_series->replace(list);
    m_count = static_cast<int>(list.size());
    // Ticks on whole hours and midnights (dates once the window spans days).
    m_toMs = points.empty() ? nowMs : points.back().timeUnixMs;
    m_fromMs = m_toMs - static_cast<qint64>(m_windowSeconds) * 1000;
    setTimeTicks(*m_time, m_fromMs, m_toMs, m_maxTicks);
    m_values->setRange(0, highest);
    m_emptyNote->setVisible(!shownNote().isEmpty());
    placeEmptyNote();
}

}  // namespace meridian
