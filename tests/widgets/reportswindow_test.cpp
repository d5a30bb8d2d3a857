// Reports in the console and from the command line, over a real history file: the
// table (total pinned last when sorted), the window building off the UI thread, CSV and
// PDF exports, the price book editor refusing to re-price the past, and
// `meridian report --format pdf` without a display.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QFontMetrics>
#include <QLabel>
#include <QLineSeries>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedBarSeries>
#include <QTableView>
#include <QTableWidget>
#include <QTranslator>
#include <QValueAxis>
#include <fstream>
#include <memory>

#include "cost/pricebook.h"
#include "cost/usagereport.h"
#include "history/historystore.h"
#include "models/cost/cloudspendmodel.h"
#include "models/cost/reporttablemodel.h"
#include "models/cost/reportwording.h"
#include "testsupport.h"
#include "usagefixture.h"
#include "widgets/cost/pricebookdialog.h"
#include "widgets/cost/reportcharts.h"
#include "widgets/cost/reportpdf.h"
#include "widgets/cost/reportswindow.h"
#include "widgets/pdftable.h"

using namespace meridian;

namespace {

constexpr int64_t kJuly1 = 1'782'864'000;  // 2026-07-01T00:00:00Z

// Two days of Xiamen (4 A100, 75% busy) and Wuhu (2 A100, half busy, under contract).
struct ReportFixture {
    test::TempDir dir;
    std::string history = dir.file("history.db");
    std::string prices = dir.file("prices.yaml");

    ReportFixture()
    {
        std::ofstream(prices) << R"(prices:
  - {model: A100-SXM4-80GB, cny_per_card_hour: 2.0, from: 2026-01-01}
contracts:
  - {customer: acme, data_center: wuhu, from: 2026-01-01, to: 2026-12-31}
)";
        auto store = HistoryStore::open(history);
        store.value()->submit(
            test::a100Minutes("xm-1", "xiamen", 4, kJuly1, 2 * 1440, 45, 600, "chat-support"));
        store.value()->submit(test::a100Minutes("wh-1", "wuhu", 2, kJuly1, 2 * 1440, 30, 600));
        EXPECT_TRUE(store.value()->flush().ok());
    }
    ReportSources sources() const
    {
        return {QString::fromStdString(history), QString::fromStdString(prices),
                QString::fromStdString(dir.file("edited/pricebook.yaml"))};
    }
};

bool waitForReport(ReportsWindow &window)
{
    QSignalSpy ready(&window, &ReportsWindow::reportReady);
    QSignalSpy failed(&window, &ReportsWindow::reportFailed);
    for (int i = 0; i < 100 && ready.isEmpty() && failed.isEmpty(); ++i)
        ready.wait(100);
    // A refresh queued behind the first build ends with the newest choices.
    while (window.building())
        ready.wait(100);
    return !ready.isEmpty();
}

}  // namespace

TEST(ReportTableModel, SortingOrdersTheGroupsAndKeepsTheTotalLast)
{
    UsageReport report;
    report.group = ReportGroup::Node;
    report.rows = {{"wh-n2", 2, 96, 48, 172.8, 86.4, 0, 3600, 3600 * 40.0},
                   {"wh-n10", 4, 192, 144, 384, 96, 0, 3600, 3600 * 60.0},
                   {"wh-n9", 1, 48, 48, 50, 0}};
    report.total = {"total", 7, 336, 240, 606.8, 182.4};
    ReportTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setReport(report);
    ReportSortProxy proxy;
    proxy.setSourceModel(&model);
    ASSERT_EQ(proxy.rowCount(), 4);
    const auto groupAt = [&](int row) {
        return proxy.index(row, ReportTableModel::Group).data().toString();
    };
    for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
        proxy.sort(ReportTableModel::Cost, order);
        EXPECT_EQ(groupAt(order == Qt::DescendingOrder ? 0 : 2), QStringLiteral("wh-n10"));
        EXPECT_EQ(groupAt(3), QStringLiteral("Total")) << "the total left the bottom";
    }
    // wh-n9 has no utilisation reading ("–"): it sorts below every figure, either way.
    for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
        proxy.sort(ReportTableModel::MeanUtilization, order);
        EXPECT_EQ(groupAt(order == Qt::AscendingOrder ? 0 : 2), QStringLiteral("wh-n9"));
        EXPECT_EQ(groupAt(3), QStringLiteral("Total"));
    }
    proxy.sort(ReportTableModel::Group, Qt::AscendingOrder);  // names in natural order
    EXPECT_EQ(groupAt(0), QStringLiteral("wh-n2"));
    EXPECT_EQ(groupAt(1), QStringLiteral("wh-n9"));
    EXPECT_EQ(groupAt(2), QStringLiteral("wh-n10"));
    EXPECT_EQ(groupAt(3), QStringLiteral("Total"));
    EXPECT_TRUE(proxy.index(3, ReportTableModel::Cost).data(Qt::FontRole).value<QFont>().bold());
    EXPECT_EQ(proxy.index(3, ReportTableModel::BusyPercent).data().toString(),
              QStringLiteral("71.4%"));
}

