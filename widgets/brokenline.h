// A line that breaks where its data does: a gap is drawn as a gap, never as zero. One
// series per run of points, a lone point shown as a dot, only the first run named in the
// legend. For every chart that has hours or days without data.
#pragma once

#include <QPen>
#include <QString>
#include <optional>
#include <utility>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
QT_END_NAMESPACE

namespace meridian {

// (x, y) in order; a missing y ends a run.
using LinePoints = std::vector<std::pair<double, std::optional<double>>>;

// Adds the line's runs to `chart`, on its axes `x` and `y` (already added to the chart).
// Returns how many runs it drew.
int addBrokenLine(QChart *chart, const LinePoints &points, const QString &name, const QPen &pen,
                  QAbstractAxis *x, QAbstractAxis *y);

}  // namespace meridian
