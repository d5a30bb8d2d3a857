// The alert list model under QAbstractItemModelTester, and the triage flow through
// AlertCenter: events become rows, acknowledging changes the state, no resets.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "fakefleet.h"
#include "models/alertcenter.h"
#include "models/alertsmodel.h"

using namespace meridian;

TEST(AlertsModel, TriageFlowWithoutResets)
{
    FleetState state;
    test::fillFleet(state,
                    {{"xiamen", "xm-1", "r1"},
                     {"xiamen", "xm-2", "r1"},
                     {"xiamen", "xm-3", "r1"},
                     {"wuhu", "wh-1", "r1", Vendor::Nvidia, 8, 50, false}},
                    10'000);
    AlertCenter center(state);
    AlertsModel *model = center.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);

    center.update(state.snapshot(10'100));
    ASSERT_EQ(model->rowCount(), 1);  // wuhu's only agent is unreachable
    EXPECT_EQ(model->index(0, AlertsModel::What).data().toString(),
              QStringLiteral("agent unreachable"));
    EXPECT_EQ(model->index(0, AlertsModel::State).data().toString(), QStringLiteral("open"));

    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 4;
    xid.timeUnixMs = 10'200;
    xid.message = "card 4: Xid 79";
    state.recordEvent(0, xid);
    state.recordEvent(0, xid);
    center.update(state.snapshot(10'300));
    ASSERT_EQ(model->rowCount(), 2);
    int xidRow = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->alertAt(r)->kind == AlertKind::Xid)
            xidRow = r;
    }
    ASSERT_GE(xidRow, 0);
    EXPECT_EQ(model->index(xidRow, AlertsModel::Count).data().toString(), QStringLiteral("2"));
    EXPECT_EQ(model->index(xidRow, AlertsModel::Where).data().toString(),
              QStringLiteral("xm-1 card 4"));
    EXPECT_EQ(center.openCount(QStringLiteral("xiamen")), 1);

    center.acknowledge(model->index(xidRow, 0).data(AlertsModel::KeyRole).toString());
    EXPECT_TRUE(model->index(xidRow, AlertsModel::State)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("acknowledged")));
    EXPECT_EQ(center.openCount(QStringLiteral("xiamen")), 0);
    center.setNote(model->index(xidRow, 0).data(AlertsModel::KeyRole).toString(),
                   QStringLiteral("RMA filed"));
    EXPECT_EQ(model->index(xidRow, AlertsModel::Note).data().toString(),
              QStringLiteral("RMA filed"));
    EXPECT_EQ(resets.count(), 0);
}
