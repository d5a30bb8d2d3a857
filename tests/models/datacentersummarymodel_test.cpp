// The per-data-center summary: figures, and merging snapshots without resets, under
// QAbstractItemModelTester in Fatal mode.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "fakefleet.h"
#include "models/fleet/datacentersummarymodel.h"

using namespace meridian;

TEST(DataCenterSummaryModel, FiguresPerDataCenter)
{
    FleetState state;
    test::fillFleet(state,
                    {{"xiamen", "xm-1", "r1", Vendor::Nvidia, 8, 80},
                     {"xiamen", "xm-2", "r1", Vendor::Huawei, 8, 2},  // paid but idle
                     {"wuhu", "wh-1", "r1", Vendor::Nvidia, 8, 50},
                     {"wuhu", "wh-2", "r2", Vendor::Nvidia, 8, 50, false}},
                    10'000);
    DataCenterSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(state.snapshot(10'500));
    ASSERT_EQ(model.rowCount(), 2);
    const auto sortValue = [&](int row, int column) {
        return model.index(row, column).data(DataCenterSummaryModel::SortRole);
    };
    EXPECT_EQ(model.index(0, DataCenterSummaryModel::Name).data().toString(),
              QStringLiteral("Xiamen"));
    EXPECT_EQ(sortValue(0, DataCenterSummaryModel::Cards).toInt(), 16);
    EXPECT_DOUBLE_EQ(sortValue(0, DataCenterSummaryModel::Busy).toDouble(), 50.0);
    EXPECT_DOUBLE_EQ(sortValue(0, DataCenterSummaryModel::MeanUtilization).toDouble(), 41.0);
    EXPECT_DOUBLE_EQ(sortValue(0, DataCenterSummaryModel::Domestic).toDouble(), 50.0);
    EXPECT_EQ(model.index(1, DataCenterSummaryModel::LiveNodes).data().toString(),
              QStringLiteral("1 of 2"));
    EXPECT_EQ(sortValue(1, DataCenterSummaryModel::UnreachableNodes).toInt(), 1);
    EXPECT_EQ(sortValue(1, DataCenterSummaryModel::StaleNodes).toInt(), 0);
    EXPECT_EQ(model.index(0, DataCenterSummaryModel::LiveNodes).data().toString(),
              QStringLiteral("2 of 2"));
    EXPECT_EQ(model.index(0, DataCenterSummaryModel::Busy).data().toString(),
              QStringLiteral("50%"));
}

TEST(DataCenterSummaryModel, StaleAndUnreachableAgentsAreCountedApart)
{
    FleetState state;
    test::fillFleet(state,
                    {{"xiamen", "xm-1", "r1"}, {"xiamen", "xm-2", "r1"}, {"xiamen", "xm-3", "r1"}},
                    10'000);
    state.setConnection(2, ConnectionState::Unreachable, "connection refused");
    state.addNode("127.0.0.1:1", "xiamen");  // not answered yet
    DataCenterSummaryModel model;
    model.setSnapshot(state.snapshot(10'500));
    // An agent that has not answered yet is being connected to: neither stale nor down.
    EXPECT_EQ(model.index(0, DataCenterSummaryModel::LiveNodes).data().toString(),
              QStringLiteral("2 of 4, 1 connecting"));
    const auto sortValue = [&](int column) {
        return model.index(0, column).data(DataCenterSummaryModel::SortRole).toInt();
    };
    EXPECT_EQ(sortValue(DataCenterSummaryModel::LiveNodes), 2);
    EXPECT_EQ(sortValue(DataCenterSummaryModel::StaleNodes), 0);
    EXPECT_EQ(sortValue(DataCenterSummaryModel::UnreachableNodes), 1);
    model.setSnapshot(state.snapshot(60'000));  // the two that answered went silent
    EXPECT_EQ(sortValue(DataCenterSummaryModel::LiveNodes), 0);
    EXPECT_EQ(sortValue(DataCenterSummaryModel::StaleNodes), 2);
    EXPECT_EQ(sortValue(DataCenterSummaryModel::UnreachableNodes), 1);
}

TEST(DataCenterSummaryModel, HeadersDefineTheirFigures)
{
    DataCenterSummaryModel model;
    for (int column : {DataCenterSummaryModel::Busy, DataCenterSummaryModel::Domestic}) {
        const QString tip = model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
        EXPECT_FALSE(tip.isEmpty()) << column;
    }
    EXPECT_TRUE(model.headerData(DataCenterSummaryModel::Busy, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("5%")));
}

TEST(DataCenterSummaryModel, SnapshotsMergeByNameWithoutReset)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}}, 10'000);
    DataCenterSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    model.setSnapshot(state.snapshot(10'100));
    EXPECT_EQ(inserts.count(), 1);
    model.setSnapshot(state.snapshot(10'200));
    EXPECT_EQ(changes.count(), 0);              // nothing changed, nothing emitted
    model.setSnapshot(state.snapshot(20'000));  // the node went stale
    EXPECT_EQ(changes.count(), 1);
    test::fillFleet(state, {{"zhongwei", "zw-1", "r1"}}, 20'000);
    model.setSnapshot(state.snapshot(20'100));
    EXPECT_EQ(inserts.count(), 2);
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_EQ(resets.count(), 0);
}
