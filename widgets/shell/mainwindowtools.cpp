// The windows and dialogs the main window opens beside the fleet: the node page, fleet
// utilisation, reports, the tool windows (fabric, scaling), diagnostics and alert routing.
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QStatusBar>

#include "diagnosticsdialog.h"
#include "mainwindow.h"
#include "models/alerts/alertnotifier.h"
#include "models/fleetsnapshotsource.h"
#include "widgets/alerts/alertroutingdialog.h"
#include "widgets/alerts/alertspanel.h"
#include "widgets/cost/reportswindow.h"
#include "widgets/fabric/fabricwindow.h"
#include "widgets/fleet/fleetusagewindow.h"
#include "widgets/fleet/nodepage.h"
#include "widgets/plan/planwindow.h"

namespace meridian {

NodePage *MainWindow::showNode(NodeHandle node)
{
    const auto snapshot = m_source.current();
    if (!snapshot || node >= snapshot->nodeCount())
        return nullptr;
    if (!m_nodePage) {
        m_nodePage = new NodePage(m_source, node, this);
        connect(m_nodePage, &NodePage::cardRequested, this, &MainWindow::selectCard);
    } else {
        m_nodePage->showNode(node);
    }
    m_nodePage->show();
    m_nodePage->raise();
    m_nodePage->activateWindow();
    return m_nodePage;
}

FleetUsageWindow *MainWindow::showFleetUsage()
{
    if (m_reportSources.historyFile.isEmpty()) {
        statusBar()->showMessage(tr("Fleet utilisation needs the history file, which is off "
                                    "in this session"),
                                 8000);
        return nullptr;
    }
    if (!m_fleetUsage)
        m_fleetUsage = new FleetUsageWindow(m_reportSources.historyFile, m_source.clock(), this);
    m_fleetUsage->show();
    m_fleetUsage->raise();
    m_fleetUsage->activateWindow();
    return m_fleetUsage;
}

void MainWindow::setReportSources(const ReportSources &sources)
{
    m_reportSources = sources;
}

ReportsWindow *MainWindow::showReports()
{
    if (!m_reports) {
        m_reports = new ReportsWindow(m_reportSources, this, m_source.clock());
        connect(m_reports, &ReportsWindow::pricesSaved, this, &MainWindow::pricesSaved);
    }
    m_reports->show();
    m_reports->raise();
    m_reports->activateWindow();
    return m_reports;
}

PlanWindow *MainWindow::showPlan()
{
    if (!m_plan) {
        m_plan = new PlanWindow(this);
        m_plan->setPriceBook(m_reportSources.priceBookFile);
        m_plan->setHistoryFile(m_reportSources.historyFile);
    }
    m_plan->show();
    m_plan->raise();
    m_plan->activateWindow();
    return m_plan;
}

void MainWindow::setToolWindowFactory(ToolWindow which,
                                      std::function<QWidget *(QWidget *parent)> factory)
{
    ToolWindowSlot &slot = m_toolWindows[which];
    slot.factory = std::move(factory);
    const bool wasOpen = slot.window && slot.window->isVisible();
    delete slot.window;  // it may hold on to what the old factory made
    if (wasOpen)
        showToolWindow(which);
}

QWidget *MainWindow::showToolWindow(ToolWindow which)
{
    ToolWindowSlot &slot = m_toolWindows[which];
    if (!slot.window && slot.factory) {
        slot.window = slot.factory(this);
        if (auto *fabric = qobject_cast<FabricWindow *>(slot.window.data())) {
            // From the fabric back to the triage list.
            connect(
                fabric, &FabricWindow::alertsRequested, this,
                [this](const QString &node, const QString &netdev) {
                    m_alertsDock->show();
                    m_alertsDock->raise();
                    if (!m_alertsPanel->selectLinkAlert(node.toStdString(), netdev.toStdString()))
                        statusBar()->showMessage(tr("No alert for %1 %2").arg(node, netdev), 5000);
                });
        }
    }
    if (!slot.window)
        return nullptr;
    slot.window->show();
    slot.window->raise();
    slot.window->activateWindow();
    return slot.window;
}

void MainWindow::showLinkInFabric(NodeHandle node, const QString &netdev)
{
    selectNode(node);
    auto *fabric = qobject_cast<FabricWindow *>(showToolWindow(ToolWindow::Fabric));
    const auto snapshot = m_source.current();
    if (fabric && snapshot && node < snapshot->layout->nodeCount())
        fabric->focusNic(snapshot->layout->nodeId[node], netdev.toStdString());
}

void MainWindow::showDiagnostics()
{
    auto *dialog = new DiagnosticsDialog(m_source, m_uptime, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::showAlertRouting()
{
    if (!m_notifier)
        return;
    auto *dialog = new AlertRoutingDialog(*m_notifier, m_notifier->desktop(), m_routingFile, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

}  // namespace meridian
