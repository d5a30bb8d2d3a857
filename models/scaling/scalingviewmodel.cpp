#include "scalingviewmodel.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace meridian {

ScalingViewModel::ScalingViewModel(ScalingControl *control, QObject *parent)
    : QObject(parent), m_control(control)
{
    if (!m_control)
        return;
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, &ScalingViewModel::refresh);
    m_timer->start(1000);
}

ScalingViewModel::~ScalingViewModel()
{
    m_sending.waitForFinished();
}

void ScalingViewModel::refresh()
{
    if (!m_control)
        return;
    ScalingView view = m_control->view();
    if (view.atMs == m_view.atMs && view.atMs != 0)
        return;
    m_view = std::move(view);
    Q_EMIT viewChanged();
}

void ScalingViewModel::setMode(ApprovalMode mode, const std::string &who)
{
    send(Command::SetMode,
         [control = m_control, mode, who] { return control->setMode(mode, who); });
}

void ScalingViewModel::requestPlan(const std::string &service, const std::string &who)
{
    send(Command::PlanNow,
         [control = m_control, service, who] { return control->requestPlan(service, who); });
}

void ScalingViewModel::approvePlan(const std::string &service, const std::string &who,
                                   int64_t shownVersion)
{
    send(Command::Approve, [control = m_control, service, who, shownVersion] {
        return control->approvePlan(service, who, shownVersion);
    });
}

void ScalingViewModel::rejectPlan(const std::string &service, const std::string &who,
                                  const std::string &why)
{
    send(Command::Reject, [control = m_control, service, who, why] {
        return control->rejectPlan(service, who, why);
    });
}

void ScalingViewModel::approveRelease(const std::string &service, const std::string &who)
{
    send(Command::Release,
         [control = m_control, service, who] { return control->approveRelease(service, who); });
}

void ScalingViewModel::send(Command command, std::function<Status()> call)
{
    if (!m_control || sending())
        return;
    m_sending = QtConcurrent::run(std::move(call));
    Q_EMIT sendingStarted(command);
    auto *watcher = new QFutureWatcher<Status>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, command] {
        watcher->deleteLater();
        const Status s = watcher->result();
        // What the command changed (a refused plan: the new one) shows at once.
        m_view.atMs = 0;
        refresh();
        Q_EMIT commandFinished(command, s ? QString() : QString::fromStdString(s.message()));
    });
    watcher->setFuture(m_sending);
}

}  // namespace meridian
