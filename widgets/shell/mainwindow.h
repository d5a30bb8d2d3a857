// The console's main window: per-data-center summary on top, the whole fleet as a
// heatmap below, with the metric, filters and search in one toolbar. Lives on the UI
// thread and only ever reads snapshots.
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <map>
#include <memory>

#include "models/fleetsnapshotsource.h"
#include "widgets/cost/reportsources.h"

class QDockWidget;
class QLabel;
class QTableView;

namespace meridian {

class FleetUsageWindow;
class NodePage;

class AlertCenter;
class AlertNotifier;
class AlertsPanel;
class CardDetailPanel;
class DataCenterSummaryModel;
class FleetHeatmap;
class FleetToolbar;
class FleetSnapshotSource;
class FleetTimeMachine;
class TimeMachineBar;
class HeatmapLegend;
class ProblemLabels;
class PlanWindow;
class ReportsWindow;

class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(FleetSnapshotSource &source, QWidget *parent = nullptr);
    ~MainWindow() override;

    FleetHeatmap *heatmap() const { return m_heatmap; }
    CardDetailPanel *detail() const { return m_detail; }
    AlertCenter *alerts() const { return m_alerts; }
    void selectNode(NodeHandle node);
    void selectCard(CardHandle card);
    // The node's page (its cards, links and events), opened or brought forward.
    NodePage *showNode(NodeHandle node);
    // Fleet and data-center utilisation over 24 h or 7 days, from the history file.
    FleetUsageWindow *showFleetUsage();
    DataCenterSummaryModel *summary() const { return m_summary; }
    // The fleet time machine over the history file: a slider back through 7 days above
    // the fleet. Without one the bar is not shown.
    void setTimeMachine(FleetTimeMachine *machine);
    TimeMachineBar *timeMachineBar() const { return m_timeBar; }
    QString statusText() const;
    // A lasting warning in the status bar (e.g. the history file could not be opened or
    // written); an empty text takes it away.
    void showHistoryProblem(const QString &text);
    QString historyProblem() const;
    // The same for the fleet's source (a Prometheus-compatible store that does not answer).
    void showSourceProblem(const QString &text);
    QString sourceProblem() const;
    // The same for the alert triage shared through the history file.
    void showTriageProblem(const QString &text);
    // What sends alerts beyond the window; Alerts → Routing… shows it and tests routes.
    void setAlertNotifier(AlertNotifier *notifier, const QString &routingFile);
    void showAlertRouting();
    // Where Reports read the history and the price book from.
    void setReportSources(const ReportSources &sources);
    // Opens (or raises) the Reports window.
    ReportsWindow *showReports();
    PlanWindow *showPlan();
    // Windows the session makes: Scaling → Elastic scaling, View → RoCE fabric. Each is
    // made once, on first use; a new factory closes the window made by the old one.
    enum class ToolWindow { Scaling, Fabric };
    void setToolWindowFactory(ToolWindow which, std::function<QWidget *(QWidget *parent)> factory);
    QWidget *showToolWindow(ToolWindow which);
    // The fabric window, focused on one NIC's link (from a link alert).
    void showLinkInFabric(NodeHandle node, const QString &netdev);
    // Asked when the window is about to close: what closing would leave undone (rented
    // nodes this console's autoscaler holds), to be confirmed; empty closes at once.
    void setCloseWarning(std::function<QString()> warning);

Q_SIGNALS:
    void pricesSaved(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    bool confirmClose();
    // The summary table, legend, time machine bar and heatmap, top to bottom.
    void buildFleetView();
    void buildCardDock();
    void buildAlertsDock();
    void buildToolbar();
    void buildMenus();
    void showDiagnostics();
    void applySnapshot(const std::shared_ptr<const FleetSnapshot> &snapshot);
    void restoreLayout();
    void applyTheme(const QString &theme);

    FleetSnapshotSource &m_source;
    DataCenterSummaryModel *m_summary = nullptr;
    FleetHeatmap *m_heatmap = nullptr;
    HeatmapLegend *m_legend = nullptr;
    TimeMachineBar *m_timeBar = nullptr;
    FleetTimeMachine *m_timeMachine = nullptr;  // null: no history file
    QTableView *m_summaryView = nullptr;
    FleetToolbar *m_toolbar = nullptr;
    QLabel *m_status = nullptr;
    CardDetailPanel *m_detail = nullptr;
    AlertCenter *m_alerts = nullptr;
    AlertsPanel *m_alertsPanel = nullptr;
    QDockWidget *m_alertsDock = nullptr;
    int64_t m_lastTriageMs = 0;
    QDockWidget *m_detailDock = nullptr;
    QElapsedTimer m_uptime;
    ReportSources m_reportSources;
    ReportsWindow *m_reports = nullptr;
    PlanWindow *m_plan = nullptr;
    QPointer<NodePage> m_nodePage;
    QPointer<FleetUsageWindow> m_fleetUsage;
    struct ToolWindowSlot {
        std::function<QWidget *(QWidget *parent)> factory;
        QPointer<QWidget> window;
    };
    std::map<ToolWindow, ToolWindowSlot> m_toolWindows;
    std::function<QString()> m_closeWarning;
    std::unique_ptr<ProblemLabels> m_problems;
    AlertNotifier *m_notifier = nullptr;
    QString m_routingFile;
};

}  // namespace meridian
