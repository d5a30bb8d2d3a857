#include "reportswindow.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateEdit>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include "faultresponsewindow.h"
#include "models/cost/cloudspendmodel.h"
#include "models/cost/pricebookfiles.h"
#include "models/cost/reportbuilder.h"
#include "models/cost/reporttablemodel.h"
#include "models/cost/reportwording.h"
#include "pricebookdialog.h"
#include "reportcharts.h"
#include "reportpdf.h"
#include "widgets/chartpalette.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

int64_t startOfDay(const QDate &day)
{
    return QDateTime(day, QTime(0, 0), Qt::UTC).toSecsSinceEpoch();
}

QLabel *newTile(QWidget *parent)
{
    auto *tile = new QLabel(parent);
    tile->setTextFormat(Qt::RichText);
    tile->setFrameShape(QFrame::StyledPanel);
    tile->setMargin(8);
    tile->setMinimumWidth(180);
    tile->setWordWrap(true);
    return tile;
}

QString tileText(const QString &title, const QString &figure, const QString &detail)
{
    return QStringLiteral(
               "<div style='font-size:small'>%1</div>"
               "<div style='font-size:x-large; font-weight:600'>%2</div>"
               "<div style='font-size:small'>%3</div>")
        .arg(title.toHtmlEscaped(), figure.toHtmlEscaped(), detail.toHtmlEscaped());
}

}  // namespace

ReportsWindow::ReportsWindow(ReportSources sources, QWidget *parent, const Clock &clock)
    : QWidget(parent, Qt::Window)
    , m_sources(std::move(sources))
    , m_clock(clock)
    , m_model(new ReportTableModel(this))
    , m_builder(new ReportBuilder(this))
{
    setWindowTitle(tr("Meridian — utilisation and cost"));
    buildControls();
    connect(m_builder, &ReportBuilder::built, this, &ReportsWindow::showBuilt);
    fitToScreen(this, QSize(1280, 860));
    setPreset(Preset::ThisMonth);
}

ReportsWindow::~ReportsWindow() = default;

void ReportsWindow::buildControls()
{
    QPushButton *prices = nullptr;
    QHBoxLayout *controls = buildPeriodBar(prices);
    m_cost = newTile(this);
    m_idle = newTile(this);
    m_hours = newTile(this);
    m_cloud = newTile(this);
    auto *tiles = new QHBoxLayout;
    for (QLabel *tile : {m_cost, m_idle, m_hours, m_cloud})
        tiles->addWidget(tile, 1);
    QSplitter *split = buildTablesAndCharts();
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    // Part of the period missing from the history: said above the figures, in red.
    m_coverage = new QLabel(this);
    m_coverage->setObjectName(QStringLiteral("coverageWarning"));
    m_coverage->setWordWrap(true);
    m_coverage->setStyleSheet(QStringLiteral("color: #d62728"));
    m_coverage->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_coverage);
    layout->addLayout(tiles);
    layout->addWidget(split, 1);
    layout->addWidget(m_leases);
    layout->addWidget(m_status);
    connectControls(prices);
    if (m_sources.historyFile.isEmpty()) {
        for (QWidget *w : std::initializer_list<QWidget *>{m_refresh, m_csv, m_pdf, m_response})
            w->setEnabled(false);
    }
}

QHBoxLayout *ReportsWindow::buildPeriodBar(QPushButton *&prices)
{
    m_preset = new QComboBox(this);
    for (const auto &[preset, name] :
         {std::pair{Preset::Today, tr("Today")}, std::pair{Preset::Last7Days, tr("Last 7 days")},
          std::pair{Preset::ThisMonth, tr("This month")},
          std::pair{Preset::LastMonth, tr("Last month")},
          std::pair{Preset::Last30Days, tr("Last 30 days")},
          std::pair{Preset::ThisQuarter, tr("This quarter")},
          std::pair{Preset::YearToDate, tr("Year to date")},
          std::pair{Preset::Custom, tr("Custom")}})
        m_preset->addItem(name, static_cast<int>(preset));
    m_from = new QDateEdit(this);
    m_to = new QDateEdit(this);
    for (QDateEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    }
    m_group = new QComboBox(this);
    for (ReportGroup group : {ReportGroup::DataCenter, ReportGroup::Vendor, ReportGroup::Model,
                              ReportGroup::Node, ReportGroup::Service, ReportGroup::Customer})
        m_group->addItem(ReportTableModel::groupHeader(group), static_cast<int>(group));
    m_bucket = new QComboBox(this);
    m_bucket->addItem(tr("Daily"), 86400);
    m_bucket->addItem(tr("Weekly"), 7 * 86400);
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_csv = new QPushButton(tr("Export CSV…"), this);
    m_pdf = new QPushButton(tr("Export PDF…"), this);
    prices = new QPushButton(tr("Price book…"), this);
    m_response = new QPushButton(tr("Fault response…"), this);
    m_response->setToolTip(tr("How fast alerts were acknowledged and resolved in this period"));

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Period"), this));
    controls->addWidget(m_preset);
    controls->addWidget(m_from);
    controls->addWidget(new QLabel(QStringLiteral("–"), this));
    controls->addWidget(m_to);
    controls->addWidget(new QLabel(tr("UTC, by"), this));
    controls->addWidget(m_group);
    controls->addWidget(m_bucket);
    controls->addWidget(m_refresh);
    controls->addStretch();
    controls->addWidget(m_csv);
    controls->addWidget(m_pdf);
    controls->addWidget(m_response);
    controls->addWidget(prices);
    return controls;
}

