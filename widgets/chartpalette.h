// Qt Charts has themes of its own; the console's palette (light or dark) wins on every
// chart the console builds, on screen and in print.
#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
class QPalette;
QT_END_NAMESPACE

namespace meridian {

void applyPalette(QChart *chart, const QPalette &palette);

}  // namespace meridian
