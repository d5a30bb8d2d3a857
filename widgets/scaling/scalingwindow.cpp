#include "scalingwindow.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include "scalingcharts.h"
#include "servicesdialog.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

QString qtext(const std::string &s)
{
    return QString::fromStdString(s);
}

// A read-only table over `model`, sortable by the model's SortRole, first sorted by
// `column` in `order`.
QTableView *table(QAbstractItemModel *model, int sortRole, int column, Qt::SortOrder order,
                  QWidget *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto *t = new QTableView(parent);
    t->setModel(proxy);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setSortingEnabled(true);
    t->sortByColumn(column, order);
    return t;
}

}  // namespace

ScalingWindow::ScalingWindow(ScalingControl *controller, QString offReason,
                             ScalingWindowHooks hooks, QWidget *parent)
    : QMainWindow(parent)
    , m_model(new ScalingViewModel(controller, this))
    , m_offReason(std::move(offReason))
    , m_hooks(std::move(hooks))
{
    setWindowFlag(Qt::Window);
    setWindowTitle(tr("Meridian — Elastic scaling"));
    buildUi();
    connect(m_model, &ScalingViewModel::viewChanged, this, &ScalingWindow::showView);
    connect(m_model, &ScalingViewModel::sendingStarted, this,
            [this](ScalingViewModel::Command command) {
                m_sendingLabel->setText(tr("Sending: %1…").arg(commandTitle(command)));
                m_sendingLabel->show();
                holdCommandsWhileSending();
            });
    connect(m_model, &ScalingViewModel::commandFinished, this,
            [this](ScalingViewModel::Command command, const QString &error) {
                m_sendingLabel->hide();
                m_shownAt = -1;
                showView();
                if (error.isEmpty())
                    return;
                if (m_hooks.warn)
                    m_hooks.warn(commandTitle(command), error);
                else
                    QMessageBox::warning(this, commandTitle(command), error);
            });
    refresh();
    fitToScreen(this, QSize(1440, 900));
}

QString ScalingWindow::commandTitle(ScalingViewModel::Command command)
{
    switch (command) {
    case ScalingViewModel::Command::SetMode: return tr("Approval mode");
    case ScalingViewModel::Command::PlanNow: return tr("Plan now");
    case ScalingViewModel::Command::Approve: return tr("Approve plan");
    case ScalingViewModel::Command::Reject: return tr("Reject plan");
    case ScalingViewModel::Command::Release: return tr("Give back surplus nodes");
    }
    return {};
}

void ScalingWindow::buildUi()
{
    buildToolBar();
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    m_problem = new QLabel(central);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
    m_problem->hide();
    layout->addWidget(m_problem);

    m_servicesModel = new ScalingServicesModel(this);
    m_services = table(m_servicesModel, ScalingServicesModel::SortRole,
                       ScalingServicesModel::Service, Qt::AscendingOrder, central);
    m_services->setSelectionMode(QAbstractItemView::SingleSelection);
    // Figures as wide as they need; the decision takes the rest (in full as a tooltip).
    m_services->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_services->horizontalHeader()->setSectionResizeMode(ScalingServicesModel::Decision,
                                                         QHeaderView::Stretch);
    m_services->setMaximumHeight(150);
    layout->addWidget(m_services);
    m_charts = new ScalingCharts(central);
    layout->addWidget(m_charts, 2);
    layout->addWidget(buildPlanBox(central));

    auto *tabs = new QTabWidget(central);
    // The newest on top, until the operator sorts otherwise.
    m_journalModel = new ScalingJournalModel(this);
    m_journal = table(m_journalModel, ScalingJournalModel::SortRole, ScalingJournalModel::Step,
                      Qt::DescendingOrder, tabs);
    m_auditModel = new ScalingAuditModel(this);
    m_audit = table(m_auditModel, ScalingAuditModel::SortRole, ScalingAuditModel::When,
                    Qt::DescendingOrder, tabs);
    tabs->addTab(m_journal, tr("Journal"));
    tabs->addTab(m_audit, tr("Audit log"));
    layout->addWidget(tabs, 2);
    setCentralWidget(central);
    connect(m_services->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_shownAt = -1;
        refresh();
    });
}