QSplitter *ReportsWindow::buildTablesAndCharts()
{
    m_view = new QTableView(this);
    auto *sorted = new ReportSortProxy(this);
    sorted->setSourceModel(m_model);
    m_view->setModel(sorted);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ReportTableModel::Cost, Qt::DescendingOrder);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ReportTableModel::Group, QHeaderView::Stretch);
    m_view->setAlternatingRowColors(true);
    m_trendView = new QChartView(this);
    m_costView = new QChartView(this);
    for (QChartView *view : {m_trendView, m_costView}) {
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(260);
    }
    m_leasesModel = new CloudSpendModel(this);
    auto *leasesSorted = new QSortFilterProxyModel(this);
    leasesSorted->setSourceModel(m_leasesModel);
    leasesSorted->setSortRole(CloudSpendModel::SortRole);
    m_leases = new QTableView(this);
    m_leases->setModel(leasesSorted);
    m_leases->setSortingEnabled(true);
    m_leases->sortByColumn(CloudSpendModel::Cost, Qt::DescendingOrder);
    m_leases->verticalHeader()->setVisible(false);
    m_leases->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_leases->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_leases->setMaximumHeight(140);

    auto *charts = new QSplitter(Qt::Horizontal, this);
    m_charts = charts;
    charts->addWidget(m_trendView);
    charts->addWidget(m_costView);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(charts);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    return split;
}

void ReportsWindow::connectControls(QPushButton *prices)
{
    connect(m_preset, &QComboBox::activated, this,
            [this] { setPreset(static_cast<Preset>(m_preset->currentData().toInt())); });
    for (QDateEdit *edit : {m_from, m_to}) {
        connect(edit, &QDateEdit::dateChanged, this, [this] {
            m_preset->setCurrentIndex(m_preset->findData(static_cast<int>(Preset::Custom)));
        });
        // Once a date is typed or picked, not at every keystroke on the way.
        connect(edit, &QDateEdit::editingFinished, this, &ReportsWindow::refresh);
    }
    connect(m_group, &QComboBox::activated, this, &ReportsWindow::refresh);
    connect(m_bucket, &QComboBox::activated, this, &ReportsWindow::refresh);
    connect(m_refresh, &QPushButton::clicked, this, &ReportsWindow::refresh);
    connect(prices, &QPushButton::clicked, this, &ReportsWindow::editPrices);
    connect(m_response, &QPushButton::clicked, this, &ReportsWindow::showFaultResponse);
    connect(m_csv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export CSV"), defaultFileName() + QStringLiteral(".csv"), tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        const Status status = exportCsv(path);
        m_status->setText(
            status ? tr("Saved %1 (cloud leases, if any, beside it as …-cloud.csv)").arg(path)
                   : QString::fromStdString(status.message()));
    });
    connect(m_pdf, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export PDF"), defaultFileName() + QStringLiteral(".pdf"), tr("PDF (*.pdf)"));
        if (path.isEmpty())
            return;
        const Status status = exportPdf(path);
        m_status->setText(status ? tr("Saved %1").arg(path)
                                 : QString::fromStdString(status.message()));
    });
}

FaultResponseWindow *ReportsWindow::showFaultResponse()
{
    if (!m_faultResponse)
        m_faultResponse =
            new FaultResponseWindow(m_sources.historyFile, m_from->date(), m_to->date(), this);
    else
        m_faultResponse->setPeriod(m_from->date(), m_to->date());
    m_faultResponse->show();
    m_faultResponse->raise();
    return m_faultResponse;
}

std::pair<QDate, QDate> ReportsWindow::presetDays(Preset preset, const QDate &today)
{
    const QDate monthStart(today.year(), today.month(), 1);
    switch (preset) {
    case Preset::Today: return {today, today};
    case Preset::Last7Days: return {today.addDays(-6), today};
    case Preset::ThisMonth: return {monthStart, today};
    case Preset::LastMonth: return {monthStart.addMonths(-1), monthStart.addDays(-1)};
    case Preset::Last30Days: return {today.addDays(-29), today};
    case Preset::ThisQuarter:
        return {QDate(today.year(), (today.month() - 1) / 3 * 3 + 1, 1), today};
    case Preset::YearToDate: return {QDate(today.year(), 1, 1), today};
    case Preset::Custom: break;
    }
    return {today, today};
}

