// Fleet utilisation over a day or a week from a real history file: a line for the fleet
// and each data center, broken where hours have no data, and the period's figures.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QSignalSpy>

#include "core/clock.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"
#include "widgets/fleet/fleetusagewindow.h"

using namespace meridian;
using test::kJuly1;

TEST(FleetUsageWindow, TheFleetAndEachDataCenterHourByHourWithGapsSaid)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    // Xiamen busy 45 s a minute from 00:00 to 04:00 and again from 10:00 to 12:00;
    // Wuhu 30 s a minute from 00:00 to 12:00.
    ASSERT_TRUE(
        test::writeUsageHistory(
            file, {test::a100Minutes("xm-1", "xiamen", 4, kJuly1, 4 * 60, 45, 12'000),
                   test::a100Minutes("xm-1", "xiamen", 4, kJuly1 + 10 * 3600, 2 * 60, 45, 12'000),
                   test::a100Minutes("wh-1", "wuhu", 2, kJuly1, 12 * 60, 30, 12'000)})
            .ok());
    ManualClock clock((kJuly1 + 12 * 3600) * 1000);
    FleetUsageWindow window(QString::fromStdString(file), clock);
    QSignalSpy shown(&window, &FleetUsageWindow::shown);
    ASSERT_TRUE(shown.wait(5000));
    const QString summary = window.summary();
    EXPECT_TRUE(summary.contains(QStringLiteral("Xiamen 75.0%"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("Wuhu 50.0%"))) << summary.toStdString();
    // The last 24 hours reach back into June 30: twelve hours without any data.
    EXPECT_TRUE(summary.contains(QStringLiteral("Hours without data: 12")))
        << summary.toStdString();
    std::map<QString, int> points;
    for (const auto &[name, count] : window.lines())
        points[name] = count;
    EXPECT_EQ(points[QStringLiteral("Wuhu")], 12);
    EXPECT_EQ(points[QStringLiteral("Xiamen")], 6) << "Xiamen's silent hours are a gap";
    // Over Xiamen's hole the fleet's figure is Wuhu's alone: dotted, and said.
    EXPECT_EQ(points[QStringLiteral("Fleet")], 6);
    EXPECT_EQ(points[QStringLiteral("Fleet, a data center without data")], 6);
    EXPECT_TRUE(
        summary.contains(QStringLiteral("dotted where a data center had no data: "
                                        "Xiamen 6 h")))
        << summary.toStdString();

    window.setRangeSeconds(7 * 86400);
    ASSERT_TRUE(shown.wait(5000));
    EXPECT_TRUE(window.summary().contains(QStringLiteral("Hours without data: 156")))
        << window.summary().toStdString();
    EXPECT_EQ(window.findChild<QComboBox *>()->currentData().toInt(), 7 * 86400);

    // No history file: said, not a blank chart.
    FleetUsageWindow missing(QString::fromStdString(dir.file("none.db")), clock);
    QSignalSpy missingShown(&missing, &FleetUsageWindow::shown);
    ASSERT_TRUE(missingShown.wait(5000));
    EXPECT_TRUE(missing.summary().contains(QStringLiteral("no history yet")))
        << missing.summary().toStdString();
}
