#include "consolesession.h"

#include <QFile>
#include <QJsonDocument>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <memory>

#include "alerts/alertmanagersilences.h"
#include "alerts/alertrouting.h"
#include "alerts/alerttriagelog.h"
#include "autoscaler/remotescalingcontrol.h"
#include "autoscaler/scalingcontroller.h"
#include "configlocations.h"
#include "core/clock.h"
#include "core/openfiles.h"
#include "cost/costrecords.h"
#include "cost/pricebookfile.h"
#include "fleetlink/fleetclient.h"
#include "fleetlink/usagebackfill.h"
#include "history/historystore.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertnotifier.h"
#include "models/alerts/desktopnotifier.h"
#include "models/consolediagnostics.h"
#include "models/fleet/fleettimemachine.h"
#include "models/fleet/storehistoryloader.h"
#include "models/fleetsnapshotsource.h"
#include "promsource/prometheussource.h"
#include "sim/simfleet.h"
#include "storesources.h"
#include "widgets/fabric/fabricwindow.h"
#include "widgets/fleet/carddetailpanel.h"
#include "widgets/scaling/scalingwindow.h"
#include "widgets/shell/mainwindow.h"

namespace meridian {

namespace {

// What the autoscaler's view says of each service, for the alert rules on customers' trouble.
std::vector<ServiceObservation> serviceObservations(const ScalingView &view)
{
    std::vector<ServiceObservation> observed;
    for (const ServiceScalingView &s : view.services) {
        ServiceObservation o;
        o.service = s.service.name;
        o.objectiveSeconds = s.service.objectiveP95Seconds;
        if (!s.history.empty()) {
            o.ttftP95Seconds = s.history.back().ttftP95Seconds;
            o.queueDelayP95Seconds = s.history.back().queueDelayP95Seconds;
        }
        if (s.pendingSteps > 0)
            o.planWaiting = QObject::tr("%n step(s) waiting, ¥%1/h", nullptr, s.pendingSteps)
                                .arg(s.pendingCnyPerHour, 0, 'f', 0)
                                .toStdString();
        observed.push_back(std::move(o));
    }
    return observed;
}

}  // namespace

ConsoleSession::ConsoleSession(ConsoleOptions options) : m_options(std::move(options))
{
    m_uptime.start();
}

ConsoleSession::~ConsoleSession()
{
    m_window.reset();
    m_storeHistory.reset();
    m_usageHistory.reset();
    m_timeMachine.reset();
    m_scaling.reset();
    m_journal.reset();
    m_source.reset();
    m_stores.clear();  // their threads write usage minutes into the history
    m_backfill.reset();
    m_history.reset();
    if (m_client)
        m_client->stop();
    if (m_sim)
        m_sim->stop();
}

Status ConsoleSession::start()
{
    if (Status named = checkNamedFiles(); !named)
        return named;
    m_openFileLimit = raiseOpenFileLimit();
    auto inventory = fleetInventory();
    if (!inventory)
        return inventory.error();
    if (Status stores = startStores(inventory.value()); !stores)
        return stores;
    m_client = std::make_unique<FleetClient>(m_state, SystemClock::instance());
    m_client->connect(inventory.value());
    m_poolAddress = inventory->capacityPool;
    m_scalingController = inventory->scalingController;
    m_security = inventory->security;
    openHistory(inventory.value());
    m_source = std::make_unique<FleetSnapshotSource>(m_state, SystemClock::instance());
    m_window = std::make_unique<MainWindow>(*m_source);
    if (!m_stores.empty())
        showStoreHistory();
    if (m_history) {
        m_usageHistory = usageHistoryLoader(m_history->path());
        m_window->detail()->setUsageHistory(m_usageHistory.get());
        m_timeMachine = std::make_unique<FleetTimeMachine>(m_history->path());
        m_window->setTimeMachine(m_timeMachine.get());
    }
    if (m_sim)
        m_window->setWindowTitle(QObject::tr("Meridian — simulated fleet (plaintext on loopback)"));
    showReports();
    watchHistory();
    startScaling(servicesInForce(m_options.servicesFile.toStdString()));
    startFabric();
    startAlertSharing();
    return {};
}

Status ConsoleSession::checkNamedFiles()
{
    // Files named on the command line are what the operator meant to run with: a broken
    // one stops the start with its error, as a broken inventory does.
    if (!m_options.servicesFile.isEmpty()) {
        auto services = loadInferenceServices(m_options.servicesFile.toStdString());
        if (!services)
            return services.error();
        if (auto policies = loadServicePolicies(services.value()); !policies)
            return policies.error();
    }
    if (!m_options.fabricFile.isEmpty()) {
        if (auto fabric = loadFabricFile(m_options.fabricFile.toStdString()); !fabric)
            return fabric.error();
    }
    if (!m_options.scalingPolicyFile.isEmpty()) {
        auto policy = loadScalingPolicy(m_options.scalingPolicyFile.toStdString());
        if (!policy)
            return policy.error();
        m_scalingPolicy = policy.value();
    }
    // Named: refused like the others. The file in the user's config directory, found
    // rather than named, is said in the status bar instead (startAlertSharing).
    if (!m_options.alertRoutingFile.isEmpty()) {
        if (auto routing = loadAlertRouting(m_options.alertRoutingFile.toStdString()); !routing)
            return routing.error();
    }
    return {};
}

Result<FleetInventory> ConsoleSession::fleetInventory()
{
    FleetInventory inventory;
    if (!m_options.prometheusUrl.isEmpty()) {
        StoreSource store;
        store.url = m_options.prometheusUrl.toStdString();
        store.scrapeIntervalS = m_options.scrapeIntervalS;
        inventory.stores.push_back(store);
    }
    if (m_options.inventoryFile.isEmpty() && !inventory.stores.empty())
        return inventory;  // the fleet comes from the store alone
    if (m_options.inventoryFile.isEmpty()) {
        if (Status started = startEmbeddedFleet(inventory); !started)
            return started.error();
        return inventory;
    }
    auto loaded = loadInventory(m_options.inventoryFile.toStdString());
    if (!loaded)
        return loaded.error();
    auto stores = std::move(inventory.stores);
    inventory = std::move(loaded).value();
    inventory.stores.insert(inventory.stores.end(), stores.begin(), stores.end());
    if (Status room = checkRoomForAgents(inventory.agents.size(), m_openFileLimit, false); !room)
        return Error{m_options.inventoryFile.toStdString() + ": " + room.message()};
    return inventory;
}

Status ConsoleSession::startEmbeddedFleet(FleetInventory &inventory)
{
    if (Status room = checkRoomForAgents(static_cast<size_t>(m_options.simulatedNodes),
                                         m_openFileLimit, true);
        !room)
        return room;
    // The embedded fleet is reached through the same gRPC path as a real one.
    SimFleetOptions simOptions;
    simOptions.nodes = m_options.simulatedNodes;
    // The simulated replicas serve the services the console scales.
    if (auto services =
            loadInferenceServices(servicesInForce(m_options.servicesFile.toStdString())))
        simOptions.services = std::move(services).value();
    m_sim = std::make_unique<SimFleet>(simOptions, SystemClock::instance());
    if (Status status = m_sim->start(); !status)
        return Error{"the embedded simulated fleet did not start: " + status.message()};
    for (const SimNodeView &node : m_sim->nodes())
        inventory.agents.push_back({node.nodeId, node.address, node.dataCenter});
    inventory.capacityPool = m_sim->controlAddress();
    return {};
}

Status ConsoleSession::startStores(const FleetInventory &inventory)
{
    auto stores = startStoreSources(m_state, inventory.stores);
    if (!stores)
        return stores.error();
    m_stores = std::move(stores).value();
    return {};
}

void ConsoleSession::openHistory(const FleetInventory &inventory)
{
    // The cost history is filled in the background; without it the console still runs.
    const std::string historyPath = m_options.historyFile.isEmpty()
                                        ? HistoryStore::defaultPath()
                                        : m_options.historyFile.toStdString();
    auto history = HistoryStore::open(historyPath);
    if (!history) {
        m_historyProblem = history.error().message;
        return;
    }
    m_history = std::move(history).value();
    recordPrices(priceBookInForce());
    // Over the connections just opened: one channel per agent, its inventory asked once.
    m_backfill = std::make_unique<UsageBackfill>(inventory, *m_history, 300,
                                                 SystemClock::instance(), m_client.get());
    for (const auto &store : m_stores)
        store->setUsageHistory(m_history.get());
}

void ConsoleSession::showStoreHistory()
{
    // A card's panel charts what its store kept; each store is asked until one knows it.
    auto fetch = [this](const std::string &uuid, CardMetric metric, int64_t from, int64_t to,
                        int64_t step) -> Result<std::vector<HistoryPoint>> {
        Error last{"no store knows card " + uuid};
        for (const auto &store : m_stores) {
            auto points = store->history(uuid, metric, from, to, step);
            if (points)
                return points;
            last = points.error();
        }
        return last;
    };
    m_storeHistory = std::make_unique<StoreHistoryLoader>(
        fetch, m_stores.front()->options().scrapeIntervalMs / 1000);
    m_window->detail()->setStoreHistory(m_storeHistory.get());
    // A store that does not answer (or is not one) is said in the status bar, also
    // before any of its nodes has been shown.
    // It goes to stderr too, once per change, for whoever runs the console from a shell
    // or a unit file.
    auto *watch = new QTimer(m_window.get());
    QObject::connect(watch, &QTimer::timeout, m_window.get(), [this] {
        const QString problems = storeProblems().join(QStringLiteral("; "));
        m_window->showSourceProblem(problems);
        if (problems != m_storeProblemsSaid && !problems.isEmpty())
            std::fprintf(stderr, "meridian: %s\n", qPrintable(problems));
        m_storeProblemsSaid = problems;
    });
    watch->start(1000);
}

QStringList ConsoleSession::storeProblems() const
{
    QStringList problems;
    for (const auto &store : m_stores) {
        if (const std::string problem = store->lastProblem(); !problem.empty())
            problems << QString::fromStdString(problem);
    }
    return problems;
}

void ConsoleSession::showReports()
{
    ReportSources sources;
    if (m_history)
        sources.historyFile = QString::fromStdString(m_history->path());
    sources.priceBookFile = QString::fromStdString(priceBookInForce());
    sources.userPriceBookFile = QString::fromStdString(userPriceBookPath());
    m_window->setReportSources(sources);
    QObject::connect(m_window.get(), &MainWindow::pricesSaved, m_window.get(),
                     [this](const QString &path) { recordPrices(path.toStdString()); });
}

void ConsoleSession::watchHistory()
{
    if (!m_historyProblem.empty()) {
        m_window->showHistoryProblem(
            QObject::tr("Cost history is off: %1").arg(QString::fromStdString(m_historyProblem)));
    }
    if (!m_backfill)
        return;
    // A full disk or a read-only file shows up where the user looks, and goes away by
    // itself once a sync writes again.
    auto *watch = new QTimer(m_window.get());
    QObject::connect(watch, &QTimer::timeout, m_window.get(), [this] {
        const SyncReport last = m_backfill->lastReport();
        QString problem;
        for (const std::string &failure : last.failures) {
            if (failure.find(m_history->path()) != std::string::npos)
                problem = QObject::tr("Cost history: %1").arg(QString::fromStdString(failure));
        }
        if (problem != m_window->historyProblem())
            m_window->showHistoryProblem(problem);
    });
    watch->start(5000);
}

void ConsoleSession::startDesktopAlerts(AlertRouting routing, const std::string &routingFile)
{
    auto *desktop = new DesktopNotifier(QDBusConnection::sessionBus(), m_window.get());
    // No notification daemon on this desktop: say so where people look, for a while.
    QObject::connect(desktop, &DesktopNotifier::problem, m_window.get(),
                     [this](const QString &text) {
                         if (!text.isEmpty())
                             m_window->statusBar()->showMessage(text, 15'000);
                     });
    auto *notifier = new AlertNotifier(*m_window->alerts(), std::move(routing),
                                       SystemClock::instance(), desktop, m_window.get());
    m_window->setAlertNotifier(notifier, QString::fromStdString(routingFile));
}

void ConsoleSession::shareTriage(AlertCenter &alerts, const AlertRouting *routing)
{
    // Acknowledgements, notes and silences live in the history file, shared by every
    // console that opens it. It writes through the history's own connection; the window
    // (and its alert center, which waits for its writes) goes before the history does.
    if (m_history)
        alerts.setTriageLog(AlertTriageLog::onWriter(*m_history));
    // With an Alertmanager, silences are kept there: the team's one list.
    for (const AlertRoute &route : routing ? routing->routes : std::vector<AlertRoute>{}) {
        if (route.kind == RouteKind::Alertmanager) {
            alerts.setAlertmanagerSilences(std::make_shared<AlertmanagerSilences>(route));
            break;
        }
    }
}

void ConsoleSession::startAlertSharing()
{
    AlertCenter *alerts = m_window->alerts();
    // A broken routing file is said where people look (the desktop still gets alerts);
    // it stays said while the triage's own state comes and goes beside it.
    const std::string routingFile = alertRoutingInForce(m_options.alertRoutingFile.toStdString());
    auto routing = loadAlertRouting(routingFile);
    const QString routingProblem = routing
                                       ? QString()
                                       : QObject::tr("Alert routing is off: %1")
                                             .arg(QString::fromStdString(routing.error().message));
    // The triage's problem, as last said; the console's own lag beside it.
    auto triage = std::make_shared<QString>();
    const auto showProblems = [this, routingProblem, triage, alerts] {
        QStringList problems;
        if (!routingProblem.isEmpty())
            problems << routingProblem;
        if (!triage->isEmpty())
            problems << QObject::tr("Alert triage: %1").arg(*triage);
        if (const QString behind = alerts->behindText(); !behind.isEmpty())
            problems << behind;
        m_window->showTriageProblem(problems.join(QStringLiteral("; ")));
    };
    QObject::connect(alerts, &AlertCenter::triageProblem, m_window.get(),
                     [triage, showProblems](const QString &text) {
                         *triage = text;
                         showProblems();
                     });
    // A team that runs a watcher: this console shows its alerts and acts through it; the
    // watcher alone pages the routes. The desktop still hears of them.
    if (routing && routing->watcher) {
        alerts->followWatcher(*routing->watcher);
        AlertRouting desktopOnly = std::move(routing).value();
        desktopOnly.routes.clear();
        startDesktopAlerts(std::move(desktopOnly), routingFile);
        return;
    }
    // A console that is itself behind (a busy desktop, a start catching up) does not
    // blame the agents for its own lag, and says so.
    alerts->evaluateOffThisThread();  // a slow pass never freezes the window
    alerts->measureOwnLag();
    QObject::connect(alerts, &AlertCenter::behindChanged, m_window.get(), showProblems);
    showProblems();
    // Before the first snapshot is judged: a start's own minutes of catching up must not
    // page anyone (a broken file keeps the defaults).
    alerts->setPendingDurations(routing ? routing->pendingMs : defaultPendingMs());
    shareTriage(*alerts, routing ? &routing.value() : nullptr);
    // Alerts reach people away from the window: the desktop, and the routing file's
    // receivers.
    startDesktopAlerts(routing ? std::move(routing).value() : AlertRouting{}, routingFile);
    // Customers' trouble is an alert too: a service over its objective, a plan waiting.
    auto *services = new QTimer(m_window.get());
    QObject::connect(services, &QTimer::timeout, m_window.get(), [this] {
        if (m_scaling)
            m_window->alerts()->observeServices(serviceObservations(m_scaling->view()),
                                                SystemClock::instance().nowUnixMs());
    });
    services->start(5000);
}

void ConsoleSession::startFabric()
{
    std::optional<FabricFile> file;
    QString problem;
    if (!m_options.fabricFile.isEmpty()) {
        if (auto loaded = loadFabricFile(m_options.fabricFile.toStdString()))
            file = std::move(loaded).value();
        else
            problem = QString::fromStdString(loaded.error().message);
    } else if (m_sim) {
        file = m_sim->fabricFile();
    }
    m_window->setToolWindowFactory(
        MainWindow::ToolWindow::Fabric, [this, file, problem](QWidget *parent) -> QWidget * {
            return new FabricWindow(m_state, file, problem, parent, SystemClock::instance());
        });
}

Status ConsoleSession::startOwnScaling(const std::string &servicesFile)
{
    auto services = loadInferenceServices(servicesFile);
    if (!services)
        return services.error();
    if (m_poolAddress.empty())
        return Error{"the inventory names no capacity_pool"};
    if (!m_history)
        return Error{"the history file, which holds the scaling journal, is not open: " +
                     m_historyProblem};
    if (!m_journal)
        m_journal = ScalingJournal::onWriter(*m_history);
    ScalingControllerOptions options;
    const int mode = QSettings().value(QStringLiteral("scaling/mode"), 1).toInt();
    options.mode = static_cast<ApprovalMode>(std::clamp(mode, 0, 2));
    options.policy = m_scalingPolicy;
    auto policies = loadServicePolicies(services.value());
    if (!policies)
        return policies.error();
    options.servicePolicies = std::move(policies).value();
    auto controller = std::make_unique<ScalingController>(std::move(services).value(), *m_journal,
                                                          m_state, m_poolAddress, m_security,
                                                          SystemClock::instance(), options);
    controller->start();
    m_scaling = std::move(controller);
    return {};
}

QString ConsoleSession::closeWarning() const
{
    // Closing the console stops its own autoscaler: rented nodes would then stay leased,
    // and paid for, until someone starts it again.
    if (!m_scaling || m_scalingHeadless)
        return {};
    int cards = 0;
    double cnyPerHour = 0;
    for (const ServiceScalingView &s : m_scaling->view().services) {
        cards += s.rentedCards;
        cnyPerHour += s.rentedCnyPerHour;
    }
    if (cards == 0)
        return {};
    return QObject::tr(
               "Rented cards the autoscaler in this console holds: %1 (%2 CNY an "
               "hour). Closing stops it: nobody gives them back at the end of their "
               "paid hour, and no plan goes on, until a console with the autoscaler "
               "runs again.")
        .arg(cards)
        .arg(cnyPerHour, 0, 'f', 1);
}

void ConsoleSession::startScaling(const std::string &servicesFile)
{
    m_window->setToolWindowFactory(MainWindow::ToolWindow::Scaling,
                                   {});  // the old window holds the old controller
    m_scaling.reset();
    m_scalingHeadless = false;
    std::string off;
    if (!m_scalingController.empty()) {
        // The controller runs headless: this console shows it and sends approvals, and
        // closing the console leaves it running.
        auto remote = std::make_unique<RemoteScalingControl>(m_scalingController, m_security,
                                                             SystemClock::instance());
        remote->start();
        m_scaling = std::move(remote);
        m_scalingHeadless = true;
    } else if (Status own = startOwnScaling(servicesFile); !own) {
        off = own.message();
    }
    m_window->setCloseWarning([this] { return closeWarning(); });
    ScalingWindowHooks hooks;
    if (m_sim) {
        hooks.setSimulatedDemand = [this](const std::string &service, double rps) {
            return m_sim->setServiceDemand(service, rps);
        };
        hooks.simulatedDemand = [this](const std::string &service) {
            return m_sim->serviceDemand(service);
        };
    }
    if (m_scalingHeadless) {
        // Its services file lives beside it, on its host.
        hooks.controllerPlace = QObject::tr("Runs headless: meridian-scaled at %1")
                                    .arg(QString::fromStdString(m_scalingController));
    } else {
        hooks.servicesFile = QString::fromStdString(servicesFile);
        hooks.userServicesFile = QString::fromStdString(userServicesPath());
    }
    hooks.operatorName = qEnvironmentVariable("USER", QStringLiteral("operator"));
    const QString offReason = QString::fromStdString(off);
    m_window->setToolWindowFactory(
        MainWindow::ToolWindow::Scaling, [this, hooks, offReason](QWidget *parent) -> QWidget * {
            auto *window = new ScalingWindow(m_scaling.get(), offReason, hooks, parent);
            QObject::connect(window, &ScalingWindow::servicesSaved, m_window.get(),
                             [this](const QString &path) {
                                 // After the click's handler returns: it belongs to the window.
                                 QTimer::singleShot(0, m_window.get(), [this, path] {
                                     startScaling(path.toStdString());
                                     m_window->showToolWindow(MainWindow::ToolWindow::Scaling);
                                 });
                             });
            return window;
        });
}

void ConsoleSession::recordPrices(const std::string &priceBook)
{
    // The analysts' cost views in the history price with the book in force; reports read
    // the book itself, so a book that does not load only leaves the views as they were.
    if (!m_history)
        return;
    auto prices = PriceBook::load(priceBook);
    if (!prices)
        return;
    if (Status recorded = meridian::recordPrices(*m_history, prices.value()); !recorded) {
        const QString problem = QObject::tr("The history's cost views keep their old prices: %1")
                                    .arg(QString::fromStdString(recorded.error().message));
        qWarning("%s", qPrintable(problem));
        if (m_window)
            m_window->statusBar()->showMessage(problem);
    }
}

Status ConsoleSession::writeDiagnostics() const
{
    if (m_options.diagnosticsJson.isEmpty() || !m_source)
        return {};
    const auto snapshot = m_state.snapshot(SystemClock::instance().nowUnixMs());
    ConsoleDiagnostics d =
        collectDiagnostics(snapshot, m_source->lagSamples(), m_state.telemetryBatches(),
                           static_cast<double>(m_uptime.elapsed()) / 1000.0);
    d.problems = storeProblems();
    if (!m_historyProblem.empty())
        d.problems << QString::fromStdString(m_historyProblem);
    QFile file(m_options.diagnosticsJson);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        return Error{QStringLiteral("%1: %2")
                         .arg(m_options.diagnosticsJson, file.errorString())
                         .toStdString()};
    }
    file.write(QJsonDocument(d.toJson()).toJson());
    return {};
}

}  // namespace meridian
