// One metric of one card over the last 15 minutes (or a longer window a store keeps). Qt Charts is
// used here and in reportcharts only, so a later move away from it (deprecated from Qt 6.10) stays
// contained.
#pragma once

#include <QWidget>
#include <vector>

#include "models/fleetsnapshotsource.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QCategoryAxis;
class QLabel;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace meridian {

class HistoryChart final : public QWidget {
    Q_OBJECT
public:
    HistoryChart(const QString &title, const QString &unit, double maxValue,
                 QWidget *parent = nullptr);

    // One replace() per refresh; NaN points (no reading) break the line. The window ends
    // at the newest point, or at `nowMs` when there is none.
    void setPoints(const std::vector<HistoryPoint> &points, int64_t nowMs);
    int pointCount() const { return m_count; }
    // How far back the time axis reaches from the newest point (default 15 minutes).
    void setWindowSeconds(int seconds);
    // What an empty frame says over its plot: why there is nothing, since when there is.
    void setEmptyNote(const QString &note);
    // The note as shown now: empty while the chart has points.
    QString shownNote() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void followPalette();
    void placeEmptyNote();

    QChart *m_chart;
    QChartView *m_view;
    QLineSeries *m_series;
    QCategoryAxis *m_time;  // ticks on hours and midnights (timeticks.h)
    QValueAxis *m_values;
    QLabel *m_emptyNote;
    QString m_emptyText;
    double m_maxValue;
    int m_count = 0;
    int m_windowSeconds = 15 * 60;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 15 * 60 * 1000;
    int m_maxTicks = 4;
};

}  // namespace meridian