TEST(CloudSpendModel, LeasesMergeByIdAndSortByCostAsANumber)
{
    CloudSpendModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setLeases({{"l-1", "cn-east", "A100-SXM4-80GB", "scaler", 8, 3.0, 2, 48, "chat"},
                     {"l-2", "cn-east", "A100-SXM4-80GB", "scaler", 8, 3.0, 10, 240, ""}});
    const QPersistentModelIndex first = model.index(0, CloudSpendModel::Cost);
    model.setLeases({{"l-1", "cn-east", "A100-SXM4-80GB", "scaler", 8, 3.0, 3, 72, "chat"},
                     {"l-2", "cn-east", "A100-SXM4-80GB", "scaler", 8, 3.0, 10, 240, ""}});
    ASSERT_TRUE(first.isValid()) << "a new report reset the table";
    EXPECT_EQ(first.data(CloudSpendModel::SortRole).toDouble(), 72.0);
    EXPECT_EQ(model.index(1, CloudSpendModel::Service).data().toString(),
              QStringLiteral("(not the autoscaler's)"));
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(CloudSpendModel::SortRole);
    proxy.sort(CloudSpendModel::Cost, Qt::DescendingOrder);  // "240.00" < "72.00" as text
    EXPECT_EQ(proxy.index(0, CloudSpendModel::Lease).data().toString(), QStringLiteral("l-2"));
}

