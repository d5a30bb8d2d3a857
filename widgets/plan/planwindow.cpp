#include "planwindow.h"

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "widgets/chartpalette.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

// The library's rule and row names, in the user's words.
QString rowName(const std::string &name)
{
    if (name == "plan")
        return PlanWindow::tr("Plan, judged on the week after");
    if (name == "hindsight")
        return PlanWindow::tr("Cheapest in hindsight");
    if (name == "all hourly")
        return PlanWindow::tr("Rule: all hourly");
    if (name == "own the peak")
        return PlanWindow::tr("Rule: own the peak");
    if (name.rfind("contract p", 0) == 0)
        return PlanWindow::tr("Rule: contract the median");
    return QString::fromStdString(name);
}

QString money(double cny)
{
    return QLocale().toString(cny, 'f', 0);
}

QString percent(double share, int decimals = 2)
{
    return QStringLiteral("%1%").arg(QLocale().toString(share * 100, 'f', decimals));
}

// What the plan cannot be sure of, from its figures, in the user's words.
QStringList unsureWords(const DemandForecast &f, std::optional<double> judgedWeekMiss)
{
    QStringList words;
    if (f.weeksSeen == 1)
        words << PlanWindow::tr(
            "Planned from one week: whether the next repeats its shape is "
            "not yet known.");
    if (std::abs(f.weeklyGrowth) >= kTrendWorthSaying) {
        const bool carried = static_cast<size_t>(f.weeksSeen) >= kWeeksForATrend;
        const QString change = f.weeklyGrowth > 0 ? PlanWindow::tr("Demand grew %1 a week")
                                                  : PlanWindow::tr("Demand fell %1 a week");
        words << change.arg(percent(std::abs(f.weeklyGrowth), 0)) +
                     (carried ? PlanWindow::tr("; the plan carries it on.")
                              : PlanWindow::tr(" over two weeks; the plan does not carry it on."));
    }
    if (f.lastWeekMiss && *f.lastWeekMiss > kMissWorthSaying)
        words << PlanWindow::tr("The forecast missed the last week it could check by %1 an hour.")
                     .arg(percent(*f.lastWeekMiss, 0));
    if (judgedWeekMiss && *judgedWeekMiss > kMissWorthSaying)
        words << PlanWindow::tr(
                     "The week after ran %1 an hour from the forecast: plan again "
                     "on it.")
                     .arg(percent(*judgedWeekMiss, 0));
    return words;
}

}  // namespace

PlanWindow::PlanWindow(QWidget *parent)
    : QWidget(parent, Qt::Window), m_loader(new PlanLoader(this))
{
    setWindowTitle(tr("Meridian — plan: own, contract, rent"));
    m_headline = new QLabel(tr("Choose the service's demand and press Plan."), this);
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_unsure = new QLabel(this);
    m_unsure->setWordWrap(true);
    m_unsure->setTextFormat(Qt::PlainText);
    m_unsure->setStyleSheet(QStringLiteral("QLabel { color: #b35900; }"));
    m_chart = new QChartView(this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(220);
    m_table = new QTableWidget(0, 8, this);
    m_table->setHorizontalHeaderLabels(
        {tr("Mix"), tr("Card model"), tr("Owned cards"), tr("Contracted cards"), tr("CNY a month"),
         tr("Inside the objective"), tr("Owned cards busy"), tr("Rented card-hours a month")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_status = new QLabel(this);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(m_table);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(m_headline);
    layout->addWidget(m_unsure);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    connect(m_loader, &PlanLoader::loaded, this, &PlanWindow::showLoaded);
    fitToScreen(this, QSize(1100, 720));
}

QWidget *PlanWindow::buildControls()
{
    auto *row = new QWidget(this);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_demand = new QLineEdit(row);
    m_demand->setPlaceholderText(tr("ServeGen rates or a minutes CSV"));
    auto *browse = new QPushButton(tr("Demand…"), row);
    m_peak = new QSpinBox(row);
    m_peak->setRange(4, 100'000);
    m_peak->setSingleStep(4);
    m_peak->setValue(64);
    m_peak->setSuffix(tr(" A100s at the peak"));
    m_costs = new QLineEdit(row);
    m_costs->setPlaceholderText(tr("card costs: the provider's figures"));
    auto *costs = new QPushButton(tr("Costs…"), row);
    m_plan = new QPushButton(tr("Plan"), row);
    m_backtest = new QPushButton(tr("Backtest"), row);
    m_backtest->setToolTip(tr("Plan from the first week, judge the plan on the week after"));
    layout->addWidget(m_demand, 2);
    layout->addWidget(browse);
    layout->addWidget(m_peak);
    layout->addWidget(m_costs, 1);
    layout->addWidget(costs);
    layout->addWidget(m_plan);
    layout->addWidget(m_backtest);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("The service's demand"));
        if (!path.isEmpty())
            m_demand->setText(path);
    });
    connect(costs, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Card costs"), QString(),
                                                          tr("YAML (*.yaml *.yml)"));
        if (!path.isEmpty())
            m_costs->setText(path);
    });
    connect(m_plan, &QPushButton::clicked, this, [this] { plan(false); });
    connect(m_backtest, &QPushButton::clicked, this, [this] { plan(true); });
    return row;
}

