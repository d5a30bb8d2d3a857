#include "mainwindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPalette>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include "models/alerts/alertcenter.h"
#include "models/alerts/alertnotifier.h"
#include "models/fleet/datacentersummarymodel.h"
#include "models/fleet/fleettimemachine.h"
#include "models/fleetsnapshotsource.h"
#include "widgets/alerts/alertspanel.h"
#include "widgets/cost/reportswindow.h"
#include "widgets/fleet/carddetailpanel.h"
#include "widgets/fleet/fleetheatmap.h"
#include "widgets/fleet/fleettoolbar.h"
#include "widgets/fleet/fleetusagewindow.h"
#include "widgets/fleet/heatmaplegend.h"
#include "widgets/fleet/nodepage.h"
#include "widgets/fleet/timemachinebar.h"
#include "widgets/problemlabels.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

constexpr int kCardPanelMinimumWidth = 340;
constexpr int kAlertRowsAlwaysShown = 4;

}  // namespace

MainWindow::MainWindow(FleetSnapshotSource &source, QWidget *parent)
    : QMainWindow(parent), m_source(source)
{
    setWindowTitle(tr("Meridian — fleet"));
    m_summary = new DataCenterSummaryModel(this);
    buildFleetView();
    buildCardDock();
    buildAlertsDock();
    m_uptime.start();
    buildToolbar();
    buildMenus();
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_problems = std::make_unique<ProblemLabels>(statusBar());

    connect(&m_source, &FleetSnapshotSource::snapshotChanged, this,
            [this](std::shared_ptr<const FleetSnapshot> s) { applySnapshot(s); });
    if (auto current = m_source.current())
        applySnapshot(current);
    restoreLayout();
}

void MainWindow::buildFleetView()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 4);

    m_summaryView = new QTableView(central);
    m_summaryView->setModel(m_summary);
    m_summaryView->verticalHeader()->hide();
    // Figures take what they need; the name gets the rest.
    m_summaryView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summaryView->horizontalHeader()->setSectionResizeMode(DataCenterSummaryModel::Name,
                                                            QHeaderView::Stretch);
    m_summaryView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_summaryView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summaryView->setFocusPolicy(Qt::NoFocus);
    m_summaryView->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    layout->addWidget(m_summaryView);

    m_legend = new HeatmapLegend(central);
    layout->addWidget(m_legend);

    m_timeBar = new TimeMachineBar(central);
    m_timeBar->hide();
    layout->addWidget(m_timeBar);

    m_heatmap = new FleetHeatmap;
    auto *scroll = new QScrollArea(central);
    scroll->setWidget(m_heatmap);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    setCentralWidget(central);
}

void MainWindow::buildCardDock()
{
    // The card panel stays docked (a hint until a card is chosen): opening a card then
    // changes neither the heatmap's flow nor the window's size. Its content scrolls, so
    // four charts never push the alerts and the status bar off a laptop's screen.
    m_detail = new CardDetailPanel(m_source);
    auto *detailScroll = new QScrollArea;
    detailScroll->setWidget(m_detail);
    detailScroll->setWidgetResizable(true);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_detailDock = new QDockWidget(tr("Card"), this);
    m_detailDock->setObjectName(QStringLiteral("cardDock"));
    m_detailDock->setWidget(detailScroll);
    m_detailDock->setMinimumWidth(kCardPanelMinimumWidth);
    addDockWidget(Qt::RightDockWidgetArea, m_detailDock);
    connect(m_heatmap, &FleetHeatmap::cardSelected, this, &MainWindow::selectCard);
    // A double-click opens the card's node: its cards, links and events side by side.
    connect(m_heatmap, &FleetHeatmap::cardActivated, this, [this](CardHandle card) {
        if (const auto snapshot = m_source.current(); snapshot && card < snapshot->cardCount())
            showNode(snapshot->layout->cardNode[card]);
    });
    connect(m_detail, &CardDetailPanel::nodeRequested, this, &MainWindow::showNode);
}