TEST(ReportsWindow, BuildsInTheBackgroundAndExportsCsvAndPdf)
{
    ReportFixture fixture;
    ReportsWindow window(fixture.sources());
    waitForReport(window);  // "this month" on opening: nothing recorded then
    window.setPeriod(QDate(2026, 7, 1), QDate(2026, 7, 2));
    ASSERT_TRUE(waitForReport(window)) << window.statusText().toStdString();
    const UsageReport &report = window.built().report.value();
    // By hand: Xiamen 4 × 48 h × 2.0 = 384; Wuhu 2 × 48 h × 2.0 × 0.9 = 172.8.
    EXPECT_NEAR(report.total.costCny, 556.8, 1e-9);
    EXPECT_NEAR(report.total.idleCostCny, 384 * 0.25 + 172.8 * 0.5, 1e-9);
    EXPECT_EQ(window.table()->rowCount(), 3);
    ASSERT_TRUE(window.built().trend.ok());
    EXPECT_EQ(window.built().trend->buckets.size(), 2u);
    // The period as the CSV and the PDF write it: its first and last days, both included.
    EXPECT_TRUE(
        window.statusText().contains(QStringLiteral("2026-07-01 – 2026-07-02 UTC (2 days)")))
        << window.statusText().toStdString();

    window.setGroup(ReportGroup::Service);
    ASSERT_TRUE(waitForReport(window));
    EXPECT_EQ(window.built().report->rows.size(), 2u);  // chat-support and none

    // Saved files are named after what they hold.
    EXPECT_EQ(window.defaultFileName(),
              QStringLiteral("meridian-report-2026-07-01_2026-07-02-by-service"));
    const QString csv = QString::fromStdString(fixture.dir.file("report.csv"));
    ASSERT_TRUE(window.exportCsv(csv).ok());
    EXPECT_NE(
        test::readFile(csv.toStdString()).find("2026-07-01,2026-07-02,chat-support,4,192.000"),
        std::string::npos);
    const QString pdf = QString::fromStdString(fixture.dir.file("report.pdf"));
    ASSERT_TRUE(window.exportPdf(pdf).ok());
    const std::string bytes = test::readFile(pdf.toStdString());
    EXPECT_EQ(bytes.substr(0, 5), "%PDF-");
    EXPECT_GT(bytes.size(), 10'000u);  // text, a table and two charts
}

// A previous period the history covers much less of is not set against this one: 5 hours
// of a week read as a rise of thousands of percent. Said instead, with both coverages.
TEST(ReportWording, APeriodCoveredMuchLessIsNotComparedAndSaysWhy)
{
    UsageReport week;
    week.fromUnixS = 1'800'000'000;
    week.toUnixS = week.fromUnixS + 7 * 86400;
    week.rows.resize(1);
    week.total.cards = 8;
    week.total.cardHours = 8 * 7 * 24;
    week.total.costCny = 2648;
    UsageReport before = week;
    before.fromUnixS -= 7 * 86400;
    before.toUnixS -= 7 * 86400;
    before.total.cardHours = 8 * 5;  // five hours of it
    before.total.costCny = 100;
    const QString whyNot = notComparable(week, &before);
    EXPECT_TRUE(whyNot.startsWith(QStringLiteral("not compared"))) << whyNot.toStdString();
    EXPECT_TRUE(whyNot.contains(QStringLiteral("3.0%"))) << whyNot.toStdString();
    EXPECT_EQ(changeText(week.total.costCny, before.total.costCny, false, whyNot), whyNot);
    // Covered as well: compared, in words that read as English.
    before.total.cardHours = week.total.cardHours * 0.9;
    EXPECT_TRUE(notComparable(week, &before).isEmpty());
    EXPECT_EQ(changeText(110, 100, false, {}), QStringLiteral("▲ 10% on the previous period"));
    EXPECT_EQ(notComparable(week, nullptr), QStringLiteral("no data for the previous period"));
}

TEST(ReportsWindow, ThePreviousPeriodIsComparedAndPresetsCoverTheirDays)
{
    ReportFixture fixture;
    ReportsWindow window(fixture.sources());
    waitForReport(window);
    // July 2 against July 1: the same usage, so no change; July 1 against June 30: none.
    window.setPeriod(QDate(2026, 7, 2), QDate(2026, 7, 2));
    ASSERT_TRUE(waitForReport(window));
    ASSERT_TRUE(window.built().previous.ok());
    EXPECT_NEAR(window.built().previous->total.costCny, window.built().report->total.costCny, 1e-9);
    EXPECT_TRUE(window.tile(0).contains(QStringLiteral("= 0% on the previous period")))
        << window.tile(0).toStdString();
    window.setPeriod(QDate(2026, 7, 1), QDate(2026, 7, 1));
    ASSERT_TRUE(waitForReport(window));
    EXPECT_TRUE(window.tile(0).contains(QStringLiteral("no data for the previous period")))
        << window.tile(0).toStdString();
    // The money figures say what they are.
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("customer prices")));

    using Preset = ReportsWindow::Preset;
    const QDate today(2026, 8, 14);
    EXPECT_EQ(ReportsWindow::presetDays(Preset::Today, today), std::pair(today, today));
    EXPECT_EQ(ReportsWindow::presetDays(Preset::ThisQuarter, today),
              std::pair(QDate(2026, 7, 1), today));
    EXPECT_EQ(ReportsWindow::presetDays(Preset::YearToDate, today),
              std::pair(QDate(2026, 1, 1), today));
    EXPECT_EQ(ReportsWindow::presetDays(Preset::LastMonth, today),
              std::pair(QDate(2026, 7, 1), QDate(2026, 7, 31)));
}

// What "this month" means, and the moment running leases are billed to, are the
// console's clock's: on 2 July the window opens on July 1-2 and stands at that moment.
TEST(ReportsWindow, PresetsAndTheReportsMomentFollowTheConsolesClock)
{
    ReportFixture fixture;
    const int64_t july2Noon = kJuly1 + 86400 + 12 * 3600;
    ManualClock clock(july2Noon * 1000);
    ReportsWindow window(fixture.sources(), nullptr, clock);
    ASSERT_TRUE(waitForReport(window)) << window.statusText().toStdString();
    const UsageReport &report = window.built().report.value();
    EXPECT_EQ(report.fromUnixS, kJuly1);
    EXPECT_EQ(report.toUnixS, kJuly1 + 2 * 86400);
    EXPECT_EQ(report.asOfUnixS, july2Noon);
    EXPECT_NEAR(report.total.costCny, 556.8, 1e-9);
}

