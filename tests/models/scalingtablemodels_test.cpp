// The Scaling window's tables as models, under QAbstractItemModelTester in Fatal mode:
// every pass merges by key (a step keeps its row and a persistent index while its state
// moves), and the journal sorts by step number as a number through a proxy.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTranslator>

#include "models/alerts/alertroutesmodel.h"
#include "models/alerts/silencesmodel.h"
#include "models/cost/cloudspendmodel.h"
#include "models/scaling/scalingtablemodels.h"

using namespace meridian;

namespace {

JournalStep step(int64_t id, StepState state, int64_t updatedMs)
{
    JournalStep s;
    s.id = id;
    s.service = "chat";
    s.state = state;
    s.offerId = "a100x8";
    s.updatedUnixMs = updatedMs;
    s.createdUnixMs = 1'800'000'000'000 + id;
    s.cnyPerHour = 19.2;
    return s;
}

ServiceScalingView service(const std::string &name, int desired, double arrivals)
{
    ServiceScalingView s;
    s.service.name = name;
    s.desiredReplicas = desired;
    s.reason = ScalingReason::Up;
    s.history.push_back({1000, arrivals, 3, 4.2, std::nullopt, 1, 0, desired, 0.35});
    return s;
}

}  // namespace

TEST(ScalingJournalModel, AStepKeepsItsRowWhileItsStateMovesAndSortsAsANumber)
{
    ScalingJournalModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSteps({step(9, StepState::Leasing, 1), step(10, StepState::Planned, 1)});
    ASSERT_EQ(model.rowCount(), 2);
    const QPersistentModelIndex nine = model.index(0, ScalingJournalModel::State);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    model.setSteps({step(9, StepState::Serving, 2), step(10, StepState::Planned, 1),
                    step(11, StepState::Planned, 2)});
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(changed.count(), 1) << "only step 9 moved";
    ASSERT_TRUE(nine.isValid());
    EXPECT_EQ(nine.data().toString(), QStringLiteral("serving"));
    EXPECT_EQ(model.rowCount(), 3);

    // Newest on top: 11, 10, 9 — as text "9" would sort above "11".
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ScalingJournalModel::SortRole);
    proxy.sort(ScalingJournalModel::Step, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, ScalingJournalModel::Step).data().toString(), QStringLiteral("11"));
    EXPECT_EQ(proxy.index(2, ScalingJournalModel::Step).data().toString(), QStringLiteral("9"));

    model.setSteps({step(11, StepState::Planned, 2)});  // older steps aged out of the view
    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_FALSE(nine.isValid());
}

TEST(ScalingServicesModel, ServicesMergeByNameAndShowTheirLatestPoint)
{
    ScalingServicesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setServices({service("chat", 3, 7.24), service("code", 1, 0.5)});
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, ScalingServicesModel::Arrivals).data().toString(),
              QStringLiteral("7.2"));
    EXPECT_DOUBLE_EQ(model.index(0, ScalingServicesModel::Arrivals)
                         .data(ScalingServicesModel::SortRole)
                         .toDouble(),
                     7.24);
    EXPECT_EQ(model.index(0, ScalingServicesModel::Decision).data().toString(),
              scalingReasonText(ScalingReason::Up));
    // Both p95s: the queueing delay the objective is on, and the first token's.
    EXPECT_EQ(model.index(0, ScalingServicesModel::QueueDelayP95).data().toString(),
              QStringLiteral("0.35"));
    EXPECT_EQ(model.index(0, ScalingServicesModel::TtftP95).data().toString(),
              QStringLiteral("4.20"));
    EXPECT_EQ(model.headerData(ScalingServicesModel::QueueDelayP95, Qt::Horizontal, Qt::DisplayRole)
                  .toString(),
              QStringLiteral("Queue p95 s"));

    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    ServiceScalingView busier = service("code", 4, 12);
    busier.history.back().atMs = 2000;
    busier.history.back().queueDelayP95Seconds.reset();  // an engine that does not say
    model.setServices({busier});
    EXPECT_EQ(removed.count(), 1);
    EXPECT_EQ(model.index(0, ScalingServicesModel::QueueDelayP95).data().toString(),
              QStringLiteral("–"));
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.serviceAt(0)->service.name, "code");
    EXPECT_EQ(model.index(0, ScalingServicesModel::Desired).data().toInt(), 4);
    EXPECT_EQ(model.serviceAt(1), nullptr);
}

TEST(ScalingAuditModel, EntriesAppendAndSortByTime)
{
    ScalingAuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setEntries({{1000, "alice", "approved plan 7", "peak"}});
    model.setEntries({{1000, "alice", "approved plan 7", "peak"},
                      {2000, "meridian-scaled", "released lease l-1", "surplus"}});
    ASSERT_EQ(model.rowCount(), 2);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ScalingAuditModel::SortRole);
    proxy.sort(ScalingAuditModel::When, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, ScalingAuditModel::Who).data().toString(),
              QStringLiteral("meridian-scaled"));
}

// The models' words are their windows' and reach the shipped translation: a Chinese console
// shows Chinese columns and reasons, not the English that helpers once hid from lupdate.
TEST(TableModelWords, AreTranslatedWithTheirWindows)
{
    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    QCoreApplication::installTranslator(&chinese);
    ScalingServicesModel services;
    services.setServices({service("chat", 3, 7.24)});
    const auto header = [](const QAbstractItemModel &model, int column) {
        return model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    };
    EXPECT_EQ(header(services, ScalingServicesModel::QueueDelayP95),
              QStringLiteral("排队 p95（秒）"));
    EXPECT_EQ(services.index(0, ScalingServicesModel::Decision).data().toString(),
              QStringLiteral("需求超出现有副本的服务能力"));
    EXPECT_EQ(header(ScalingAuditModel(), ScalingAuditModel::Why), QStringLiteral("原因"));
    EXPECT_EQ(header(CloudSpendModel(), CloudSpendModel::Lease), QStringLiteral("云租约"));
    EXPECT_EQ(header(AlertRoutesModel(), AlertRoutesModel::Route), QStringLiteral("路由"));
    EXPECT_EQ(header(SilencesModel(), SilencesModel::Until), QStringLiteral("截止"));
    QCoreApplication::removeTranslator(&chinese);
}
