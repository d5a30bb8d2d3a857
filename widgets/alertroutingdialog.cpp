#include "alertroutingdialog.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include "core/clock.h"

#include "models/alertguidance.h"
#include "models/alertnotifier.h"
#include "models/desktopnotifier.h"
#include "screenfit.h"

namespace meridian {

namespace {

QString filterText(const AlertRoute &route)
{
    QStringList parts;
    parts << (route.minimumSeverity == AlertSeverity::Critical
                  ? AlertRoutingDialog::tr("critical only")
                  : AlertRoutingDialog::tr("warning and critical"));
    QStringList kinds;
    for (AlertKind k : route.kinds)
        kinds << alertKindTitle(k);
    if (!kinds.isEmpty())
        parts << kinds.join(QStringLiteral(", "));
    QStringList dcs;
    for (const std::string &dc : route.dataCenters)
        dcs << QString::fromStdString(dc);
    if (!dcs.isEmpty())
        parts << dcs.join(QStringLiteral(", "));
    return parts.join(QStringLiteral(" · "));
}

QString originOf(const std::string &url)
{
    // The key or token in a webhook's URL is a secret: show where it goes, not the key.
    const QString text = QString::fromStdString(url);
    const int query = text.indexOf(QLatin1Char('?'));
    return query < 0 ? text : text.left(query) + QStringLiteral("?…");
}

}  // namespace

AlertRoutingDialog::AlertRoutingDialog(AlertNotifier &notifier, DesktopNotifier *desktop,
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
    m_table = new QTableWidget(this);
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels(
        {tr("Route"), tr("Kind"), tr("Address"), tr("Takes"), tr("Delivered"), tr("Last problem")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setRowCount(static_cast<int>(routing.routes.size()));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const AlertRoute &route = routing.routes[static_cast<size_t>(row)];
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(route.name)));
        m_table->setItem(row, 1,
                         new QTableWidgetItem(QString::fromLatin1(routeKindName(route.kind))));
        m_table->setItem(row, 2, new QTableWidgetItem(originOf(route.url)));
        m_table->setItem(row, 3, new QTableWidgetItem(filterText(route)));
        m_table->setItem(row, 4, new QTableWidgetItem);
        m_table->setItem(row, 5, new QTableWidgetItem);
    }
    if (m_table->rowCount() > 0)
        m_table->selectRow(0);
    auto *test = new QPushButton(tr("Send test to route"), this);
    test->setEnabled(m_table->rowCount() > 0);
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
    const std::vector<RouteStatus> status = m_notifier.dispatcher().status();
    for (int row = 0; row < m_table->rowCount() && row < static_cast<int>(status.size()); ++row) {
        const RouteStatus &s = status[static_cast<size_t>(row)];
        QString delivered = QString::number(s.delivered);
        if (s.waiting > 0)
            delivered += tr(", %1 waiting").arg(s.waiting);
        if (s.droppedAfterRetries > 0)
            delivered += tr(", %1 given up").arg(s.droppedAfterRetries);
        m_table->item(row, 4)->setText(delivered);
        m_table->item(row, 5)->setText(QString::fromStdString(s.lastError));
        m_table->item(row, 5)->setToolTip(QString::fromStdString(s.lastError));
    }
}

void AlertRoutingDialog::testSelected()
{
    const int row = m_table->currentRow();
    if (row < 0)
        return;
    const std::string name = m_table->item(row, 0)->text().toStdString();
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
