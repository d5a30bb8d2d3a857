// Elastic scale-up, as ops staff drive it: each inference service with its signals over
// time, its capacity on our cards and on rented ones, desired against actual, the plan
// waiting for approval with what it costs per hour (approve / reject), surplus rented
// nodes that can go back, and the journal of steps and the audit log. It reaches the
// controller only through ScalingViewModel: the view once a second, commands off the UI
// thread.
#pragma once

#include <QMainWindow>
#include <functional>

#include "models/scaling/scalingtablemodels.h"
#include "models/scaling/scalingviewmodel.h"

class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QTableView;
class QDoubleSpinBox;

namespace meridian {

class ScalingCharts;

struct ScalingWindowHooks {
    // Set with the embedded simulator: the operator can put load on a service.
    std::function<bool(const std::string &service, double requestsPerSecond)> setSimulatedDemand;
    std::function<double(const std::string &service)> simulatedDemand;
    QString servicesFile;      // what the controller runs with; empty: not editable here
    QString userServicesFile;  // where the editor saves
    QString controllerPlace;   // where a headless controller runs, for the toolbar
    QString operatorName;      // who approvals are audited as
    // Asks the operator to confirm; a message box unless set (tests answer here).
    std::function<bool(const QString &title, const QString &question)> confirm;
    // Shows a command the controller refused or never got; a message box unless set.
    std::function<void(const QString &title, const QString &message)> warn;
};

class ScalingWindow final : public QMainWindow {
    Q_OBJECT
public:
    // `controller` (in this console or meridian-scaled's) may be null: the window then
    // says why scaling is off.
    ScalingWindow(ScalingControl *controller, QString offReason, ScalingWindowHooks hooks,
                  QWidget *parent = nullptr);

    void refresh();
    QString selectedService() const;
    QTableView *servicesTable() const { return m_services; }
    QTableView *journalTable() const { return m_journal; }
    QPushButton *approveButton() const { return m_approve; }
    // A policy reason in plain words ("more demand", not "up").
    static QString reasonText(ScalingReason reason);

Q_SIGNALS:
    void servicesSaved(const QString &path);

private:
    void buildUi();
    void buildToolBar();
    QGroupBox *buildPlanBox(QWidget *parent);
    void fillPlan(const ScalingView &view);
    // The plan waiting for approval in words (what it rents, what it costs); remembered
    // for the approval's question.
    QString waitingPlanText(const ServiceScalingView &s);
    const ServiceScalingView *selected(const ScalingView &view) const;
    void approveShownPlan();
    bool confirm(const QString &title, const QString &question);
    void editServices();
    // Shows the model's latest view (if it is not on screen already).
    void showView();
    // While a command is on its way (off the UI thread), its buttons wait.
    void holdCommandsWhileSending();
    static QString commandTitle(ScalingViewModel::Command command);

    ScalingViewModel *m_model;
    QString m_offReason;
    ScalingWindowHooks m_hooks;
    QComboBox *m_mode = nullptr;
    QLabel *m_problem = nullptr;
    QTableView *m_services = nullptr;
    ScalingServicesModel *m_servicesModel = nullptr;
    ScalingCharts *m_charts = nullptr;
    QLabel *m_plan = nullptr;
    // The plan on screen, as approval must name it.
    struct ShownPlan {
        QString service;
        int64_t version = 0;
        QString summary;  // what it adds and costs, for the confirmation
    } m_shownPlan;
    QPushButton *m_approve = nullptr;
    QPushButton *m_reject = nullptr;
    QPushButton *m_planNow = nullptr;
    QLabel *m_surplus = nullptr;
    QPushButton *m_release = nullptr;
    QDoubleSpinBox *m_demand = nullptr;
    QTableView *m_journal = nullptr;
    ScalingJournalModel *m_journalModel = nullptr;
    QTableView *m_audit = nullptr;
    ScalingAuditModel *m_auditModel = nullptr;
    int64_t m_shownAt = -1;
    QLabel *m_sendingLabel = nullptr;
};

}  // namespace meridian