void MainWindow::buildAlertsDock()
{
    m_alerts = new AlertCenter(m_source.state(), this);
    m_detail->setAlertsView([this] { return &m_alerts->view(); });
    m_alertsPanel = new AlertsPanel(*m_alerts);
    m_alertsDock = new QDockWidget(tr("Alerts"), this);
    m_alertsDock->setObjectName(QStringLiteral("alertsDock"));
    m_alertsDock->setWidget(m_alertsPanel);
    // The triage list keeps room for a few rows whatever else opens or closes.
    m_alertsPanel->setMinimumHeight(m_alertsPanel->minimumRowsHeight(kAlertRowsAlwaysShown));
    addDockWidget(Qt::BottomDockWidgetArea, m_alertsDock);
    connect(m_alertsPanel, &AlertsPanel::cardRequested, this, &MainWindow::selectCard);
    connect(m_alertsPanel, &AlertsPanel::nodeRequested, this, &MainWindow::showNode);
    connect(m_alertsPanel, &AlertsPanel::linkRequested, this, &MainWindow::showLinkInFabric);
    connect(m_alerts, &AlertCenter::alertsChanged, this, [this] {
        int open = 0;
        for (const Alert &a : m_alerts->view().alerts)
            open += a.open(m_lastTriageMs);
        // Following the team's watcher, the title says whose list it is.
        const QString source = m_alerts->sourceText();
        m_alertsDock->setWindowTitle(source.isEmpty()
                                         ? tr("Alerts (%1 open)").arg(open)
                                         : tr("Alerts (%1 open), %2").arg(open).arg(source));
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildToolbar()
{
    m_toolbar = new FleetToolbar(this);
    addToolBar(m_toolbar);
    connect(m_toolbar, &FleetToolbar::metricChanged, this, [this](FleetMetric metric) {
        m_heatmap->setMetric(metric);
        m_legend->setMetric(metric);
    });
    connect(m_toolbar, &FleetToolbar::filterChanged, this, [this] {
        m_heatmap->setFilter(m_toolbar->filter());
        m_status->setText(statusText());
    });
}

void MainWindow::selectCard(CardHandle card)
{
    const auto snapshot = m_source.current();
    if (!snapshot || card >= snapshot->cardCount())
        return;
    m_heatmap->setSelectedCard(card);
    m_detailDock->show();
    m_detail->showCard(card, *snapshot);
}

void MainWindow::selectNode(NodeHandle node)
{
    const auto snapshot = m_source.current();
    if (!snapshot || node >= snapshot->nodeCount())
        return;
    const FleetLayout &l = *snapshot->layout;
    if (!l.nodeCards[node].empty()) {
        selectCard(l.nodeCards[node].front());
    } else {
        // Never reached, so no cards to show: point at it through the search instead.
        m_toolbar->search(QString::fromStdString(l.nodeAddress[node]));
    }
}

void MainWindow::buildMenus()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_detailDock->toggleViewAction());
    QAction *fabric =
        view->addAction(tr("RoCE &fabric…"), this, [this] { showToolWindow(ToolWindow::Fabric); });
    fabric->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    QAction *fleetUsage =
        view->addAction(tr("Fleet &utilisation…"), this, [this] { showFleetUsage(); });
    fleetUsage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_U));
    QAction *alertList = view->addAction(tr("&Alerts"));
    alertList->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(alertList, &QAction::triggered, this, [this] {
        m_alertsDock->show();
        m_alertsDock->raise();
        m_alertsPanel->view()->setFocus();
    });
    view->addAction(tr("Alert &routing…"), this, &MainWindow::showAlertRouting);
    QMenu *theme = view->addMenu(tr("&Theme"));
    auto *themes = new QActionGroup(this);
    for (const auto &[key, label] : {std::pair{QStringLiteral("system"), tr("System")},
                                     std::pair{QStringLiteral("light"), tr("Light")},
                                     std::pair{QStringLiteral("dark"), tr("Dark")}}) {
        QAction *action = theme->addAction(label);
        action->setCheckable(true);
        action->setData(key);
        themes->addAction(action);
        if (key ==
            QSettings().value(QStringLiteral("ui/theme"), QStringLiteral("system")).toString())
            action->setChecked(true);
    }
    connect(themes, &QActionGroup::triggered, this, [this](QAction *action) {
        QSettings().setValue(QStringLiteral("ui/theme"), action->data().toString());
        applyTheme(action->data().toString());
    });
    QMenu *reports = menuBar()->addMenu(tr("&Reports"));
    QAction *usage =
        reports->addAction(tr("&Utilisation and cost…"), this, &MainWindow::showReports);
    usage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    reports->addAction(tr("&Price book…"), this, [this] { showReports()->editPrices(); });
    reports->addAction(tr("P&lan: own, contract, rent…"), this, &MainWindow::showPlan);
    QMenu *scaling = menuBar()->addMenu(tr("&Scaling"));
    QAction *elastic = scaling->addAction(tr("&Elastic scaling…"), this,
                                          [this] { showToolWindow(ToolWindow::Scaling); });
    elastic->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Diagnostics"), this, &MainWindow::showDiagnostics);
}

