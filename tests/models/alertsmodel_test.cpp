// The alert list model under QAbstractItemModelTester, and the triage flow through
// AlertCenter: events become rows, acknowledging changes the state, no resets.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDateTime>
#include <QSignalSpy>
#include <QTextDocument>

#include "alerts/alerttriagelog.h"
#include "fakefleet.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertsmodel.h"
#include "models/alerts/silencesmodel.h"
#include "testsupport.h"

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
    AlertsModel following(center);
    AlertsModel *model = &following;
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);

    center.update(state.snapshot(10'100));
    ASSERT_EQ(model->rowCount(), 1);  // wuhu's only agent is unreachable
    EXPECT_EQ(model->index(0, AlertsModel::What).data().toString(),
              QStringLiteral("Agent unreachable"));
    EXPECT_TRUE(model->index(0, AlertsModel::NextStep)
                    .data()
                    .toString()
                    .contains(QStringLiteral("meridian-agent")));
    EXPECT_EQ(model->index(0, AlertsModel::State).data().toString(), QStringLiteral("open"));

    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 4;
    xid.timeUnixMs = 10'200;
    xid.xid = 79;
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
    // Which Xid, what it means and what to do, in the row itself.
    EXPECT_EQ(model->index(xidRow, AlertsModel::What).data().toString(),
              QStringLiteral("GPU fell off the bus (Xid 79)"));
    EXPECT_EQ(model->index(xidRow, AlertsModel::NextStep).data().toString(),
              QStringLiteral("Drain the node, reset; replace the card if it recurs"));
    EXPECT_TRUE(model->index(xidRow, AlertsModel::What)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("card 4: Xid 79")));
    EXPECT_EQ(model->index(xidRow, AlertsModel::Since).data().toString(), QStringLiteral("0 s"));
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

TEST(AlertsModel, DurationsAndTimesReadAsPeopleSayThem)
{
    EXPECT_EQ(AlertsModel::durationText(45'000), QStringLiteral("45 s"));
    EXPECT_EQ(AlertsModel::durationText(12 * 60'000 + 5'000), QStringLiteral("12 min"));
    EXPECT_EQ(AlertsModel::durationText(3 * 3600'000 + 5 * 60'000), QStringLiteral("3 h 5 min"));
    EXPECT_EQ(AlertsModel::durationText(2 * 86400'000LL + 4 * 3600'000), QStringLiteral("2 d 4 h"));
    // The zone is part of every time shown.
    const QString shown = AlertsModel::timeText(1'700'000'000'000);
    const QString zone = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000).timeZoneAbbreviation();
    EXPECT_TRUE(shown.endsWith(zone)) << shown.toStdString();
}

namespace {

Event xidEventOnCard(uint32_t card, int64_t atMs)
{
    Event e;
    e.kind = EventKind::Xid;
    e.cardIndex = card;
    e.xid = 48;
    e.timeUnixMs = atMs;
    e.message = "Xid 48";
    return e;
}

}  // namespace

TEST(AlertCenter, TwoConsolesOnOneHistoryFileShareOneTriage)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    // Two consoles watching the same fleet, each with its own connection to the file.
    FleetState dayState;
    FleetState nightState;
    for (FleetState *s : {&dayState, &nightState})
        test::fillFleet(*s, {{"xiamen", "xm-1", "r1"}, {"xiamen", "xm-2", "r1"}}, 10'000);
    AlertCenter day(dayState);
    AlertCenter night(nightState);
    day.setUser(QStringLiteral("zhang.min"));
    night.setUser(QStringLiteral("li.wei"));
    for (AlertCenter *c : {&day, &night}) {
        auto log = AlertTriageLog::open(file);
        ASSERT_TRUE(log) << log.error().message;
        c->setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
    }
    for (FleetState *s : {&dayState, &nightState}) {
        s->recordEvent(0, xidEventOnCard(3, 10'100));
        s->recordEvent(1, xidEventOnCard(5, 10'100));
    }
    day.update(dayState.snapshot(10'200));
    night.update(nightState.snapshot(10'200));
    const QString first = QStringLiteral("xid/xm-1/xm-1-card-3");
    ASSERT_NE(night.view().find(first.toStdString()), nullptr);

    day.acknowledge(first);
    day.setNote(first, QStringLiteral("RMA 4471 filed"));
    SilenceRule wholeNode;
    wholeNode.node = "xm-2";
    wholeNode.untilMs = 10'200 + 3600'000;
    wholeNode.reason = "reseating cards";
    day.silence(wholeNode);
    day.waitForTriage();
    night.waitForTriage();

    const Alert *acked = night.view().find(first.toStdString());
    ASSERT_TRUE(acked->acknowledgedMs.has_value());
    EXPECT_EQ(acked->acknowledgedBy, "zhang.min");
    EXPECT_EQ(acked->note, "RMA 4471 filed");
    const Alert *quiet = night.view().find("xid/xm-2/xm-2-card-5");
    ASSERT_NE(quiet, nullptr);
    EXPECT_TRUE(quiet->silenced(20'000));
    EXPECT_EQ(quiet->silencedBy, "zhang.min");
    EXPECT_EQ(night.openCount(QStringLiteral("xiamen")), 0);
    ASSERT_EQ(night.silences().size(), 1u);

    // The night shift lifts the silence; the day console sees it lifted.
    night.liftSilence(night.silences().front().id);
    night.waitForTriage();
    day.waitForTriage();
    EXPECT_FALSE(day.view().find("xid/xm-2/xm-2-card-5")->silenced(20'000));
    EXPECT_TRUE(day.silences().empty());

    // A console that starts later reads the triage from the file alone.
    FleetState laterState;
    test::fillFleet(laterState, {{"xiamen", "xm-1", "r1"}}, 10'000);
    laterState.recordEvent(0, xidEventOnCard(3, 10'100));
    AlertCenter later(laterState);
    later.update(laterState.snapshot(10'300));
    auto log = AlertTriageLog::open(file);
    ASSERT_TRUE(log);
    later.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
    later.waitForTriage();
    EXPECT_EQ(later.view().find(first.toStdString())->acknowledgedBy, "zhang.min");

    // And the file's audit log says who did what, and why.
    SQLite::Database db(file, SQLite::OPEN_READONLY);
    SQLite::Statement audit(db, "SELECT who, what, why FROM audit_log ORDER BY id");
    std::vector<std::string> rows;
    while (audit.executeStep())
        rows.push_back(audit.getColumn(0).getString() + " | " + audit.getColumn(1).getString() +
                       " | " + audit.getColumn(2).getString());
    EXPECT_EQ(rows, (std::vector<std::string>{
                        "zhang.min | acknowledged alert xid/xm-1/xm-1-card-3 | ",
                        "zhang.min | noted alert xid/xm-1/xm-1-card-3 | RMA 4471 filed",
                        "zhang.min | silenced on xm-2 (silence 1) | reseating cards",
                        "li.wei | lifted silence 1 | "}));
}

TEST(AlertCenter, AnUnwritableHistoryFileIsReportedAndKeepsTheTriageInMemory)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}}, 10'000);
    state.recordEvent(0, xidEventOnCard(1, 10'100));
    AlertCenter center(state);
    auto log = AlertTriageLog::open(file);
    ASSERT_TRUE(log);
    center.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
    center.update(state.snapshot(10'200));
    QSignalSpy problems(&center, &AlertCenter::triageProblem);
    {
        // The disk is full: a write that would grow the file fails at once.
        const test::FilesCannotGrow full({file, file + "-wal"});
        center.acknowledge(QStringLiteral("xid/xm-1/xm-1-card-1"));
        center.waitForTriage();
        QCoreApplication::processEvents();
    }
    bool named = false;
    for (const auto &args : problems)
        named |= args.at(0).toString().contains(QString::fromStdString(file));
    EXPECT_TRUE(named) << "the problem names the file";
    // The acknowledgement still holds here.
    EXPECT_TRUE(center.view().find("xid/xm-1/xm-1-card-1")->acknowledgedMs.has_value());
}

TEST(AlertCenter, WithoutAHistoryFileSilencesLiveHereAndLiftOneAtATime)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}, {"xiamen", "xm-2", "r1"}}, 10'000);
    state.recordEvent(0, xidEventOnCard(1, 10'100));
    state.recordEvent(1, xidEventOnCard(2, 10'100));
    AlertCenter center(state);
    center.update(state.snapshot(10'200));
    for (const char *node : {"xm-1", "xm-2"}) {
        SilenceRule rule;
        rule.node = node;
        rule.untilMs = 10'000'000;
        center.silence(rule);
    }
    ASSERT_EQ(center.silences().size(), 2u);
    center.liftSilence(center.silences().front().id);
    ASSERT_EQ(center.silences().size(), 1u);
    EXPECT_EQ(center.silences().front().node, "xm-2");
    EXPECT_FALSE(center.view().find("xid/xm-1/xm-1-card-1")->silenced(20'000));
    EXPECT_TRUE(center.view().find("xid/xm-2/xm-2-card-2")->silenced(20'000));
}

// The silences list follows the center without a reset: lifting one removes its row, the
// other keeps its place, and each row carries the id that lifts it.
TEST(SilencesModel, FollowsTheCenterByIdWithoutResets)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}, {"wuhu", "wh-2", "r1"}}, 10'000);
    AlertCenter center(state);
    for (const char *node : {"xm-1", "wh-2"}) {
        SilenceRule rule;
        rule.node = node;
        rule.dataCenter = node[0] == 'x' ? "xiamen" : "";
        rule.untilMs = 10'000'000;
        rule.by = "ops:li";
        rule.reason = std::string("maintenance on ") + node;
        center.silence(rule);
    }
    SilencesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setSilences(center.silences());
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_TRUE(model.index(0, SilencesModel::What)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("xm-1 · ")));
    EXPECT_EQ(model.index(1, SilencesModel::Reason).data().toString(),
              QStringLiteral("maintenance on wh-2"));
    const QPersistentModelIndex second = model.index(1, SilencesModel::What);

    center.liftSilence(model.index(0, 0).data(SilencesModel::IdRole).toLongLong());
    model.setSilences(center.silences());
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(second.row(), 0) << "the other silence keeps its row";
    EXPECT_EQ(model.index(0, SilencesModel::What).data().toString(), QStringLiteral("wh-2"));
    EXPECT_EQ(resets.count(), 0);
}

// Who made a silence and why come from a watcher or an Alertmanager: a tooltip shows
// them as their characters, never drawn as markup (Qt draws any tooltip that looks like
// rich text as rich text).
TEST(SilencesModel, RemoteWordsAreShownAsTheirCharactersNeverAsMarkup)
{
    SilenceRule rule;
    rule.id = 7;
    rule.node = "xm-1";
    rule.untilMs = 10'000'000;
    rule.by = "<b>ops</b>";
    rule.reason = "<img src='http://evil.example/x.png'>reboot & <i>then</i>";
    SilencesModel model;
    model.setSilences({rule});
    ASSERT_EQ(model.rowCount(), 1);
    for (const int column : {int(SilencesModel::By), int(SilencesModel::Reason)}) {
        const QString tip = model.index(0, column).data(Qt::ToolTipRole).toString();
        QTextDocument drawn;
        drawn.setHtml(tip);
        const QString written =
            QString::fromStdString(column == SilencesModel::By ? rule.by : rule.reason);
        EXPECT_EQ(drawn.toPlainText(), written) << tip.toStdString();
        EXPECT_FALSE(tip.contains(QStringLiteral("<img"))) << tip.toStdString();
    }
}

// What the receivers were told follows the file: a resolution another console sent
// reaches this one, so a recurrence here is news again; and a file that cannot say what
// was sent holds no alert back.
TEST(AlertCenter, WhatWasSentFollowsTheFileAndABrokenRecordHoldsNothingBack)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}}, 10'000);
    const auto console = [&] {
        auto center = std::make_unique<AlertCenter>(state);
        auto log = AlertTriageLog::open(file);
        EXPECT_TRUE(log);
        center->setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
        center->update(state.snapshot(10'200));
        center->waitForTriage();
        return center;
    };
    auto day = console();
    auto night = console();
    EXPECT_TRUE(night->deliveriesKnown());
    day->recordDelivery("xid/xm-1/xm-1-card-1", true);
    day->waitForTriage();
    night->waitForTriage();
    EXPECT_TRUE(night->deliveredFiring("xid/xm-1/xm-1-card-1"));
    day->recordDelivery("xid/xm-1/xm-1-card-1", false);
    day->waitForTriage();
    night->waitForTriage();
    EXPECT_FALSE(night->deliveredFiring("xid/xm-1/xm-1-card-1")) << "the day shift resolved it";

    // The record's table is gone (a damaged file): the problem is named, and the
    // console still counts what was sent as known, so its alerts go out.
    SQLite::Database(file, SQLite::OPEN_READWRITE).exec("DROP TABLE alert_delivery");
    AlertCenter late(state);
    QSignalSpy problems(&late, &AlertCenter::triageProblem);
    auto log = AlertTriageLog::open(file);
    ASSERT_TRUE(log);
    late.setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()), 60'000);
    late.waitForTriage();
    EXPECT_TRUE(late.deliveriesKnown());
    bool named = false;
    for (const auto &args : problems)
        named |= args.at(0).toString().contains(QStringLiteral("which alerts were sent"));
    EXPECT_TRUE(named);
}
