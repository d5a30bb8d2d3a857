#include "chartpalette.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QPalette>

namespace meridian {

void applyPalette(QChart *chart, const QPalette &palette)
{
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsBrush(palette.color(QPalette::Text));
        axis->setTitleBrush(palette.color(QPalette::Text));
        axis->setGridLineColor(palette.color(QPalette::Mid));
    }
}

}  // namespace meridian
