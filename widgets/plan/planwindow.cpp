#include "planwindow.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "models/plan/planwording.h"
#include "planchart.h"
#include "planpdf.h"
#include "widgets/screenfit.h"

namespace meridian {

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
    m_table->setHorizontalHeaderLabels(planTableHeader());
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
    // Two rows: where the demand comes from; then its size, the costs and what to do.
    auto *row = new QWidget(this);
    auto *rows = new QVBoxLayout(row);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addLayout(buildSourceRow(row));
    auto *layout = new QHBoxLayout;
    rows->addLayout(layout);
    m_peak = new QSpinBox(row);
    m_peak->setRange(4, 100'000);
    m_peak->setSingleStep(4);
    m_peak->setValue(64);
    m_peak->setSuffix(tr(" A100s at the peak"));
    m_costs = new QLineEdit(row);
    m_costs->setPlaceholderText(tr("card costs: the price book's"));
    auto *costs = new QPushButton(tr("Costs…"), row);
    m_plan = new QPushButton(tr("Plan"), row);
    m_backtest = new QPushButton(tr("Backtest"), row);
    m_backtest->setToolTip(tr("Plan from the first week, judge the plan on the week after"));
    layout->addWidget(m_peak);
    layout->addWidget(m_costs, 1);
    layout->addWidget(costs);
    auto *pdf = new QPushButton(tr("PDF…"), row);
    pdf->setToolTip(tr("The plan shown, as a PDF for the budget"));
    layout->addWidget(m_plan);
    layout->addWidget(m_backtest);
    layout->addWidget(pdf);
    connect(pdf, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the plan"), QStringLiteral("meridian-plan.pdf"), tr("PDF (*.pdf)"));
        if (path.isEmpty())
            return;
        const Status written = exportPdf(path);
        m_status->setText(written ? tr("Saved %1").arg(path)
                                  : QString::fromStdString(written.message()));
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

QHBoxLayout *PlanWindow::buildSourceRow(QWidget *row)
{
    auto *layout = new QHBoxLayout;
    m_source = new QComboBox(row);
    m_source->addItem(tr("Demand from a file"));
    m_source->setToolTip(
        tr("A demand file, or a service's demand as its controller recorded it "
           "in the history file"));
    m_demand = new QLineEdit(row);
    m_demand->setPlaceholderText(tr("ServeGen rates or a minutes CSV"));
    m_browse = new QPushButton(tr("Demand…"), row);
    layout->addWidget(m_source);
    layout->addWidget(m_demand, 1);
    layout->addWidget(m_browse);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("The service's demand"));
        if (!path.isEmpty())
            m_demand->setText(path);
    });
    connect(m_source, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_demand->setEnabled(index == 0);
        m_browse->setEnabled(index == 0);
    });
    return layout;
}

void PlanWindow::setDemandFile(const QString &path)
{
    m_demand->setText(path);
}

void PlanWindow::setHistoryFile(const QString &path)
{
    m_historyFile = path;
    while (m_source->count() > 1)
        m_source->removeItem(1);
    if (path.isEmpty())
        return;
    QString problem;
    for (const QString &name : recordedPlanServices(path, problem))
        m_source->addItem(tr("%1: recorded demand").arg(name), name);
    m_status->setText(problem);
}

void PlanWindow::chooseRecordedService(const QString &service)
{
    const int index = m_source->findData(service);
    if (index > 0)
        m_source->setCurrentIndex(index);
}

QStringList PlanWindow::recordedServices() const
{
    QStringList services;
    for (int i = 1; i < m_source->count(); ++i)
        services << m_source->itemData(i).toString();
    return services;
}

void PlanWindow::plan(bool backtest)
{
    m_status->setText(tr("Weighing every mix…"));
    const QString costs = m_costs->text().trimmed();
    const QString book = QFile::exists(m_priceBook) ? m_priceBook : QString();
    PlanAsked asked{
        m_demand->text().trimmed(),           {},      {}, costs.isEmpty() ? book : costs,
        static_cast<double>(m_peak->value()), backtest};
    if (m_source->currentIndex() > 0) {
        asked.service = m_source->currentData().toString();
        asked.recordedIn = m_historyFile;
    }
    m_loader->request(asked);
}

QString PlanWindow::headline() const
{
    return m_headline->text();
}

QString PlanWindow::unsure() const
{
    return m_unsure->text();
}

QString PlanWindow::status() const
{
    return m_status->text();
}

void PlanWindow::showLoaded()
{
    const PlanLoaded &loaded = m_loader->latest();
    m_headline->setText(planHeadline(loaded));
    m_unsure->setText(planUnsure(loaded));
    m_status->setText(planStatus(loaded));
    const std::vector<PlanRow> rows = planRows(loaded);
    m_table->setRowCount(0);
    for (const PlanRow &row : rows)
        addRow(planRowCells(loaded, row));
    QChart *old = m_chart->chart();
    m_chart->setChart(makePlanChart(planFront(loaded), rows, palette()));
    delete old;
    Q_EMIT shown();
}

void PlanWindow::addRow(const QStringList &cells)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setTextAlignment(c < 2 ? Qt::AlignLeft | Qt::AlignVCenter
                                     : Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
}

Status PlanWindow::exportPdf(const QString &path) const
{
    return writePlanPdf(path, m_loader->latest());
}

}  // namespace meridian