TEST(ReportsWindow, NoHistoryAndAnEmptyPeriodAreSaidPlainly)
{
    ReportFixture fixture;
    ReportSources sources = fixture.sources();
    sources.historyFile = QString::fromStdString(fixture.dir.file("none.db"));
    ReportsWindow window(sources);
    EXPECT_FALSE(waitForReport(window));
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("meridian sync")))
        << window.statusText().toStdString();
    EXPECT_FALSE(window.exportPdf(QString::fromStdString(fixture.dir.file("x.pdf"))).ok());

    ReportsWindow off(ReportSources{});
    EXPECT_TRUE(off.statusText().contains(QStringLiteral("off")));
    window.setPeriod(QDate(2026, 7, 3), QDate(2026, 7, 1));
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("empty")));
}

TEST(PriceBookDialog, PricesInForceAreLockedAndANewPriceCannotStartInThePast)
{
    ReportFixture fixture;
    auto book = PriceBook::load(fixture.prices);
    ASSERT_TRUE(book.ok());
    const std::string saveTo = fixture.dir.file("edited/pricebook.yaml");
    PriceBookDialog dialog(book.value(), QString::fromStdString(saveTo), kJuly1 + 10 * 86400);
    QTableWidget *prices = dialog.prices();
    ASSERT_EQ(prices->rowCount(), 1);
    EXPECT_FALSE(prices->item(0, 3)->flags() & Qt::ItemIsEditable);  // the price in force
    EXPECT_TRUE(prices->item(0, 5)->flags() & Qt::ItemIsEditable);   // its end

    dialog.addPrice();  // from the next midnight
    prices->item(1, 0)->setText(QStringLiteral("A100-SXM4-80GB"));
    prices->item(1, 3)->setText(QStringLiteral("2.4"));
    ASSERT_TRUE(dialog.save().ok()) << dialog.problem().toStdString();
    auto saved = PriceBook::load(saveTo);
    ASSERT_TRUE(saved.ok());
    const CardPlace a100{"A100-SXM4-80GB", Vendor::Nvidia, "xiamen", "xm-1"};
    EXPECT_EQ(saved->price(a100, kJuly1 + 10 * 86400), 2.0);  // today keeps its price
    EXPECT_EQ(saved->price(a100, kJuly1 + 11 * 86400), 2.4);

    prices->item(1, 4)->setText(QStringLiteral("2026-07-05"));  // back-dating the change
    const std::string before = test::readFile(saveTo);
    EXPECT_FALSE(dialog.save().ok());
    EXPECT_TRUE(dialog.problem().contains(QStringLiteral("row 2")))
        << dialog.problem().toStdString();
    EXPECT_EQ(test::readFile(saveTo), before);
}