void ReportsWindow::setPreset(Preset preset)
{
    if (preset != Preset::Custom) {
        const auto [first, last] =
            presetDays(preset, QDateTime::fromMSecsSinceEpoch(m_clock.nowUnixMs(), Qt::UTC).date());
        const QSignalBlocker blockFrom(m_from);
        const QSignalBlocker blockTo(m_to);
        m_from->setDate(first);
        m_to->setDate(last);
    }
    m_preset->setCurrentIndex(m_preset->findData(static_cast<int>(preset)));
    if (preset != Preset::Custom)
        refresh();
}

void ReportsWindow::setPeriod(const QDate &firstDay, const QDate &lastDay)
{
    {
        const QSignalBlocker blockFrom(m_from);
        const QSignalBlocker blockTo(m_to);
        m_from->setDate(firstDay);
        m_to->setDate(lastDay);
    }
    m_preset->setCurrentIndex(m_preset->findData(static_cast<int>(Preset::Custom)));
    refresh();
}

void ReportsWindow::setGroup(ReportGroup group)
{
    m_group->setCurrentIndex(m_group->findData(static_cast<int>(group)));
    refresh();
}

void ReportsWindow::setWeekly(bool weekly)
{
    m_bucket->setCurrentIndex(weekly ? 1 : 0);
    refresh();
}

ReportRequest ReportsWindow::request() const
{
    ReportRequest r;
    r.fromUnixS = startOfDay(m_from->date());
    r.toUnixS = startOfDay(m_to->date().addDays(1));
    r.group = static_cast<ReportGroup>(m_group->currentData().toInt());
    r.nowUnixS = m_clock.nowUnixMs() / 1000;
    return r;
}

bool ReportsWindow::building() const
{
    return m_builder->building();
}

const LoadedReport &ReportsWindow::built() const
{
    return m_builder->loaded();
}

void ReportsWindow::refresh()
{
    if (m_sources.historyFile.isEmpty()) {
        m_status->setText(tr("Reports need the cost history, which is off in this session."));
        return;
    }
    const ReportRequest r = request();
    if (r.toUnixS <= r.fromUnixS) {
        m_status->setText(tr("The period is empty: the last day comes before the first."));
        return;
    }
    m_status->setText(tr("Building the report…"));
    m_builder->build(m_sources.historyFile, m_sources.priceBookFile,
                     {r, m_bucket->currentData().toLongLong(), /*previousPeriod=*/true});
}

void ReportsWindow::showBuilt()
{
    if (!built().report) {
        const QString why = QString::fromStdString(built().report.error().message);
        m_model->setReport({});
        m_charts->setVisible(false);
        m_status->setText(why);
        Q_EMIT reportFailed(why);
        return;
    }
    const UsageReport &report = built().report.value();
    m_model->setReport(report);
    m_view->sortByColumn(m_view->horizontalHeader()->sortIndicatorSection(),
                         m_view->horizontalHeader()->sortIndicatorOrder());
    showTiles(report, built().previous ? &built().previous.value() : nullptr);
    showCharts(report);
    m_leasesModel->setLeases(report.cloud);
    m_leases->setVisible(!report.cloud.empty());
    m_status->setText(reportStatus(report));
    Q_EMIT reportReady();
}

void ReportsWindow::showTiles(const UsageReport &report, const UsageReport *previous)
{
    const QLocale locale;
    const ReportRow &total = report.total;
    const QString cny = QStringLiteral(" CNY");
    const QString whyNot = notComparable(report, previous);
    const ReportRow before = previous ? previous->total : ReportRow{};
    // Each figure as the table's Total row writes it, with its unit.
    m_cost->setText(tileText(tr("Value of own cards"), moneyText(total.costCny) + cny,
                             tr("%1 cards · %2")
                                 .arg(locale.toString(total.cards))
                                 .arg(changeText(total.costCny, before.costCny, false, whyNot))));
    const double idleShare = total.costCny > 0 ? 100 * total.idleCostCny / total.costCny : 0;
    m_idle->setText(
        tileText(tr("Idle value"), moneyText(total.idleCostCny) + cny,
                 tr("%1 of the value · %2")
                     .arg(percentText(idleShare))
                     .arg(changeText(total.idleCostCny, before.idleCostCny, false, whyNot))));
    m_hours->setText(
        tileText(tr("Busy share of card-hours"), percentText(total.busyPercent()),
                 tr("%1 busy, %2 idle card-hours · mean utilisation %3 · coverage %4 · %5")
                     .arg(cardHoursText(total.busyCardHours), cardHoursText(total.idleCardHours()),
                          percentText(total.meanUtilizationPercent()),
                          percentText(report.coveragePercent(total.cardHours, total.cards)))
                     .arg(changeText(total.busyPercent(), before.busyPercent(), true, whyNot))));
    QStringList byService;
    for (const auto &[service, spend] : report.cloudSpendByService())
        byService << tr("%1 %2").arg(
            service.empty() ? tr("(not the autoscaler's)") : QString::fromStdString(service),
            moneyText(spend) + cny);
    m_cloud->setText(
        tileText(tr("Cloud spend"), moneyText(report.cloudSpendCny) + cny,
                 byService.isEmpty()
                     ? changeText(report.cloudSpendCny, previous ? previous->cloudSpendCny : 0,
                                  false, previous ? QString() : notComparable(report, previous))
                     : byService.mid(0, 3).join(QStringLiteral(" · "))));
    const QString warning =
        coverageWarning(report, built().trend ? &built().trend.value() : nullptr);
    m_coverage->setText(warning);
    m_coverage->setVisible(!warning.isEmpty());
}

