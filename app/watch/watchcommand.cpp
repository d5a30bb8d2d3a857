#include "watchcommand.h"

#include <unistd.h>

#include <QCoreApplication>
#include <QTimer>
#include <cstdio>
#include <mutex>

#include "alerts/alertmanagersilences.h"
#include "alerts/alertrouting.h"
#include "alerts/alerttriagelog.h"
#include "alerts/controllerwatch.h"
#include "alerts/triageallowance.h"
#include "core/clock.h"
#include "core/openfiles.h"
#include "core/yamlfile.h"
#include "fleetlink/fleetclient.h"
#include "fleetlink/inventoryfile.h"
#include "history/historystore.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertnotifier.h"
#include "promsource/prometheussource.h"
#include "routefromfiles.h"
#include "scrape/scrapeendpoint.h"
#include "stoponsignals.h"
#include "storesources.h"
#include "watchfigures.h"
#include "watchtriage.h"
#include "wire/securityconfig.h"

namespace meridian {

namespace {

int fail(const std::string &message)
{
    std::fprintf(stderr, "meridian-watch: %s\n", message.c_str());
    return 2;
}

std::string hostName()
{
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

std::string defaultName()
{
    return "watcher@" + hostName();
}

// The listener's TLS and tokens (`--security`; none given: plaintext on loopback). Its
// listener is HTTP, not the front door: a setting only the front door applies
// (`authenticate_within_seconds`) would be taken and do nothing, so it is refused.
Result<ServerSecurity> listenerSecurity(const std::string &file)
{
    ServerSecurity security;
    if (file.empty())
        return security;
    const Status read = readYamlConfig(file, [&](const YAML::Node &root) -> Status {
        if (Status keys = checkKeys(file, root, {"tls", "tokens"}); !keys)
            return keys;
        return readServerSecurity(file, root, security);
    });
    if (!read)
        return read.error();
    return security;
}

// The fleet as the arguments name it: an inventory's agents, a store, or both.
Result<FleetInventory> watchedFleet(const WatchArguments &arguments)
{
    FleetInventory inventory;
    if (!arguments.inventory.empty()) {
        auto loaded = loadInventory(arguments.inventory);
        if (!loaded)
            return loaded.error();
        inventory = std::move(loaded).value();
        if (Status room = checkRoomForAgents(inventory.agents.size(), raiseOpenFileLimit(), false);
            !room)
            return Error{arguments.inventory + ": " + room.message()};
    }
    if (!arguments.prometheus.empty()) {
        StoreSource store;
        store.url = arguments.prometheus;
        store.scrapeIntervalS = arguments.scrapeIntervalS;
        inventory.stores.push_back(store);
    }
    if (inventory.agents.empty() && inventory.stores.empty())
        return Error{"nothing to watch: name an --inventory with agents, or a --prometheus store"};
    return inventory;
}

// Everything one watcher runs, in the order it is made (and the reverse it goes).
class Watcher {
public:
    Watcher(std::string name, AlertRouting routing, SelfLagLimits lag)
        : m_name(std::move(name)), m_routing(routing), m_lag(lag)
    {
        m_figures.name = m_name;
        m_figures.startedMs = SystemClock::instance().nowUnixMs();
        m_state.keepNoCardHistory();
    }
    ~Watcher()
    {
        if (m_endpoint)
            m_endpoint->stop();
        m_controller.reset();  // no read is handed to the center after this
        m_notifier.reset();    // its dispatcher stops: nothing is sent after this
        if (m_center)
            m_center->waitForTriage();
        m_center.reset();
        m_stores.clear();
        if (m_client)
            m_client->stop();
    }

    Status start(const FleetInventory &inventory, const std::string &historyFile,
                 const std::string &listen, const ServerSecurity &security, int telemetryMs)
    {
        auto stores = startStoreSources(m_state, inventory.stores);
        if (!stores)
            return stores.error();
        m_stores = std::move(stores).value();
        // What was delivered is kept across restarts in the file: a watcher killed
        // mid-incident and started again tells nobody twice.
        auto log = AlertTriageLog::open(historyFile);
        if (!log)
            return log.error();
        ConnectionOptions connection;
        connection.intervalMs = static_cast<uint32_t>(telemetryMs);
        m_client = std::make_unique<FleetClient>(m_state, SystemClock::instance(), connection);
        m_client->connect(inventory);
        m_center = std::make_unique<AlertCenter>(m_state);
        m_center->setUser(QString::fromStdString(m_name));
        // Its own loop then measures only itself (the /metrics answers, the receive).
        m_center->evaluateOffThisThread();
        m_center->measureOwnLag(m_lag);
        m_center->setPendingDurations(m_routing.pendingMs);
        m_center->setTriageLog(std::shared_ptr<AlertTriageLog>(std::move(log).value()));
        for (const AlertRoute &route : m_routing.routes) {
            if (route.kind == RouteKind::Alertmanager) {
                m_center->setAlertmanagerSilences(std::make_shared<AlertmanagerSilences>(route));
                break;
            }
        }
        // Said once each time it changes, not at every sync: the journal stays readable.
        QObject::connect(m_center.get(), &AlertCenter::triageProblem, [this](const QString &p) {
            std::lock_guard lock(m_mutex);
            if (p.toStdString() == m_triageProblem)
                return;
            std::fprintf(stderr, "meridian-watch: triage: %s\n",
                         p.isEmpty() ? "the history file works again" : qPrintable(p));
            m_triageProblem = p.toStdString();
        });
        QObject::connect(m_center.get(), &AlertCenter::behindChanged, [this] {
            const QString text = m_center->behindText();
            std::fprintf(
                stderr, "meridian-watch: %s\n",
                text.isEmpty() ? "caught up: agents' silence is judged again" : qPrintable(text));
        });
        m_notifier =
            std::make_unique<AlertNotifier>(*m_center, m_routing, SystemClock::instance(), nullptr);
        m_notifier->setSeenBy(m_name);
        // The consoles that follow this watcher read the list as it was last shown here.
        QObject::connect(m_center.get(), &AlertCenter::alertsChanged, [this] {
            std::string team = teamAlertsOf(*m_center, m_name, SystemClock::instance().nowUnixMs());
            std::lock_guard lock(m_mutex);
            m_teamAlerts = std::move(team);
        });
        if (!listen.empty()) {
            ScrapeEndpointOptions options;
            options.listen = listen;
            options.threads = 4;
            options.security = security;
            auto endpoint = ScrapeEndpoint::start(
                options, [this](const ScrapeRequest &request) { return answer(request); },
                "watcher endpoint",
                [this](const ScrapeRequest &request) {
                    return answerTriage(
                        request, m_triageGate, [this](TriageRequest asked, std::string who) {
                            // Carried out on the loop that owns the center, in the order asked.
                            QMetaObject::invokeMethod(
                                m_center.get(),
                                [this, asked = std::move(asked), who = std::move(who)] {
                                    carryOutTriage(*m_center, asked, who);
                                },
                                Qt::QueuedConnection);
                        });
                });
            if (!endpoint)
                return endpoint.error();
            m_endpoint = std::move(endpoint).value();
        }
        return {};
    }

    int port() const { return m_endpoint ? m_endpoint->port() : 0; }

    // Reads meridian-scaled every few seconds for the services' alerts and its own
    // silence, handing each read to the loop that owns the center.
    void watchController(const AlertRoute &scaled)
    {
        m_controller = std::make_unique<ControllerWatch>(scaled);
        m_controller->start(
            std::chrono::seconds(5),
            [this](const ScaledFigures &figures, const ControllerObservation &observation) {
                QMetaObject::invokeMethod(
                    m_center.get(),
                    [this, figures, observation] {
                        const int64_t now = SystemClock::instance().nowUnixMs();
                        if (observation.answered)
                            m_center->observeServices(figures.services, now);
                        m_center->observeController(observation, now);
                    },
                    Qt::QueuedConnection);
            });
    }

    // One pass of the rules over the fleet as it is now.
    void evaluate()
    {
        const int64_t now = SystemClock::instance().nowUnixMs();
        const auto snapshot = std::make_shared<const FleetSnapshot>(m_state.snapshot(now));
        m_center->update(snapshot);
        WatchFigures figures = countFigures(*snapshot, now);
        std::lock_guard lock(m_mutex);
        figures.problem = m_triageProblem;
        if (figures.problem.empty()) {
            for (const auto &store : m_stores) {
                if (std::string p = store->lastProblem(); !p.empty())
                    figures.problem = std::move(p);
            }
        }
        m_figures = std::move(figures);
    }

private:
    WatchFigures countFigures(const FleetSnapshot &snapshot, int64_t now)
    {
        WatchFigures f;
        {
            std::lock_guard lock(m_mutex);
            f.name = m_figures.name;
            f.startedMs = m_figures.startedMs;
            f.evaluations = m_figures.evaluations + 1;
        }
        f.lastEvaluationMs = now;
        f.agents = static_cast<int>(snapshot.nodeCount());
        for (const ConnectionState c : snapshot.nodeConnection) {
            f.connected += c == ConnectionState::Connected;
            f.unreachable += c == ConnectionState::Unreachable;
        }
        const AlertsView &view = m_center->view();
        f.pending = view.pending;
        for (const Alert &a : view.alerts) {
            if (!a.active || !a.firing)
                continue;
            // All are counted; the newest are listed, so /status stays a short answer.
            if (++f.firing > kAlertsListed)
                continue;
            const AlertNotice notice = AlertNotifier::noticeFor(a, false);
            f.alerts.push_back({a.key, notice.title, notice.subject, a.dataCenter,
                                a.severity == AlertSeverity::Critical, a.activeSinceMs,
                                a.acknowledgedBy, a.silencedUntilMs > now});
        }
        if (const auto &lag = m_center->ownLag()) {
            f.behind = m_center->holdingStaleness();
            f.loopLateMs = lag->loopLateMs(now);
            f.receiveGapMs = lag->receiveGapMs(now);
            f.holds = lag->holds();
        }
        f.routes = m_notifier->dispatcher().status();
        return f;
    }

    ScrapeAnswer answer(const ScrapeRequest &request)
    {
        std::lock_guard lock(m_mutex);
        if (request.path == "/metrics")
            return ScrapeAnswer{200, watchExposition(m_figures)};
        if (request.path == "/status")
            return ScrapeAnswer{200, watchStatusJson(m_figures), "application/json"};
        if (request.path == "/alerts") {
            if (m_teamAlerts.empty())
                return ScrapeAnswer{503, "no pass of the rules yet\n", "text/plain"};
            return ScrapeAnswer{200, m_teamAlerts, "application/json"};
        }
        return ScrapeAnswer{404, "no such path: /metrics, /status and /alerts are here\n",
                            "text/plain"};
    }

    static constexpr int kAlertsListed = 200;

    std::string m_name;
    AlertRouting m_routing;
    TriageAllowance m_triageAllowance{SystemClock::instance()};
    TriageGate m_triageGate{m_triageAllowance, m_routing.silenceMaxMs, hostName()};
    SelfLagLimits m_lag;
    FleetState m_state;
    std::vector<std::unique_ptr<PrometheusSource>> m_stores;
    std::unique_ptr<FleetClient> m_client;
    std::unique_ptr<AlertCenter> m_center;
    std::unique_ptr<AlertNotifier> m_notifier;
    std::unique_ptr<ScrapeEndpoint> m_endpoint;
    std::unique_ptr<ControllerWatch> m_controller;
    std::mutex m_mutex;  // the figures and the problem, read by the endpoint's threads
    WatchFigures m_figures;
    std::string m_triageProblem;
    std::string m_teamAlerts;  // GET /alerts, as last shown
};

void sayWatching(const std::string &name, const FleetInventory &inventory,
                 const WatchArguments &arguments, const std::string &historyFile, int port,
                 bool tokens)
{
    std::printf("meridian-watch: %s watching %zu agents%s%s; routes %s; triage %s", name.c_str(),
                inventory.agents.size(), inventory.stores.empty() ? "" : " and a Prometheus store",
                arguments.scaledUrl.empty() ? "" : " and meridian-scaled",
                arguments.alertRoutes.c_str(), historyFile.c_str());
    if (port > 0)
        std::printf("; /metrics, /status and the team's /alerts on port %d%s", port,
                    tokens ? " (tokens required)" : "");
    std::printf("\n");
    std::fflush(stdout);
}

}  // namespace

int runWatch(const WatchArguments &arguments, int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // A watcher with nowhere to send is no watcher: the file is needed, and must load.
    if (arguments.alertRoutes.empty())
        return fail("--alert-routes is needed: the routes are where the watcher pages");
    auto routing = loadAlertRouting(arguments.alertRoutes);
    if (!routing)
        return fail(routing.error().message);
    if (routing->routes.empty())
        return fail(arguments.alertRoutes + ": names no route (or does not exist)");
    auto inventory = watchedFleet(arguments);
    if (!inventory)
        return fail(inventory.error().message);
    const std::string historyFile =
        arguments.history.empty() ? HistoryStore::defaultPath() : arguments.history;
    const std::string name = arguments.name.empty() ? defaultName() : arguments.name;
    const auto security = listenerSecurity(arguments.security);
    if (!security)
        return fail(security.error().message);
    SelfLagLimits lag;
    lag.tickMs = static_cast<int64_t>(arguments.evaluateEverySeconds * 1000);
    lag.heldAfterMs = static_cast<int64_t>(arguments.stallHoldSeconds * 1000);
    Watcher watcher(name, std::move(routing).value(), lag);
    if (Status started =
            watcher.start(inventory.value(), historyFile, arguments.listen, security.value(),
                          static_cast<int>(arguments.telemetryEverySeconds * 1000));
        !started)
        return fail(started.message());
    if (!arguments.scaledUrl.empty()) {
        auto scaled = routeFromFiles("meridian-scaled", arguments.scaledUrl, arguments.scaledCaFile,
                                     arguments.scaledTokenFile);
        if (!scaled)
            return fail("--scaled: " + scaled.error().message);
        watcher.watchController(scaled.value());
    }
    stopOnSignals(&app, [] { QCoreApplication::quit(); });
    sayWatching(name, inventory.value(), arguments, historyFile, watcher.port(),
                !security->tokens.empty());
    // The rules run on this loop (once a second unless told): its lateness is what
    // SelfLag measures.
    QTimer rules;
    QObject::connect(&rules, &QTimer::timeout, &app, [&watcher] { watcher.evaluate(); });
    rules.start(static_cast<int>(lag.tickMs));
    if (arguments.quitAfterSeconds > 0)
        QTimer::singleShot(static_cast<int>(arguments.quitAfterSeconds * 1000), &app,
                           [] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    std::printf("meridian-watch: stopping\n");
    std::fflush(stdout);
    return 0;
}

}  // namespace meridian