void MainWindow::applySnapshot(const std::shared_ptr<const FleetSnapshot> &snapshot)
{
    // Triage once a second is plenty for people, and keeps 6,000 cards cheap.
    if (snapshot->takenUnixMs - m_lastTriageMs >= 1000) {
        m_lastTriageMs = snapshot->takenUnixMs;
        m_alerts->update(snapshot);
    }
    std::map<std::string, int> openAlerts;
    for (const auto &dc : snapshot->layout->nodeDataCenter) {
        if (!openAlerts.count(dc))
            openAlerts.emplace(dc, m_alerts->view().openCount(dc, snapshot->takenUnixMs));
    }
    if (m_timeBar->isLive())  // the table says what the fleet shows: a past moment's figures
        m_summary->setSnapshot(*snapshot, openAlerts);
    m_toolbar->learnFleet(*snapshot);
    // Keep the table exactly as tall as its rows: the heatmap gets the rest.
    const int rows = m_summary->rowCount();
    m_summaryView->setFixedHeight(m_summaryView->horizontalHeader()->height() +
                                  rows * m_summaryView->verticalHeader()->defaultSectionSize() + 4);
    m_timeBar->setNow(snapshot->takenUnixMs);
    if (m_timeBar->isLive())  // a moment of the past stays on show until live is chosen
        m_heatmap->setSnapshot(snapshot);
    m_detail->refresh(*snapshot);
    m_status->setText(statusText());
}

void MainWindow::setTimeMachine(FleetTimeMachine *machine)
{
    m_timeMachine = machine;
    m_timeBar->setVisible(machine != nullptr);
    if (!machine)
        return;
    connect(m_timeBar, &TimeMachineBar::momentChosen, this, [this](int64_t atUnixMs) {
        m_timeMachine->request(atUnixMs, m_source.current(), m_source.clock().nowUnixMs());
    });
    connect(m_timeMachine, &FleetTimeMachine::momentReady, this, [this] {
        const FleetMoment &moment = m_timeMachine->latest();
        m_timeBar->showMoment(moment);
        if (m_timeBar->isLive())
            return;
        if (!moment.snapshot) {
            // The file could not be read: back to the live fleet, saying why, rather than
            // a past time over a fleet that is not of it.
            m_timeBar->goLive();
            statusBar()->showMessage(
                tr("Time machine: %1").arg(QString::fromStdString(moment.problem)), 15'000);
            return;
        }
        std::map<std::string, int> openThen;
        for (const std::string &dc : moment.snapshot->layout->nodeDataCenter)
            openThen.emplace(dc, 0);
        for (const AlertIncident &alert : moment.openAlerts)
            ++openThen[alert.dataCenter];
        m_summary->setSnapshot(*moment.snapshot, openThen);
        m_heatmap->setSnapshot(moment.snapshot);
    });
    connect(m_timeBar, &TimeMachineBar::liveChosen, this, [this] {
        if (const auto live = m_source.current())
            applySnapshot(live);
    });
}

QString MainWindow::statusText() const
{
    const auto s = m_source.current();
    if (!s)
        return {};
    std::map<NodeStatus, int> agents;
    for (NodeHandle n = 0; n < s->nodeCount(); ++n)
        ++agents[s->nodeStatus(n)];
    const QLocale locale;
    QString text = tr("%1 agents: %2 live, %3 stale, %4 unreachable")
                       .arg(locale.toString(static_cast<int>(s->nodeCount())))
                       .arg(locale.toString(agents[NodeStatus::Live]))
                       .arg(locale.toString(agents[NodeStatus::Stale]))
                       .arg(locale.toString(agents[NodeStatus::Unreachable]));
    if (agents[NodeStatus::Connecting] > 0)
        text += tr(", %1 connecting").arg(locale.toString(agents[NodeStatus::Connecting]));
    text += tr(" · %1 cards").arg(locale.toString(static_cast<int>(s->cardCount())));
    // A store's copy is a scrape interval old or more: say how old the newest reading is.
    int64_t newest = 0;
    for (int64_t seen : s->cardLastSeenMs)
        newest = std::max(newest, seen);
    if (newest > 0 && s->takenUnixMs - newest >= 2000)
        text += tr(" · newest reading %1 s old")
                    .arg(locale.toString(static_cast<int>((s->takenUnixMs - newest) / 1000)));
    if (m_heatmap->matchingCards() != static_cast<int>(s->cardCount()))
        text += tr(" · %1 match the filter").arg(locale.toString(m_heatmap->matchingCards()));
    return text;
}

void MainWindow::applyTheme(const QString &theme)
{
    // A night shift in a dark room wants a dark console whatever the desktop says.
    if (theme == QStringLiteral("system")) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QApplication::setStyle(QStringLiteral("Fusion"));
    if (theme == QStringLiteral("light")) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Button, QColor(0x34, 0x36, 0x3a));
    dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Mid, QColor(0x5a, 0x5d, 0x63));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe8));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::ToolTipBase, QColor(0x34, 0x36, 0x3a));
    dark.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    dark.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(dark);
}

