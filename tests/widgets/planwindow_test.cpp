// Reports → Plan over a real ServeGen trace: the plan comes back off the UI thread with
// its pick said and first in the table, the front drawn with the pick and the rules, and
// what it is unsure of; the backtest's rows; a file that is not demand named; and the
// Chinese window with the numbers the English one has.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTranslator>
#include <QXYSeries>

#include <cmath>
#include <fstream>

#include "history/historyschema.h"
#include "sqlite/sqlitefile.h"
#include "testsupport.h"
#include "widgets/plan/planpdf.h"
#include "widgets/plan/planwindow.h"

using namespace meridian;

namespace {

const QString kLarge =
    QString::fromStdString(test::realData("traces/servegen_m-large_agg_rate_10min.csv"));

bool planned(PlanWindow &window, bool backtest)
{
    QSignalSpy shown(&window, &PlanWindow::shown);
    window.plan(backtest);
    return shown.wait(10'000);
}

}  // namespace

TEST(PlanWindow, APlanOfARealTraceIsSaidTabledAndDrawn)
{
    PlanWindow window;
    window.resize(1366, 720);
    window.show();
    window.setDemandFile(kLarge);
    ASSERT_TRUE(planned(window, false));
    ASSERT_TRUE(window.latest().plan.has_value()) << window.latest().problem.toStdString();
    const MixSearch &search = window.latest().plan->search;
    ASSERT_TRUE(search.recommended.has_value());
    const std::string model = window.latest().cards.at(search.recommended->mix.card).model;
    EXPECT_TRUE(window.headline().startsWith(QStringLiteral("Recommended: ") +
                                             QString::fromStdString(model)))
        << window.headline().toStdString();
    EXPECT_TRUE(window.headline().contains(QStringLiteral("pays back")))
        << window.headline().toStdString();
    // The pick first, then each model's cheapest, then the three rules.
    QTableWidget *table = window.table();
    ASSERT_EQ(table->rowCount(), 1 + 5 + 3);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("Recommended"));
    EXPECT_EQ(table->item(0, 1)->text(), QString::fromStdString(model));
    EXPECT_EQ(table->item(8, 0)->text(), QStringLiteral("Rule: contract the median"));
    // The front and one point for the pick and each rule.
    const QList<QAbstractSeries *> series = window.chart()->chart()->series();
    ASSERT_EQ(series.size(), 1 + 1 + 3);
    EXPECT_EQ(static_cast<QXYSeries *>(series.front())->count(),
              static_cast<int>(search.front.size()));
    EXPECT_TRUE(window.unsure().contains(QStringLiteral("missed the last week")))
        << window.unsure().toStdString();
}

// A manager with no demand file: the services the controller recorded in the console's
// history file are offered, and one of them planned from its two weeks of hours (one hour
// missing, said); one with three days is told why there is no plan; a history file that is
// not one is said, and files still serve.
TEST(PlanWindow, AServiceRecordedInTheHistoryFileIsPlannedWithoutAFile)
{
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    {
        auto db = openSqliteFile(file, historySchema());
        ASSERT_TRUE(db.ok()) << db.error().message;
        SQLite::Transaction tx(*db.value());
        const int64_t hour0 = 1'782'864'000 / 3600;
        const auto keep = [&](const char *service, int64_t hours, int64_t missing) {
            for (int64_t h = 0; h < hours; ++h) {
                if (h == missing)
                    continue;
                const double rps = 20 + 15 * std::sin(static_cast<double>(h) * 2 * M_PI / 24);
                db.value()->exec(std::string("INSERT INTO demand_hour VALUES ('") + service +
                                 "', " + std::to_string(hour0 + h) + ", " + std::to_string(rps) +
                                 ", 60)");
            }
        };
        keep("chat", 2 * 168, 200);
        keep("search", 3 * 24, -1);
        tx.commit();
    }
    PlanWindow window;
    window.setHistoryFile(QString::fromStdString(file));
    EXPECT_EQ(window.recordedServices(),
              QStringList({QStringLiteral("chat"), QStringLiteral("search")}));
    window.chooseRecordedService(QStringLiteral("chat"));
    ASSERT_TRUE(planned(window, false));
    ASSERT_TRUE(window.latest().plan.has_value()) << window.latest().problem.toStdString();
    EXPECT_EQ(window.latest().plan->service, "chat");
    EXPECT_TRUE(window.headline().startsWith(QStringLiteral("Recommended: ")))
        << window.headline().toStdString();
    EXPECT_TRUE(window.status().contains(QStringLiteral("1 hour(s) of demand were not recorded")))
        << window.status().toStdString();

    window.chooseRecordedService(QStringLiteral("search"));
    ASSERT_TRUE(planned(window, false));
    EXPECT_EQ(window.headline(),
              QStringLiteral("No plan: search's recorded demand: a plan needs a whole week of "
                             "demand"));

    const std::string broken = dir.file("not-history.db");
    std::ofstream(broken) << "this is no SQLite file";
    window.setHistoryFile(QString::fromStdString(broken));
    EXPECT_TRUE(window.recordedServices().isEmpty());
    EXPECT_TRUE(window.status().contains(QString::fromStdString(broken)))
        << window.status().toStdString();
    window.setDemandFile(kLarge);
    ASSERT_TRUE(planned(window, false));
    EXPECT_TRUE(window.latest().plan.has_value()) << "a file still serves";
}

