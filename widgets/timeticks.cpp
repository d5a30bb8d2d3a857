#include "timeticks.h"

#include <QCategoryAxis>
#include <QDateTime>
#include <QStringList>
#include <algorithm>

namespace meridian {

namespace {

constexpr qint64 kStepsS[] = {60,        2 * 60, 5 * 60,    10 * 60,  15 * 60,
                              30 * 60,   3600,   2 * 3600,  3 * 3600, 6 * 3600,
                              12 * 3600, 86400,  2 * 86400, 7 * 86400};

}  // namespace

std::vector<TimeTick> timeTicks(qint64 fromMs, qint64 toMs, int maxTicks)
{
    std::vector<TimeTick> ticks;
    if (toMs <= fromMs || maxTicks < 1)
        return ticks;
    const qint64 spanS = (toMs - fromMs) / 1000;
    qint64 step = kStepsS[std::size(kStepsS) - 1];
    for (qint64 candidate : kStepsS) {
        if (spanS / candidate + 1 <= maxTicks) {
            step = candidate;
            break;
        }
    }
    const bool days = spanS > 86400;
    // From the local midnight before the range, in whole steps (days count whole days,
    // so a daylight-saving day still ticks at its midnight).
    QDateTime at(QDateTime::fromMSecsSinceEpoch(fromMs).date().startOfDay());
    while (at.toMSecsSinceEpoch() <= toMs) {
        const qint64 ms = at.toMSecsSinceEpoch();
        if (ms >= fromMs) {
            const bool midnight = at.time() == QTime(0, 0);
            ticks.push_back({ms, days && midnight ? at.toString(QStringLiteral("MM-dd"))
                                                  : at.toString(QStringLiteral("HH:mm"))});
        }
        at = step >= 86400 ? at.addDays(step / 86400) : at.addSecs(step);
    }
    return ticks;
}

void setTimeTicks(QCategoryAxis &axis, qint64 fromMs, qint64 toMs, int maxTicks)
{
    for (const QString &label : axis.categoriesLabels())
        axis.remove(label);
    axis.setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    // A category ends where its label stands and must be wider than nothing.
    axis.setStartValue(static_cast<qreal>(fromMs - 1));
    axis.setRange(static_cast<qreal>(fromMs), static_cast<qreal>(toMs));
    QStringList used;
    for (const TimeTick &tick : timeTicks(fromMs, toMs, maxTicks)) {
        // Labels name categories, so each must be unique: a second "12:00" of a two-day
        // range gets an invisible zero-width space.
        QString label = tick.label;
        while (used.contains(label))
            label += QChar(0x200B);
        used << label;
        axis.append(label, static_cast<qreal>(tick.unixMs));
    }
}

}  // namespace meridian
