#include "brokenline.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace meridian {

int addBrokenLine(QChart *chart, const LinePoints &points, const QString &name, const QPen &pen,
                  QAbstractAxis *x, QAbstractAxis *y)
{
    int runs = 0;
    QLineSeries *run = nullptr;
    for (const auto &[at, value] : points) {
        if (!value) {
            run = nullptr;
            continue;
        }
        if (!run) {
            run = new QLineSeries;
            run->setPen(pen);
            run->setPointsVisible(true);  // a run of one is a point
            run->setName(runs == 0 ? name : QString());
            chart->addSeries(run);
            run->attachAxis(x);
            run->attachAxis(y);
            if (runs > 0) {
                for (QLegendMarker *marker : chart->legend()->markers(run))
                    marker->setVisible(false);
            }
            ++runs;
        }
        run->append(at, *value);
    }
    return runs;
}

}  // namespace meridian
