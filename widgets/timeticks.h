// Time axes people can read: ticks on whole hours and on midnights (local time), never at
// the even fifths of a range (10:09, 16:19, 22:29) that Qt's QDateTimeAxis gives, and a
// date at each midnight once a range spans days. Qt Charts' QCategoryAxis carries them.
#pragma once

#include <QString>
#include <vector>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
QT_END_NAMESPACE

namespace meridian {

struct TimeTick {
    qint64 unixMs = 0;
    QString label;  // "06:00"; "12-03" at a midnight when the range spans days
};

// The ticks within [fromMs, toMs]: the shortest step of 1, 2, 5, 10, 15 and 30 minutes,
// 1, 2, 3, 6 and 12 hours, 1, 2 and 7 days that gives at most `maxTicks`, each on a
// multiple of its step from local midnight.
std::vector<TimeTick> timeTicks(qint64 fromMs, qint64 toMs, int maxTicks);

// Sets `axis` to the range with those ticks as its labels (on their values).
void setTimeTicks(QCategoryAxis &axis, qint64 fromMs, qint64 toMs, int maxTicks);

}  // namespace meridian