// The PDF's table used to cut "Idle value (C…" and drop Energy and Unpriced. It is the
// window's table, every column, and at an A4 page's width nothing in it is cut, in English
// or Chinese, with figures in the millions.
TEST(ReportPdf, TheTableHoldsEveryColumnOfTheWindowsAndCutsNothingInEitherLanguage)
{
    ReportFixture fixture;
    ReportsWindow window(fixture.sources());
    waitForReport(window);
    window.setPeriod(QDate(2026, 7, 1), QDate(2026, 7, 2));
    ASSERT_TRUE(waitForReport(window)) << window.statusText().toStdString();
    UsageReport report = window.built().report.value();
    ASSERT_FALSE(report.rows.empty());
    // One order everywhere: the rows as the window lists them are the PDF's and the CSV's.
    {
        QTableView *view = nullptr;
        for (QTableView *table : window.findChildren<QTableView *>())
            view = table->model()->columnCount() == ReportTableModel::ColumnCount ? table : view;
        ASSERT_NE(view, nullptr);
        const ReportPdfTable pdf = reportPdfTable(report);
        const std::string csv = reportToCsv(report);
        size_t csvAt = 0;
        ASSERT_EQ(view->model()->rowCount(), pdf.rows.size());
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            const QString shown = view->model()->index(r, 0).data().toString();
            EXPECT_EQ(shown, pdf.rows[r][0]) << "row " << r;
            if (r + 1 < view->model()->rowCount()) {  // the CSV names groups by their ids
                const size_t at = csv.find("," + report.rows[static_cast<size_t>(r)].group + ",");
                EXPECT_GT(at, csvAt) << report.rows[static_cast<size_t>(r)].group;
                csvAt = at;
            }
        }
    }
    // A month of a big fleet: seven-figure values and card-hours.
    for (ReportRow *row : {&report.total, &report.rows.front()}) {
        row->costCny *= 10'000;
        row->idleCostCny *= 10'000;
        row->cardHours *= 10'000;
        row->busyCardHours *= 10'000;
        row->energyKwh *= 10'000;
        row->unpricedCardHours = 123'456;
    }
    constexpr int kA4Width = 794 - 2 * 48;  // the page less its margins, at 96 dpi
    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    for (const bool inChinese : {false, true}) {
        if (inChinese)
            QCoreApplication::installTranslator(&chinese);
        const ReportPdfTable table = reportPdfTable(report);
        ASSERT_EQ(table.header.size(), ReportTableModel::ColumnCount);
        EXPECT_EQ(table.rows.size(), static_cast<int>(report.rows.size()) + 1);
        const QString energy =
            ReportTableModel()
                .headerData(ReportTableModel::Energy, Qt::Horizontal, Qt::DisplayRole)
                .toString();
        EXPECT_TRUE(table.header.contains(energy));
        const QFont font = QApplication::font();
        const PdfTableLayout layout = layoutPdfTable(font, table.header, table.rows, 1, kA4Width);
        EXPECT_FALSE(layout.elided);
        int sum = 0;
        QFont plain = font;
        plain.setPointSizeF(layout.pointSize);
        QFont bold = plain;
        bold.setBold(true);
        for (int c = 0; c < table.header.size(); ++c) {
            sum += layout.widths[c];
            const int room = layout.widths[c] - 2 * kPdfCellPadding;
            for (const QString &word : table.header[c].split(QLatin1Char(' ')))
                EXPECT_LE(QFontMetrics(bold).horizontalAdvance(word), room)
                    << table.header[c].toStdString() << (inChinese ? " (zh)" : " (en)");
            for (int r = 0; r < table.rows.size(); ++r)
                EXPECT_LE(QFontMetrics(r + 1 == table.rows.size() ? bold : plain)
                              .horizontalAdvance(table.rows[r][c]),
                          room)
                    << table.rows[r][c].toStdString();
        }
        EXPECT_EQ(sum, kA4Width) << "the table spans the page";
        if (inChinese)
            QCoreApplication::removeTranslator(&chinese);
    }
}

