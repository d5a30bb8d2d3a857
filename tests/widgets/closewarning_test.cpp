// Closing the main window while something would be left undone: the warning is shown
// and Cancel keeps the window; Close closes it; with nothing to warn about it closes at
// once, with no question.
#include <gtest/gtest.h>

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

#include "core/clock.h"
#include "fakefleet.h"
#include "models/fleetsnapshotsource.h"
#include "widgets/shell/mainwindow.h"

using namespace meridian;

TEST(CloseWarning, RentedCardsAreConfirmedBeforeTheConsoleCloses)
{
    FleetState state;
    test::fillFleet(state, test::threeDataCenters(4, 2), SystemClock::instance().nowUnixMs());
    FleetSnapshotSource source(state, SystemClock::instance(), 100000);
    MainWindow window(source);
    window.show();
    int asked = 0;
    window.setCloseWarning([&asked] {
        ++asked;
        return QStringLiteral("The autoscaler in this console holds 16 rented cards.");
    });

    QString seen;
    QTimer::singleShot(50, [&seen] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            seen = box->text();
            box->button(QMessageBox::Cancel)->click();
        }
    });
    EXPECT_FALSE(window.close()) << "Cancel keeps the console open";
    EXPECT_TRUE(window.isVisible());
    EXPECT_EQ(seen, QStringLiteral("The autoscaler in this console holds 16 rented cards."));

    QTimer::singleShot(50, [] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
            box->button(QMessageBox::Close)->click();
    });
    EXPECT_TRUE(window.close());
    EXPECT_FALSE(window.isVisible());
    EXPECT_EQ(asked, 2);

    // Nothing held: no question at all.
    window.show();
    window.setCloseWarning([] { return QString(); });
    EXPECT_TRUE(window.close());
}