void ReportsWindow::showCharts(const UsageReport &report)
{
    const auto setChart = [this](QChartView *view, QChart *chart) {
        applyPalette(chart, palette());
        QChart *old = view->chart();
        view->setChart(chart);
        delete old;
    };
    // No usage: no empty axes, the status line says why.
    m_charts->setVisible(!report.rows.empty());
    if (built().trend)
        setChart(m_trendView, makeTrendChart(built().trend.value(), report.total.cards));
    setChart(m_costView, makeCostByGroupChart(report));
}

QString ReportsWindow::reportStatus(const UsageReport &report) const
{
    // What the money figures are, plainly: the price book holds customer prices.
    QString status = reportPeriodText(report) + QStringLiteral(" — ") +
                     tr("values are customer prices from the price book (what a card-hour "
                        "earns, contract discounts applied); idle value is revenue not earned; "
                        "busy is a card-hour at or above 5% utilisation");
    if (report.rows.empty())
        status += QStringLiteral(" — ") + tr("no usage recorded in this period");
    if (report.total.unpricedCardHours > 0) {
        status += QStringLiteral(" — ") +
                  tr("%1 card-hours have no price in the price book")
                      .arg(QLocale().toString(report.total.unpricedCardHours, 'f', 1));
    }
    return status;
}

QString ReportsWindow::statusText() const
{
    return m_status->text();
}

namespace {

Status writeFile(const QString &path, const std::string &text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()))
        return Error{QStringLiteral("%1: %2").arg(path, file.errorString()).toStdString()};
    return {};
}

}  // namespace

QString ReportsWindow::defaultFileName() const
{
    return QStringLiteral("meridian-report-%1_%2-by-%3")
        .arg(m_from->date().toString(Qt::ISODate), m_to->date().toString(Qt::ISODate),
             QString::fromLatin1(
                 reportGroupName(static_cast<ReportGroup>(m_group->currentData().toInt())).data()));
}

Status ReportsWindow::exportCsv(const QString &path) const
{
    if (!built().report)
        return Error{tr("No report to export yet.").toStdString()};
    if (Status written = writeFile(path, reportToCsv(built().report.value())); !written)
        return written;
    if (built().report->cloud.empty())
        return {};
    QString cloudPath = path;
    if (cloudPath.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive))
        cloudPath.chop(4);
    return writeFile(cloudPath + QStringLiteral("-cloud.csv"),
                     cloudSpendToCsv(built().report.value()));
}

QString ReportsWindow::tile(int index) const
{
    const QLabel *tiles[] = {m_cost, m_idle, m_hours, m_cloud};
    return index >= 0 && index < 4 ? tiles[index]->text() : QString();
}

Status ReportsWindow::exportPdf(const QString &path) const
{
    if (!built().report)
        return Error{tr("No report to export yet.").toStdString()};
    return writeReportPdf(path, built().report.value(),
                          built().trend ? built().trend.value() : UsageTrend{},
                          built().previous ? &built().previous.value() : nullptr);
}

void ReportsWindow::editPrices()
{
    auto book = loadPriceBookFile(m_sources.priceBookFile);
    if (!book && !m_sources.priceBookFile.isEmpty()) {
        m_status->setText(QString::fromStdString(book.error().message));
        return;
    }
    auto *dialog =
        new PriceBookDialog(book ? book.value() : PriceBook{}, m_sources.userPriceBookFile,
                            m_clock.nowUnixMs() / 1000, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PriceBookDialog::saved, this, [this](const QString &path) {
        m_sources.priceBookFile = path;
        Q_EMIT pricesSaved(path);
        refresh();
    });
    dialog->open();
}

}  // namespace meridian