TEST(ReportCommand, PdfCsvAndMistakesWithoutAWindow)
{
    ReportFixture fixture;
    const auto run = [&](const QStringList &extra, QByteArray *out = nullptr,
                         const QString &language = QStringLiteral("C.UTF-8")) {
        QProcess meridian;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LC_ALL"));
        env.remove(QStringLiteral("LC_MESSAGES"));
        env.insert(QStringLiteral("LANG"), language);
        meridian.setProcessEnvironment(env);
        QStringList args = {QStringLiteral("report"), QStringLiteral("--db"),
                            QString::fromStdString(fixture.history), QStringLiteral("--prices"),
                            QString::fromStdString(fixture.prices)};
        meridian.start(QStringLiteral(MERIDIAN_CONSOLE_BIN), args + extra);
        meridian.waitForFinished(60'000);
        if (out)
            *out = meridian.readAllStandardOutput() + meridian.readAllStandardError();
        return meridian.exitCode();
    };
    const QString pdf = QString::fromStdString(fixture.dir.file("month.pdf"));
    const QStringList julyPdf = {QStringLiteral("--from"),   QStringLiteral("2026-07-01"),
                                 QStringLiteral("--to"),     QStringLiteral("2026-07-31"),
                                 QStringLiteral("--format"), QStringLiteral("pdf"),
                                 QStringLiteral("-o"),       pdf};
    QByteArray output;
    ASSERT_EQ(run(julyPdf, &output), 0) << output.toStdString();
    EXPECT_EQ(test::readFile(pdf.toStdString()).substr(0, 5), "%PDF-");
    // A Chinese desk's cron job prints a Chinese report, as its window shows one: the
    // document's title is "…价值报告" (UTF-16 in the PDF's metadata).
    const std::string inChinese = "\x4e\xf7\x50\x3c\x62\xa5\x54\x4a";
    EXPECT_EQ(test::readFile(pdf.toStdString()).find(inChinese), std::string::npos);
    ASSERT_EQ(run(julyPdf, &output, QStringLiteral("zh_CN.UTF-8")), 0) << output.toStdString();
    EXPECT_NE(test::readFile(pdf.toStdString()).find(inChinese), std::string::npos);
    ASSERT_EQ(run({QStringLiteral("--from"), QStringLiteral("2026-07-01T08:00:00+08:00"),
                   QStringLiteral("--to"), QStringLiteral("2026-07-01"),
                   QStringLiteral("--group-by"), QStringLiteral("service")},
                  &output),
              0);
    // From midnight UTC (08:00 in Beijing) through the end date's whole day, as the
    // window's last day: July 1, as CSV on stdout, its period written as given.
    EXPECT_TRUE(output.contains("2026-07-01,2026-07-01,chat-support,4,96.000"))
        << output.toStdString();
    // An ISO time as the end is the instant, excluded: the same day.
    ASSERT_EQ(run({QStringLiteral("--from"), QStringLiteral("2026-07-01"), QStringLiteral("--to"),
                   QStringLiteral("2026-07-02T00:00:00Z"), QStringLiteral("--group-by"),
                   QStringLiteral("service")},
                  &output),
              0);
    EXPECT_TRUE(output.contains("2026-07-01,2026-07-01,chat-support,4,96.000"))
        << output.toStdString();
    // Days the history holds nothing of: written with coverage 0, said, and exit 3, so a
    // script does not take them for quiet days.
    EXPECT_EQ(run({QStringLiteral("--from"), QStringLiteral("2026-06-01"), QStringLiteral("--to"),
                   QStringLiteral("2026-06-05")},
                  &output),
              3);
    EXPECT_TRUE(output.contains("2026-06-01,2026-06-05,total,0,0.000,0.0,"))
        << output.toStdString();
    EXPECT_TRUE(output.contains("no usage from 2026-06-01 to 2026-06-05 (coverage 0%)"))
        << output.toStdString();
    EXPECT_EQ(run({QStringLiteral("--from"), QStringLiteral("last tuesday"), QStringLiteral("--to"),
                   QStringLiteral("2026-07-02")},
                  &output),
              2);
    EXPECT_TRUE(output.contains("ISO 8601"));
}

TEST(ReportsWindow, DaysWithoutDataAreGapsAndTheTilesSayWhatTheTableSays)
{
    ReportFixture fixture;  // usage on July 1 and 2 only
    ReportsWindow window(fixture.sources());
    waitForReport(window);
    window.setPeriod(QDate(2026, 7, 1), QDate(2026, 7, 4));
    ASSERT_TRUE(waitForReport(window)) << window.statusText().toStdString();
    const UsageReport &report = window.built().report.value();
    // Half the card-hours six cards give in four days.
    EXPECT_NEAR(*report.coveragePercent(report.total.cardHours, report.total.cards), 50, 1e-9);
    auto *warning = window.findChild<QLabel *>(QStringLiteral("coverageWarning"));
    ASSERT_NE(warning, nullptr);
    EXPECT_FALSE(warning->isHidden());
    EXPECT_TRUE(warning->text().contains(QStringLiteral("Coverage 50.0%")))
        << warning->text().toStdString();
    EXPECT_TRUE(warning->text().contains(QStringLiteral("no data on 07-03, 07-04")))
        << warning->text().toStdString();
    const auto perDay = bucketCoverage(window.built().trend.value(), report.total.cards);
    ASSERT_EQ(perDay.size(), 4u);
    EXPECT_NEAR(*perDay[0], 100, 1e-9);
    EXPECT_NEAR(*perDay[3], 0, 1e-9);

    // The chart marks the empty days as no data and breaks the value line there.
    std::unique_ptr<QChart> chart(makeTrendChart(window.built().trend.value(), report.total.cards));
    int lines = 0;
    for (QAbstractSeries *series : chart->series()) {
        if (auto *bars = qobject_cast<QStackedBarSeries *>(series)) {
            const QBarSet *missing = bars->barSets().back();
            EXPECT_EQ(missing->label(), QStringLiteral("No data"));
            EXPECT_EQ(missing->at(0), 0);
            EXPECT_GT(missing->at(2), 0);
            EXPECT_GT(missing->at(3), 0);
            // Unlike a day of data: hatched, not a solid bar of a day's height.
            EXPECT_NE(missing->brush().style(), Qt::SolidPattern);
            EXPECT_EQ(bars->barSets().front()->brush().style(), Qt::SolidPattern);
            EXPECT_EQ(missing->at(3),
                      qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical, bars).front())->max())
                << "the band spans the plot, taller than any day";
            auto *days =
                qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal, bars).front());
            ASSERT_NE(days, nullptr);
            EXPECT_TRUE(days->categories().at(3).endsWith(QStringLiteral("(0.0%)")))
                << days->categories().at(3).toStdString();
        } else if (auto *line = qobject_cast<QLineSeries *>(series)) {
            ++lines;
            EXPECT_EQ(line->count(), 2) << "the value line stops where the data does";
        }
    }
    EXPECT_EQ(lines, 1);

    // Each tile's figure is the table's Total row, as the table writes it, with its unit.
    const ReportTableModel *table = window.table();
    const int total = table->rowCount() - 1;
    const auto cell = [&](int column) { return table->index(total, column).data().toString(); };
    EXPECT_TRUE(window.tile(0).contains(cell(ReportTableModel::Cost) + QStringLiteral(" CNY")))
        << window.tile(0).toStdString();
    EXPECT_TRUE(window.tile(1).contains(cell(ReportTableModel::IdleCost) + QStringLiteral(" CNY")))
        << window.tile(1).toStdString();
    EXPECT_TRUE(window.tile(2).contains(cell(ReportTableModel::BusyPercent)));
    EXPECT_TRUE(window.tile(2).contains(cell(ReportTableModel::MeanUtilization)));
    EXPECT_TRUE(window.tile(2).contains(cell(ReportTableModel::IdleCardHours) +
                                        QStringLiteral(" idle card-hours")))
        << window.tile(2).toStdString();
    EXPECT_TRUE(
        window.tile(2).contains(QStringLiteral("coverage ") + cell(ReportTableModel::Coverage)));
    // And "value" is the word for it in every header that shows money.
    for (int c = 0; c < table->columnCount(); ++c) {
        const QString header = table->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        EXPECT_FALSE(header.contains(QStringLiteral("Cost"))) << header.toStdString();
    }
}

