// The per-data-center summary: figures, and merging snapshots without resets, under
// QAbstractItemModelTester in Fatal mode.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "fakefleet.h"
#include "models/datacentersummarymodel.h"

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
    EXPECT_EQ(model.index(1, DataCenterSummaryModel::StaleNodes).data().toString(),
              QStringLiteral("1 of 2"));
    EXPECT_EQ(model.index(0, DataCenterSummaryModel::Busy).data().toString(),
              QStringLiteral("50%"));
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