void PlanWindow::setDemandFile(const QString &path)
{
    m_demand->setText(path);
}

void PlanWindow::plan(bool backtest)
{
    m_status->setText(tr("Weighing every mix…"));
    m_loader->request({m_demand->text().trimmed(), m_costs->text().trimmed(),
                       static_cast<double>(m_peak->value()), backtest});
}

QString PlanWindow::headline() const
{
    return m_headline->text();
}

QString PlanWindow::unsure() const
{
    return m_unsure->text();
}

void PlanWindow::showLoaded()
{
    const PlanLoaded &loaded = m_loader->latest();
    m_table->setRowCount(0);
    m_unsure->clear();
    if (!loaded.problem.isEmpty()) {
        m_headline->setText(tr("No plan: %1").arg(loaded.problem));
        m_status->clear();
    } else if (loaded.plan) {
        showPlan(*loaded.plan);
    } else if (loaded.backtest) {
        showBacktest(*loaded.backtest);
    }
    Q_EMIT shown();
}

void PlanWindow::addRow(const QString &what, const Mix &mix, const MixOutcome &o)
{
    const PlanLoaded &loaded = m_loader->latest();
    const int cards = loaded.options.model.cardsPerReplica;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QStringList cells = {
        what,
        QString::fromStdString(loaded.cards.at(mix.card).model),
        QLocale().toString(mix.ownedReplicas * cards),
        QLocale().toString(mix.contractReplicas * cards),
        money(monthlyCost(o, kMinutesAWeek)),
        percent(o.withinObjectiveShare),
        mix.ownedReplicas > 0 ? percent(o.ownedUtilization, 0) : QStringLiteral("–"),
        money(o.rentedCardHours / monthsIn(kMinutesAWeek))};
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setTextAlignment(c < 2 ? Qt::AlignLeft | Qt::AlignVCenter
                                     : Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
}

void PlanWindow::showPlan(const CapacityPlan &plan)
{
    const MixSearch &search = plan.search;
    const std::optional<PlanCandidate> &pick =
        search.recommended ? search.recommended : search.bestKept;
    std::vector<std::pair<QString, PlanCandidate>> marked;
    if (pick) {
        const CardCost &card = plan.cards.at(pick->mix.card);
        const int cards = plan.options.model.cardsPerReplica;
        QString text = (search.recommended ? tr("Recommended: %1, own %2 cards, contract %3, "
                                                "rent above them. %4 CNY a month; %5 of "
                                                "requests inside the objective.")
                                           : tr("No mix keeps the objective; the closest: %1, "
                                                "own %2 cards, contract %3. %4 CNY a month; "
                                                "%5 inside."))
                           .arg(QString::fromStdString(card.model))
                           .arg(pick->mix.ownedReplicas * cards)
                           .arg(pick->mix.contractReplicas * cards)
                           .arg(money(monthlyCost(pick->outcome, kMinutesAWeek)),
                                percent(pick->outcome.withinObjectiveShare));
        if (pick->mix.ownedReplicas > 0) {
            const auto payback = paybackMonths(card);
            text += QLatin1Char(' ') +
                    (payback ? tr("Owned cards %1 busy; buying pays back in %2 months against "
                                  "contracting them.")
                                   .arg(percent(pick->outcome.ownedUtilization, 0))
                                   .arg(std::round(*payback))
                             : tr("Buying never pays back against contracting."));
        }
        m_headline->setText(text);
        addRow(tr("Recommended"), pick->mix, pick->outcome);
        marked.emplace_back(tr("Recommended"), *pick);
    }
    m_unsure->setText(unsureWords(plan.forecast, std::nullopt).join(QLatin1Char(' ')));
    for (size_t c = 0; c < search.bestByCard.size(); ++c) {
        if (const auto &best = search.bestByCard[c])
            addRow(tr("Cheapest on %1").arg(QString::fromStdString(plan.cards[c].model)), best->mix,
                   best->outcome);
    }
    for (const auto &[name, rule] : plan.rules) {
        addRow(rowName(name), rule.mix, rule.outcome);
        marked.emplace_back(rowName(name), rule);
    }
    drawChart(search.front, marked);
    m_status->setText(tr("%1 mixes weighed on the week forecast from %2 week(s) of demand.")
                          .arg(QLocale().toString(static_cast<qulonglong>(search.judged)))
                          .arg(plan.forecast.weeksSeen));
}

void PlanWindow::showBacktest(const Backtest &backtest)
{
    std::vector<std::pair<QString, PlanCandidate>> marked;
    for (const BacktestRow &row : backtest.rows) {
        addRow(rowName(row.name), row.mix, row.judged);
        marked.emplace_back(rowName(row.name), PlanCandidate{row.mix, row.judged});
    }
    const BacktestRow &plan = backtest.rows.front();
    const BacktestRow &best = backtest.rows.at(1);
    m_headline->setText(
        tr("Planned from the first week and judged on the next: %1 CNY a month against %2 for "
           "the mix cheapest in hindsight (%3 more); %4 of requests inside the objective.")
            .arg(money(monthlyCost(plan.judged, kMinutesAWeek)),
                 money(monthlyCost(best.judged, kMinutesAWeek)),
                 percent(plan.judged.costCny / best.judged.costCny - 1, 1),
                 percent(plan.judged.withinObjectiveShare)));
    m_unsure->setText(
        unsureWords(backtest.forecast, backtest.judgedWeekMiss).join(QLatin1Char(' ')));
    drawChart({}, marked);
    m_status->clear();
}

void PlanWindow::drawChart(const std::vector<PlanCandidate> &front,
                           const std::vector<std::pair<QString, PlanCandidate>> &marked)
{
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignRight);
    auto *inside = new QValueAxis;
    inside->setTitleText(tr("Requests inside the objective (%)"));
    auto *cost = new QValueAxis;
    cost->setTitleText(tr("CNY a month"));
    cost->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(inside, Qt::AlignBottom);
    chart->addAxis(cost, Qt::AlignLeft);
    const auto add = [&](QXYSeries *series) {
        chart->addSeries(series);
        series->attachAxis(inside);
        series->attachAxis(cost);
    };
    // Both axes cover every point drawn, with room round them: a rule far off the front
    // is drawn, not cut at the edge.
    double left = 100, right = 0, low = 1e18, high = 0;
    const auto cover = [&](const MixOutcome &o) {
        left = std::min(left, o.withinObjectiveShare * 100);
        right = std::max(right, o.withinObjectiveShare * 100);
        low = std::min(low, monthlyCost(o, kMinutesAWeek));
        high = std::max(high, monthlyCost(o, kMinutesAWeek));
    };
    for (const PlanCandidate &c : front)
        cover(c.outcome);
    for (const auto &m : marked)
        cover(m.second.outcome);
    if (!front.empty()) {
        auto *line = new QLineSeries;
        line->setName(tr("The front"));
        line->setPointsVisible(true);
        for (const PlanCandidate &c : front)
            line->append(c.outcome.withinObjectiveShare * 100,
                         monthlyCost(c.outcome, kMinutesAWeek));
        add(line);
    }
    for (const auto &[name, c] : marked) {
        auto *point = new QScatterSeries;
        point->setName(name);
        point->setMarkerSize(name == tr("Recommended") ? 16 : 11);
        point->append(c.outcome.withinObjectiveShare * 100, monthlyCost(c.outcome, kMinutesAWeek));
        add(point);
    }
    const double wide = right - left, tall = high - low;
    inside->setRange(left - wide * 0.05 - 0.01, std::min(100.0, right + wide * 0.05) + 0.01);
    cost->setRange(std::max(0.0, low - tall * 0.08), high + tall * 0.08);
    cost->applyNiceNumbers();
    applyPalette(chart, palette());
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

}  // namespace meridian