void ScalingWindow::buildToolBar()
{
    QToolBar *bar = addToolBar(tr("Scaling"));
    bar->setMovable(false);
    bar->addWidget(new QLabel(tr("Approval: "), bar));
    m_mode = new QComboBox(bar);
    m_mode->addItem(tr("Manual — plan only when asked"), static_cast<int>(ApprovalMode::Manual));
    m_mode->addItem(tr("Assisted — plans wait for one click"),
                    static_cast<int>(ApprovalMode::Assisted));
    m_mode->addItem(tr("Automatic — within each service's caps"),
                    static_cast<int>(ApprovalMode::Automatic));
    bar->addWidget(m_mode);
    connect(m_mode, &QComboBox::activated, this, [this](int index) {
        const int mode = m_mode->itemData(index).toInt();
        QSettings().setValue(QStringLiteral("scaling/mode"), mode);  // the next start keeps it
        m_model->setMode(static_cast<ApprovalMode>(mode), m_hooks.operatorName.toStdString());
    });
    bar->addSeparator();
    if (!m_hooks.servicesFile.isEmpty())
        bar->addAction(tr("Edit services…"), this, &ScalingWindow::editServices);
    if (!m_hooks.controllerPlace.isEmpty())
        bar->addWidget(new QLabel(m_hooks.controllerPlace, bar));
    if (!m_hooks.setSimulatedDemand)
        return;
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Simulated demand (req/s): "), bar));
    m_demand = new QDoubleSpinBox(bar);
    m_demand->setRange(0, 10'000);
    m_demand->setDecimals(1);
    m_demand->setToolTip(tr("Puts load on the selected service in the embedded simulator"));
    bar->addWidget(m_demand);
    bar->addAction(tr("Apply"), this, [this] {
        const QString service = selectedService();
        if (!service.isEmpty())
            m_hooks.setSimulatedDemand(service.toStdString(), m_demand->value());
    });
}

QGroupBox *ScalingWindow::buildPlanBox(QWidget *parent)
{
    auto *planBox = new QGroupBox(tr("Plan"), parent);
    auto *planLayout = new QGridLayout(planBox);
    m_plan = new QLabel(planBox);
    m_plan->setWordWrap(true);
    m_plan->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_approve = new QPushButton(tr("Approve plan"), planBox);
    m_reject = new QPushButton(tr("Reject"), planBox);
    m_planNow = new QPushButton(tr("Plan now"), planBox);
    m_surplus = new QLabel(planBox);
    m_surplus->setWordWrap(true);
    m_release = new QPushButton(tr("Give back at the paid hour's end"), planBox);
    planLayout->addWidget(m_plan, 0, 0);
    planLayout->addWidget(m_planNow, 0, 1);
    planLayout->addWidget(m_approve, 0, 2);
    planLayout->addWidget(m_reject, 0, 3);
    planLayout->addWidget(m_surplus, 1, 0);
    planLayout->addWidget(m_release, 1, 2, 1, 2);
    m_sendingLabel = new QLabel(planBox);
    m_sendingLabel->setStyleSheet(QStringLiteral("color: #1565c0;"));
    m_sendingLabel->hide();
    planLayout->addWidget(m_sendingLabel, 2, 0, 1, 4);
    planLayout->setColumnStretch(0, 1);
    connect(m_approve, &QPushButton::clicked, this, &ScalingWindow::approveShownPlan);
    const auto who = [this] { return m_hooks.operatorName.toStdString(); };
    connect(m_reject, &QPushButton::clicked, this, [this, who] {
        m_model->rejectPlan(selectedService().toStdString(), who(), "rejected in the console");
    });
    connect(m_planNow, &QPushButton::clicked, this,
            [this, who] { m_model->requestPlan(selectedService().toStdString(), who()); });
    connect(m_release, &QPushButton::clicked, this,
            [this, who] { m_model->approveRelease(selectedService().toStdString(), who()); });
    return planBox;
}

QString ScalingWindow::selectedService() const
{
    const QModelIndex current = m_services->selectionModel()->currentIndex();
    const QModelIndex first = m_services->model()->index(0, 0);
    const QModelIndex shown = current.isValid() ? current : first;
    if (!shown.isValid())
        return {};
    return m_services->model()->index(shown.row(), ScalingServicesModel::Service).data().toString();
}

QString ScalingWindow::reasonText(ScalingReason reason)
{
    return scalingReasonText(reason);
}

bool ScalingWindow::confirm(const QString &title, const QString &question)
{
    if (m_hooks.confirm)
        return m_hooks.confirm(title, question);
    return QMessageBox::question(this, title, question) == QMessageBox::Yes;
}

void ScalingWindow::approveShownPlan()
{
    if (!m_model->hasController() || m_shownPlan.version == 0)
        return;
    const ShownPlan shown = m_shownPlan;  // what the operator saw, not what may come next
    if (!confirm(tr("Approve plan"), shown.summary))
        return;
    m_model->approvePlan(shown.service.toStdString(), m_hooks.operatorName.toStdString(),
                         shown.version);
}

void ScalingWindow::holdCommandsWhileSending()
{
    if (!m_model->sending())
        return;
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_approve, m_reject, m_planNow, m_release, m_mode})
        w->setEnabled(false);
}

const ServiceScalingView *ScalingWindow::selected(const ScalingView &view) const
{
    const std::string name = selectedService().toStdString();
    for (const ServiceScalingView &s : view.services) {
        if (s.service.name == name)
            return &s;
    }
    return view.services.empty() ? nullptr : &view.services.front();
}

void ScalingWindow::refresh()
{
    m_model->refresh();
    showView();
}

