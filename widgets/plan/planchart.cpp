#include "planchart.h"

#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "widgets/chartpalette.h"

namespace meridian {

namespace {

// The chart's words keep the Plan view's translation context.
struct PlanChart {
    Q_DECLARE_TR_FUNCTIONS(PlanWindow)
};

// The round step (1, 2, 2.5 or 5 times a power of ten) nearest above `rough`.
double niceStep(double rough)
{
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * power >= rough - 1e-12)
            return m * power;
    }
    return 10 * power;
}

// Both axes cover every point drawn, with room round them: a rule far off the front is
// drawn, not cut at the edge. With nothing to draw (no plan) they keep their own range.
void fitAxes(QValueAxis &inside, QValueAxis &cost, const std::vector<PlanCandidate> &front,
             const std::vector<PlanRow> &rows)
{
    double left = 100, right = 0, low = 1e18, high = 0;
    const auto cover = [&](const MixOutcome &o) {
        left = std::min(left, o.withinObjectiveShare * 100);
        right = std::max(right, o.withinObjectiveShare * 100);
        low = std::min(low, monthlyCost(o, kMinutesAWeek));
        high = std::max(high, monthlyCost(o, kMinutesAWeek));
    };
    for (const PlanCandidate &c : front)
        cover(c.outcome);
    for (const PlanRow &row : rows) {
        if (row.marked)
            cover(row.outcome);
    }
    if (left > right)
        return;
    const double wide = right - left, tall = high - low;
    // Ticks at round shares (99.25, 99.50, …), never past 100%: a point there is drawn on
    // the edge, not beside a tick that reads 100.01.
    const double from = left - wide * 0.05 - 0.01, to = std::min(100.0, right + wide * 0.05);
    const double step = niceStep(std::max(0.01, to - from) / 5);
    const double first = std::floor(from / step) * step;
    const double last = std::min(100.0, std::ceil(to / step) * step);
    inside.setRange(first, last);
    inside.setTickCount(static_cast<int>(std::lround((last - first) / step)) + 1);
    inside.setLabelFormat(step >= 1     ? QStringLiteral("%.0f")
                          : step >= 0.1 ? QStringLiteral("%.1f")
                                        : QStringLiteral("%.2f"));
    cost.setRange(std::max(0.0, low - tall * 0.08), high + tall * 0.08);
    cost.applyNiceNumbers();
}

}  // namespace

QChart *makePlanChart(const std::vector<PlanCandidate> &front, const std::vector<PlanRow> &rows,
                      const QPalette &palette)
{
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignRight);
    auto *inside = new QValueAxis;
    inside->setTitleText(PlanChart::tr("Requests inside the objective (%)"));
    auto *cost = new QValueAxis;
    cost->setTitleText(PlanChart::tr("CNY a month"));
    cost->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(inside, Qt::AlignBottom);
    chart->addAxis(cost, Qt::AlignLeft);
    const auto add = [&](QXYSeries *series) {
        chart->addSeries(series);
        series->attachAxis(inside);
        series->attachAxis(cost);
    };
    if (!front.empty()) {
        auto *line = new QLineSeries;
        line->setName(PlanChart::tr("The front"));
        line->setPointsVisible(true);
        for (const PlanCandidate &c : front)
            line->append(c.outcome.withinObjectiveShare * 100,
                         monthlyCost(c.outcome, kMinutesAWeek));
        add(line);
    }
    for (const PlanRow &row : rows) {
        if (!row.marked)
            continue;
        auto *point = new QScatterSeries;
        point->setName(row.what);
        point->setMarkerSize(row.what == planPickName() ? 16 : 11);
        point->append(row.outcome.withinObjectiveShare * 100,
                      monthlyCost(row.outcome, kMinutesAWeek));
        add(point);
    }
    fitAxes(*inside, *cost, front, rows);
    applyPalette(chart, palette);
    return chart;
}

}  // namespace meridian