// A week by node for 750 nodes, as `meridian report --group-by node --format pdf` makes it:
// every busy share and node name whole, and the table's header on every page it runs to.
TEST(ReportPdf, AWeekByNodeForSevenHundredFiftyNodesCutsNoCellAndHeadsEveryPage)
{
    UsageReport report;
    report.fromUnixS = 1'782'864'000;  // 2026-07-01
    report.toUnixS = report.fromUnixS + 7 * 86'400;
    report.asOfUnixS = report.toUnixS;
    report.group = ReportGroup::Node;
    const char *places[] = {"xm", "wh", "zw"};
    for (int n = 0; n < 750; ++n) {
        ReportRow row;
        row.group = std::string(places[n % 3]) + "-r" + std::to_string(10 + n / 12) + "-n" +
                    std::to_string(1 + n % 4);
        row.cards = 8;
        row.cardHours = 8 * 168;
        row.busyCardHours = n % 5 == 0 ? row.cardHours : row.cardHours * 0.873;  // 100.0%
        row.costCny = row.cardHours * 12.5;
        row.idleCostCny = (row.cardHours - row.busyCardHours) * 12.5;
        row.energyKwh = row.cardHours * 0.41;
        row.utilizationSeconds = row.cardHours * 3600;
        row.utilizationPercentSeconds = row.utilizationSeconds * 71.5;
        report.total.cards += row.cards;
        report.total.cardHours += row.cardHours;
        report.total.busyCardHours += row.busyCardHours;
        report.total.costCny += row.costCny;
        report.total.idleCostCny += row.idleCostCny;
        report.total.energyKwh += row.energyKwh;
        report.total.utilizationSeconds += row.utilizationSeconds;
        report.total.utilizationPercentSeconds += row.utilizationPercentSeconds;
        report.rows.push_back(row);
    }
    test::TempDir dir;
    const QString path = QString::fromStdString(dir.file("week-by-node.pdf"));
    ReportPdfFacts facts;
    ASSERT_TRUE(writeReportPdf(path, report, UsageTrend{}, nullptr, &facts).ok());
    EXPECT_EQ(facts.elidedCells, 0) << "a busy share or a node name was cut";
    EXPECT_GT(facts.tablePages, 10) << "751 rows run over many pages";
    EXPECT_EQ(facts.tableHeaders, facts.tablePages) << "a page of the table with no header";
    EXPECT_GE(facts.pages, facts.tablePages);
    EXPECT_GT(QFile(path).size(), 10'000);
}
