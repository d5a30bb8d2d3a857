// Between the Scaling window and a ScalingControl (this console's controller or
// meridian-scaled's): the latest view, read on a timer (reading never waits on the
// network), and the operator's commands, sent off the UI thread one at a time so a
// controller on a slow link never freezes the window. Lives on the UI thread.
#pragma once

#include <QFuture>
#include <QObject>
#include <QString>
#include <functional>

#include "autoscaler/scalingcontrol.h"

class QTimer;

namespace meridian {

class ScalingViewModel final : public QObject {
    Q_OBJECT
public:
    enum class Command { SetMode, PlanNow, Approve, Reject, Release };

    // `control` may be null (scaling is off); it must outlive this model.
    explicit ScalingViewModel(ScalingControl *control, QObject *parent = nullptr);
    // Waits for a command still on its way (at most its call timeout): it holds `control`.
    ~ScalingViewModel() override;

    bool hasController() const { return m_control != nullptr; }
    const ScalingView &view() const { return m_view; }
    // Reads the view now; viewChanged() if it is a new one.
    void refresh();

    // Each returns at once, or does nothing while another command is on its way;
    // commandFinished() says how it went. `who` is the operator, for the audit log.
    void setMode(ApprovalMode mode, const std::string &who);
    void requestPlan(const std::string &service, const std::string &who);
    // Names the plan version the operator saw: a plan replaced since is refused.
    void approvePlan(const std::string &service, const std::string &who, int64_t shownVersion);
    void rejectPlan(const std::string &service, const std::string &who, const std::string &why);
    void approveRelease(const std::string &service, const std::string &who);
    bool sending() const { return m_sending.isRunning(); }

Q_SIGNALS:
    void viewChanged();
    void sendingStarted(Command command);
    // `error` is empty when the controller did it; else its refusal or why it was not sent.
    void commandFinished(Command command, const QString &error);

private:
    void send(Command command, std::function<Status()> call);

    ScalingControl *m_control;
    ScalingView m_view;
    QFuture<Status> m_sending;
    QTimer *m_timer = nullptr;
};

}  // namespace meridian