void MainWindow::showHistoryProblem(const QString &text)
{
    m_problems->show(QStringLiteral("history"), text);
}

void MainWindow::showSourceProblem(const QString &text)
{
    m_problems->show(QStringLiteral("source"), text);
}

void MainWindow::setAlertNotifier(AlertNotifier *notifier, const QString &routingFile)
{
    m_notifier = notifier;
    m_routingFile = routingFile;
    connect(notifier, &AlertNotifier::soundRequested, this, [](const QString &command) {
        // The night shift may be in the next room: a sound for what cannot wait.
        QStringList argv = QProcess::splitCommand(command);
        if (argv.isEmpty() || !QProcess::startDetached(argv.takeFirst(), argv))
            QApplication::beep();
    });
}

void MainWindow::showTriageProblem(const QString &text)
{
    m_problems->show(QStringLiteral("triage"), text);
}

QString MainWindow::sourceProblem() const
{
    return m_problems->text(QStringLiteral("source"));
}

QString MainWindow::historyProblem() const
{
    return m_problems->text(QStringLiteral("history"));
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    const QString theme =
        settings.value(QStringLiteral("ui/theme"), QStringLiteral("system")).toString();
    if (theme != QStringLiteral("system"))
        applyTheme(theme);
    const bool firstRun = !settings.contains(QStringLiteral("window/state"));
    const bool restored =
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    const QSize available = availableScreenSize(this);
    if (!restored || width() > available.width() || height() > available.height()) {
        // First run, or saved on a larger screen: most of this one, which is what a fleet
        // overview wants.
        fitToScreen(this, available * 0.92);
    }
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (firstRun) {
        // The fleet fits in less now: the alert list takes what is left, for its rows.
        resizeDocks({m_alertsDock}, {height() * 3 / 10}, Qt::Vertical);
        resizeDocks({m_detailDock}, {std::clamp(width() * 3 / 10, kCardPanelMinimumWidth, 520)},
                    Qt::Horizontal);
    }
    // An empty card panel would take the fleet's room: it opens with the first card, at
    // the width it was left at, however the last session ended.
    m_detailDock->hide();
    m_toolbar->restoreMetric();
}

void MainWindow::setCloseWarning(std::function<QString()> warning)
{
    m_closeWarning = std::move(warning);
}

bool MainWindow::confirmClose()
{
    const QString warning = m_closeWarning ? m_closeWarning() : QString();
    if (warning.isEmpty())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Close Meridian?"), warning,
                    QMessageBox::Close | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("closeWarning"));
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Close;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!confirmClose()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

}  // namespace meridian
