// The fault-response clock in the Reports window, over a real history file: what was sent
// in the period, by week and by person, the share acknowledged in time and resolved within
// the hour, its CSV and PDF; an empty period says so.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTranslator>

#include "alerts/alerttriagelog.h"
#include "models/cost/faultresponsemodel.h"
#include "testsupport.h"
#include "widgets/cost/faultresponsewindow.h"
#include "widgets/cost/reportswindow.h"

using namespace meridian;

namespace {

constexpr int64_t kDec1 = 1'796'083'200'000;  // 2026-12-01T00:00:00Z, a Tuesday
constexpr int64_t kMinute = 60'000;

// Three alerts sent on 1 and 8 December: one answered in 5 minutes and resolved in 30,
// one answered in 40 and resolved in 2 hours, one nobody answered, still open.
std::string historyWithIncidents(test::TempDir &dir)
{
    const std::string path = dir.file("history.db");
    auto log = AlertTriageLog::open(path);
    EXPECT_TRUE(log) << log.error().message;
    AlertTriageLog &file = *log.value();
    const auto send = [&](const std::string &key, const std::string &kind, int64_t at) {
        AlertIncident i;
        i.alertKey = key;
        i.kind = kind;
        i.severity = "critical";
        i.dataCenter = "wuhu";
        i.startedMs = at;
        i.sentMs = at;
        EXPECT_TRUE(file.recordDelivery(key, true, at, i));
    };
    const int64_t t1 = kDec1 + 3600'000;
    send("xid/wh-1/GPU-1", "Xid", t1);
    EXPECT_TRUE(file.record(
        {0, t1 + 5 * kMinute, "xid/wh-1/GPU-1", TriageAction::Kind::Acknowledge, "zhang.min", ""}));
    EXPECT_TRUE(file.recordDelivery("xid/wh-1/GPU-1", false, t1 + 30 * kMinute));
    const int64_t t2 = kDec1 + 7 * 86400'000 + 3600'000;
    send("dark/wuhu", "data center dark", t2);
    EXPECT_TRUE(file.record(
        {0, t2 + 40 * kMinute, "dark/wuhu", TriageAction::Kind::Acknowledge, "li.wei", ""}));
    EXPECT_TRUE(file.recordDelivery("dark/wuhu", false, t2 + 120 * kMinute));
    send("link/wh-2/eth1", "link down", t2 + 5 * kMinute);
    return path;
}

void waitForRefresh(FaultResponseWindow &window)
{
    QSignalSpy refreshed(&window, &FaultResponseWindow::refreshed);
    ASSERT_TRUE(refreshed.wait(10'000));
}

}  // namespace

TEST(FaultResponseWindow, SaysHowFastAlertsWereAnsweredByWeekAndByPerson)
{
    test::TempDir dir;
    const QString history = QString::fromStdString(historyWithIncidents(dir));
    FaultResponseWindow window(history, QDate(2026, 12, 1), QDate(2026, 12, 8));
    QAbstractItemModelTester tester(window.model());
    waitForRefresh(window);
    FaultResponseModel &model = *window.model();
    // Two ISO weeks (49: 1 December; 50: 8 December), then the total.
    ASSERT_EQ(model.rowCount(), 3) << window.statusText().toStdString();
    EXPECT_EQ(model.index(0, FaultResponseModel::Group).data().toString().toStdString(),
              "2026-W49");
    EXPECT_EQ(model.index(1, FaultResponseModel::Group).data().toString().toStdString(),
              "2026-W50");
    EXPECT_EQ(model.index(2, FaultResponseModel::Incidents).data().toInt(), 3);
    EXPECT_EQ(
        model.index(2, FaultResponseModel::AcknowledgedInTime).data().toString().toStdString(),
        "1 (33%)");
    EXPECT_EQ(model.index(2, FaultResponseModel::ResolvedInTime).data().toString().toStdString(),
              "1 (33%)");
    EXPECT_EQ(model.index(2, FaultResponseModel::Open).data().toInt(), 1);
    EXPECT_EQ(
        model.index(0, FaultResponseModel::MedianToAcknowledge).data().toString().toStdString(),
        "5.0 min");
    EXPECT_EQ(
        model.headerData(FaultResponseModel::AcknowledgedInTime, Qt::Horizontal, Qt::DisplayRole)
            .toString()
            .toStdString(),
        "Acked ≤ 15 min");
    EXPECT_TRUE(window.statusText().contains(
        QStringLiteral("3 alert(s) sent: 33% acknowledged within 15 min")))
        << window.statusText().toStdString();

    // The last day is included: 8 December alone holds two of them.
    window.setPeriod(QDate(2026, 12, 8), QDate(2026, 12, 8));
    waitForRefresh(window);
    EXPECT_EQ(model.rows().back().incidents, 2);

    // By person: nobody's acknowledgement is a row of its own.
    window.setPeriod(QDate(2026, 12, 1), QDate(2026, 12, 8));
    waitForRefresh(window);
    FaultResponseModel::Ask byPerson = model.shown();
    byPerson.grouping = ResponseGrouping::Person;
    QSignalSpy loaded(&model, &FaultResponseModel::loaded);
    model.load(byPerson);
    ASSERT_TRUE(loaded.wait(10'000));
    QStringList people;
    for (int r = 0; r + 1 < model.rowCount(); ++r)
        people << model.index(r, FaultResponseModel::Group).data().toString();
    EXPECT_EQ(people, (QStringList{QStringLiteral("(not acknowledged)"), QStringLiteral("li.wei"),
                                   QStringLiteral("zhang.min")}));

    ASSERT_TRUE(window.exportCsv(QString::fromStdString(dir.file("response.csv"))));
    const std::string csv = test::readFile(dir.file("response.csv"));
    EXPECT_EQ(csv.substr(0, csv.find(',')), "person");
    EXPECT_NE(csv.find("\nli.wei,1,1,0,0.000,40.0,40.0,1,0,0.000,120.0,120.0,0\n"),
              std::string::npos)
        << csv;
    ASSERT_TRUE(window.exportPdf(QString::fromStdString(dir.file("response.pdf"))));
    EXPECT_GT(QFile(QString::fromStdString(dir.file("response.pdf"))).size(), 1000);
}

TEST(FaultResponseWindow, AnEmptyPeriodAndAMissingHistorySaySo)
{
    test::TempDir dir;
    const QString history = QString::fromStdString(historyWithIncidents(dir));
    FaultResponseWindow quiet(history, QDate(2026, 11, 1), QDate(2026, 11, 30));
    waitForRefresh(quiet);
    EXPECT_EQ(quiet.statusText().toStdString(), "No alert was sent in this period.");
    FaultResponseWindow none(QString::fromStdString(dir.file("nowhere.db")), QDate(2026, 12, 1),
                             QDate(2026, 12, 8));
    waitForRefresh(none);
    EXPECT_TRUE(none.statusText().contains(QStringLiteral("no history yet")))
        << none.statusText().toStdString();
    EXPECT_FALSE(QFile::exists(QString::fromStdString(dir.file("nowhere.db"))))
        << "a report must not create the file";
}

TEST(FaultResponseWindow, OpensFromTheReportsWindowForItsPeriod)
{
    test::TempDir dir;
    const QString history = QString::fromStdString(historyWithIncidents(dir));
    ReportsWindow reports({history, {}, {}});
    reports.setPeriod(QDate(2026, 12, 8), QDate(2026, 12, 8));
    FaultResponseWindow *response = reports.showFaultResponse();
    ASSERT_NE(response, nullptr);
    waitForRefresh(*response);
    EXPECT_EQ(response->model()->rows().back().incidents, 2);
    EXPECT_EQ(reports.showFaultResponse(), response) << "one window, brought forward";
}

TEST(FaultResponseWindow, SpeaksChineseToAChineseDesk)
{
    test::TempDir dir;
    const QString history = QString::fromStdString(historyWithIncidents(dir));
    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    QCoreApplication::installTranslator(&chinese);
    FaultResponseWindow window(history, QDate(2026, 12, 1), QDate(2026, 12, 8));
    waitForRefresh(window);
    const FaultResponseModel &model = *window.model();
    EXPECT_EQ(
        model.headerData(FaultResponseModel::Incidents, Qt::Horizontal, Qt::DisplayRole).toString(),
        QStringLiteral("告警数"));
    EXPECT_EQ(
        model.headerData(FaultResponseModel::AcknowledgedInTime, Qt::Horizontal, Qt::DisplayRole)
            .toString(),
        QStringLiteral("15 分钟内确认"));
    EXPECT_EQ(model.index(model.rowCount() - 1, FaultResponseModel::Group).data().toString(),
              QStringLiteral("合计"));
    EXPECT_EQ(model.index(0, FaultResponseModel::MedianToAcknowledge).data().toString(),
              QStringLiteral("5.0 分钟"));
    EXPECT_TRUE(window.statusText().startsWith(QStringLiteral("已发出 3 条告警")))
        << window.statusText().toStdString();
    EXPECT_EQ(window.windowTitle(), QStringLiteral("故障响应"));
    QCoreApplication::removeTranslator(&chinese);
}