TEST(PlanWindow, TheBacktestSetsThePlanBesideHindsightAndTheRules)
{
    PlanWindow window;
    window.setDemandFile(kLarge);
    ASSERT_TRUE(planned(window, true));
    ASSERT_TRUE(window.latest().backtest.has_value()) << window.latest().problem.toStdString();
    ASSERT_EQ(window.table()->rowCount(), 5);
    EXPECT_EQ(window.table()->item(0, 0)->text(), QStringLiteral("Plan, judged on the week after"));
    EXPECT_EQ(window.table()->item(1, 0)->text(), QStringLiteral("Cheapest in hindsight"));
    EXPECT_TRUE(window.headline().contains(QStringLiteral("cheapest in hindsight")));
    EXPECT_TRUE(window.unsure().contains(QStringLiteral("one week")));
}

TEST(PlanWindow, AFileThatIsNotDemandIsNamedAndTheChineseWindowKeepsItsNumbers)
{
    test::TempDir dir;
    std::ofstream(dir.file("notes.txt")) << "hello\n";
    PlanWindow window;
    window.setDemandFile(QString::fromStdString(dir.file("notes.txt")));
    ASSERT_TRUE(planned(window, false));
    EXPECT_TRUE(window.headline().contains(QStringLiteral("notes.txt:1")))
        << window.headline().toStdString();
    EXPECT_EQ(window.table()->rowCount(), 0);

    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    QCoreApplication::installTranslator(&chinese);
    {
        PlanWindow zh;
        zh.setDemandFile(kLarge);
        ASSERT_TRUE(planned(zh, false));
        EXPECT_FALSE(zh.headline().contains(QStringLiteral("Recommended")))
            << zh.headline().toStdString();
        EXPECT_TRUE(zh.headline().contains(QStringLiteral("Ascend")));
        EXPECT_FALSE(zh.unsure().contains(QStringLiteral("forecast"))) << zh.unsure().toStdString();
    }
    QCoreApplication::removeTranslator(&chinese);
}

// The plan filed with the budget: its PDF holds the window's words and table whole, a
// header over the table on every page it runs to, in English and in Chinese.
TEST(PlanWindow, ThePlanAsAPdfCutsNothingInEitherLanguage)
{
    test::TempDir dir;
    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    for (const bool inChinese : {false, true}) {
        if (inChinese)
            QCoreApplication::installTranslator(&chinese);
        for (const bool backtest : {false, true}) {
            PlanWindow window;
            window.setDemandFile(kLarge);
            ASSERT_TRUE(planned(window, backtest));
            const QString path = QString::fromStdString(dir.file("plan.pdf"));
            ASSERT_TRUE(window.exportPdf(path).ok());
            PdfFacts facts;
            ASSERT_TRUE(writePlanPdf(path, window.latest(), &facts).ok());
            EXPECT_GE(facts.pages, 1);
            EXPECT_EQ(facts.elidedCells, 0) << (inChinese ? "zh" : "en");
            EXPECT_GE(facts.tablePages, 1);
            EXPECT_EQ(facts.tableHeaders, facts.tablePages);
            EXPECT_GT(QFile(path).size(), 5'000);
        }
        if (inChinese)
            QCoreApplication::removeTranslator(&chinese);
    }
    // Nothing planned yet: said, no file.
    PlanWindow empty;
    EXPECT_FALSE(empty.exportPdf(QString::fromStdString(dir.file("none.pdf"))).ok());
}
