// Time axes tick on whole hours and midnights: a 24-hour chart ending at 10:09 used to be
// labelled 10:09, 16:19, 22:29; a 7-day one every 1.75 days with dates only.
#include <gtest/gtest.h>

#include <QCategoryAxis>
#include <QDateTime>

#include "widgets/timeticks.h"

using namespace meridian;

namespace {

qint64 localMs(int year, int month, int day, int hour, int minute)
{
    return QDateTime(QDate(year, month, day), QTime(hour, minute)).toMSecsSinceEpoch();
}

}  // namespace

TEST(TimeTicks, ADayEndingAtAnOddMinuteTicksOnWholeHours)
{
    const qint64 to = localMs(2026, 12, 6, 10, 9);
    const auto ticks = timeTicks(to - 24 * 3600'000LL, to, 5);
    ASSERT_GE(ticks.size(), 3u);
    ASSERT_LE(ticks.size(), 5u);
    for (const TimeTick &tick : ticks) {
        const QTime time = QDateTime::fromMSecsSinceEpoch(tick.unixMs).time();
        EXPECT_EQ(time.minute(), 0) << tick.label.toStdString();
        EXPECT_EQ(time.hour() % 6, 0) << tick.label.toStdString();
        EXPECT_GE(tick.unixMs, to - 24 * 3600'000LL);
        EXPECT_LE(tick.unixMs, to);
    }
    // The midnight inside a day's range is named by its date.
    const auto midnight = std::find_if(ticks.begin(), ticks.end(), [](const TimeTick &t) {
        return t.label == QStringLiteral("00:00");
    });
    EXPECT_NE(midnight, ticks.end());
}

TEST(TimeTicks, SevenDaysTickAtMidnightsNamedByTheirDates)
{
    const qint64 to = localMs(2026, 12, 6, 10, 9);
    const auto ticks = timeTicks(to - 7 * 86400'000LL, to, 8);
    ASSERT_EQ(ticks.size(), 7u);
    for (const TimeTick &tick : ticks)
        EXPECT_EQ(QDateTime::fromMSecsSinceEpoch(tick.unixMs).time(), QTime(0, 0));
    EXPECT_EQ(ticks.front().label, QStringLiteral("11-30"));
    EXPECT_EQ(ticks.back().label, QStringLiteral("12-06"));
    // Fewer allowed: every other midnight, still midnights.
    const auto sparse = timeTicks(to - 7 * 86400'000LL, to, 4);
    ASSERT_LE(sparse.size(), 4u);
    for (const TimeTick &tick : sparse)
        EXPECT_EQ(QDateTime::fromMSecsSinceEpoch(tick.unixMs).time(), QTime(0, 0));
}

TEST(TimeTicks, QuarterHoursForFifteenMinutesAndAnAxisThatTakesRepeatedLabels)
{
    const qint64 to = localMs(2026, 12, 6, 10, 9);
    const auto ticks = timeTicks(to - 15 * 60'000LL, to, 4);
    ASSERT_FALSE(ticks.empty());
    for (const TimeTick &tick : ticks)
        EXPECT_EQ(QDateTime::fromMSecsSinceEpoch(tick.unixMs).time().minute() % 5, 0);
    EXPECT_GE(ticks.size(), 3u) << "a quarter hour with one label";

    // Two days at 12 hours: "12:00" twice; the axis keeps both.
    QCategoryAxis axis;
    const qint64 from = localMs(2026, 12, 4, 0, 0);
    setTimeTicks(axis, from, from + 2 * 86400'000LL, 5);
    EXPECT_EQ(axis.count(), 5);
    EXPECT_EQ(axis.min(), static_cast<qreal>(from));
}
