#include "alertroutingdialog.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/clock.h"
#include "models/alerts/alertdesk.h"
#include "models/alerts/alertnotifier.h"
#include "models/alerts/alertroutesmodel.h"
#include "widgets/screenfit.h"

namespace meridian {

AlertRoutingDialog::AlertRoutingDialog(AlertNotifier &notifier, AlertDesk *desktop,
                                       const QString &routingFile, QWidget *parent)
    : QDialog(parent), m_notifier(notifier), m_desktop(desktop)
{
    setWindowTitle(tr("Alert routing"));
    const AlertRouting &routing = notifier.dispatcher().routing();
    auto *file = new QLabel(
        tr("Routes from <b>%1</b> (docs/alerting.md). Desktop notifications: %2.")
            .arg(routingFile.toHtmlEscaped(), routing.desktopNotifications ? tr("on") : tr("off")),
        this);
    file->setWordWrap(true);
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_routes = new AlertRoutesModel(this);
    m_routes->setRoutes(routing.routes, notifier.dispatcher().status());
    m_table = new QTableView(this);
    m_table->setModel(m_routes);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    if (m_routes->rowCount() > 0)
        m_table->selectRow(0);
    auto *test = new QPushButton(tr("Send test to route"), this);
    test->setEnabled(m_routes->rowCount() > 0);
    connect(test, &QPushButton::clicked, this, &AlertRoutingDialog::testSelected);
    auto *testDesktop = new QPushButton(tr("Test desktop notification"), this);
    testDesktop->setEnabled(desktop && desktop->available());
    connect(testDesktop, &QPushButton::clicked, this, [this] {
        m_desktop->notify(tr("Meridian test notification"),
                          tr("If you read this, desktop notifications work."), false);
        m_result->setText(tr("Desktop notification sent."));
    });
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(test);
    buttons->addWidget(testDesktop);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(file);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_result);
    auto *timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &AlertRoutingDialog::refresh);
    timer->start(1000);
    refresh();
    m_table->resizeColumnsToContents();
    fitToScreen(this, QSize(980, 420));
}

void AlertRoutingDialog::refresh()
{
    m_routes->setRoutes(m_notifier.dispatcher().routing().routes, m_notifier.dispatcher().status());
}

void AlertRoutingDialog::testSelected()
{
    const QModelIndexList picked = m_table->selectionModel()->selectedRows();
    if (picked.isEmpty())
        return;
    const std::string name =
        picked.front().data(AlertRoutesModel::NameRole).toString().toStdString();
    m_result->setText(tr("Sending a test to %1…").arg(QString::fromStdString(name)));
    const AlertNotice notice = AlertNotifier::testNotice(m_notifier.clock().nowUnixMs());
    auto *watcher = new QFutureWatcher<std::string>(this);
    connect(watcher, &QFutureWatcher<std::string>::finished, this, [this, watcher, name] {
        const std::string error = watcher->result();
        const QString text = error.empty()
                                 ? tr("%1 took the test alert.").arg(QString::fromStdString(name))
                                 : tr("Test failed: %1").arg(QString::fromStdString(error));
        m_result->setText(text);
        watcher->deleteLater();
        Q_EMIT testFinished(text);
    });
    // Copies, not the dispatcher: the console may close while a slow route is still sending.
    watcher->setFuture(QtConcurrent::run(m_notifier.dispatcher().testSend(name, notice)));
}

QString AlertRoutingDialog::lastTestResult() const
{
    return m_result->text();
}

}  // namespace meridian