void ScalingWindow::showView()
{
    if (!m_model->hasController()) {
        m_problem->setText(tr("Scaling is off: %1").arg(m_offReason));
        m_problem->show();
        for (QWidget *w :
             std::initializer_list<QWidget *>{m_approve, m_reject, m_planNow, m_release, m_mode})
            w->setEnabled(false);
        return;
    }
    const ScalingView &view = m_model->view();
    if (view.atMs == m_shownAt)
        return;
    m_shownAt = view.atMs;
    m_mode->setCurrentIndex(m_mode->findData(static_cast<int>(view.mode)));
    m_problem->setVisible(!view.problem.empty());
    m_problem->setText(qtext(view.problem));
    m_servicesModel->setServices(view.services);
    if (!m_services->selectionModel()->currentIndex().isValid() && !view.services.empty())
        m_services->selectRow(0);
    if (const ServiceScalingView *s = selected(view))
        m_charts->show(*s, view.atMs);
    else
        m_charts->clear();
    fillPlan(view);
    m_journalModel->setSteps(view.journal);
    m_auditModel->setEntries(view.audit);
    m_journal->resizeColumnsToContents();
    m_audit->resizeColumnsToContents();
    holdCommandsWhileSending();
}

void ScalingWindow::fillPlan(const ScalingView &view)
{
    const ServiceScalingView *s = selected(view);
    const bool manual = view.mode == ApprovalMode::Manual;
    if (!s) {
        m_plan->setText(tr("No inference services are declared."));
        for (QPushButton *b : {m_approve, m_reject, m_planNow, m_release})
            b->setEnabled(false);
        return;
    }
    QString plan = waitingPlanText(*s);
    plan += QStringLiteral("<br/>") +
            tr("Policy: %1 — %2")
                .arg(reasonText(s->reason),
                     s->why.empty() ? tr("nothing to change") : qtext(s->why).toHtmlEscaped());
    if (s->forecastRps) {
        plan += QStringLiteral("<br/>") +
                tr("Daily shape: earlier days reached %1 req/s from this time of day within "
                   "the forecast lead.")
                    .arg(*s->forecastRps, 0, 'f', 1);
    }
    for (const std::string &note : s->notes)
        plan += QStringLiteral("<br/>") + tr("Held back: %1").arg(qtext(note).toHtmlEscaped());
    m_plan->setText(plan);
    m_approve->setEnabled(s->pendingSteps > 0);
    m_reject->setEnabled(s->pendingSteps > 0);
    m_planNow->setVisible(manual);
    m_planNow->setEnabled(manual && s->pendingSteps == 0);
    if (s->surplusSteps > 0) {
        m_surplus->setText(
            view.mode == ApprovalMode::Automatic || s->releaseApproved
                ? tr("%n scaling step(s) no longer needed: rented nodes go back in the two "
                     "minutes before their paid hour ends, local replicas stop.",
                     nullptr, s->surplusSteps)
                : tr("%n scaling step(s) no longer needed; rented nodes are paid to the end of "
                     "their hour either way.",
                     nullptr, s->surplusSteps));
    } else {
        m_surplus->setText(tr("No surplus rented capacity."));
    }
    m_release->setEnabled(s->surplusSteps > 0 && view.mode != ApprovalMode::Automatic &&
                          !s->releaseApproved);
}

QString ScalingWindow::waitingPlanText(const ServiceScalingView &s)
{
    if (s.pendingSteps == 0) {
        m_shownPlan = {};
        return tr("No plan waiting. ");
    }
    // Only the parts the plan has: local replicas, rented nodes, or both.
    const int local = s.pendingLocalSteps;
    const int rented = s.pendingSteps - s.pendingLocalSteps;
    QStringList parts;
    if (local > 0)
        parts << tr("%n replica(s) on free local cards", nullptr, local);
    if (rented > 0)
        parts << tr("%n rented node(s) for %1 CNY/h", nullptr, rented)
                     .arg(s.pendingCnyPerHour, 0, 'f', 2);
    QString plan = tr("<b>Plan %1 waiting for approval:</b> %2. ")
                       .arg(s.planVersion)
                       .arg(parts.join(tr(" and ")));
    // What approving costs, in the words a budget holder uses.
    QString cost;
    if (rented > 0)
        cost = tr("Rented nodes are paid by the started hour: %1 CNY each hour they run, "
                  "at least %1 CNY.")
                   .arg(s.pendingCnyPerHour, 0, 'f', 2);
    const double budget = s.service.rent.budgetCnyPerHour;
    if (budget > 0) {
        const double after = s.rentedCnyPerHour + s.pendingCnyPerHour;
        cost += QStringLiteral(" ") + tr("With it, %1 rents for %2 of its %3 CNY/h budget (%4%).")
                                          .arg(qtext(s.service.name))
                                          .arg(after, 0, 'f', 2)
                                          .arg(budget, 0, 'f', 2)
                                          .arg(100.0 * after / budget, 0, 'f', 0);
    }
    plan += cost;
    m_shownPlan = {qtext(s.service.name), s.planVersion,
                   tr("Approve plan %1 for %2: %3?\n\n%4")
                       .arg(s.planVersion)
                       .arg(qtext(s.service.name), parts.join(tr(" and ")), cost)};
    return plan;
}

void ScalingWindow::editServices()
{
    auto *dialog = new ServicesDialog(m_hooks.servicesFile, m_hooks.userServicesFile, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ServicesDialog::saved, this, &ScalingWindow::servicesSaved);
    dialog->open();
}

}  // namespace meridian
