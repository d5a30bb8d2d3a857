// Wires one console run together: where the fleet comes from (the embedded simulator on
// loopback, or an inventory file), the fleet client, the snapshot timer, the window.
#pragma once

#include <QElapsedTimer>
#include <QString>
#include <memory>
#include <vector>

#include "core/result.h"
#include "fleet/fleetstate.h"
#include "fleetlink/inventoryfile.h"
#include "scaling/scalingpolicy.h"
#include "wire/security.h"

namespace meridian {

class SimFleet;
class FleetClient;
class PrometheusSource;
class StoreHistoryLoader;
class FleetTimeMachine;
class HistoryStore;
class UsageBackfill;
class FleetSnapshotSource;
class MainWindow;
class ScalingJournal;
class ScalingControl;
class AlertNotifier;
class AlertCenter;
struct AlertRouting;
class DesktopNotifier;
struct InferenceService;

struct ConsoleOptions {
    QString inventoryFile;  // empty: the embedded simulated fleet (unless a store is named)
    QString prometheusUrl;  // a Prometheus-compatible store to read the fleet from
    int scrapeIntervalS = 15;
    int simulatedNodes = 750;
    QString diagnosticsJson;
    QString historyFile;   // empty: the user's data directory
    QString servicesFile;  // empty: the one in force (see configlocations.h)
    QString
        scalingPolicyFile;     // the autoscaler's settings, as evaluate reads them; empty: defaults
    QString fabricFile;        // switches and uplinks; empty: the simulator's, or LLDP only
    QString alertRoutingFile;  // empty: the user's (see configlocations.h)
};

class ConsoleSession {
public:
    explicit ConsoleSession(ConsoleOptions options);
    ~ConsoleSession();

    // Starts the fleet source and the client; errors name the file and line.
    Status start();
    MainWindow &window() { return *m_window; }
    // Writes --diagnostics-json, if asked for.
    Status writeDiagnostics() const;
    // Why the history file could not be opened (the console runs on without it).
    const std::string &historyProblem() const { return m_historyProblem; }

private:
    // The steps of start(), in order.
    Status checkNamedFiles();
    Result<FleetInventory> fleetInventory();
    Status startEmbeddedFleet(FleetInventory &inventory);
    Status startStores(const FleetInventory &inventory);
    void openHistory(const FleetInventory &inventory);
    void showStoreHistory();
    // What the stores last failed at (a refused token, a URL that is no store), each named.
    QStringList storeProblems() const;
    void showReports();
    void watchHistory();
    void recordPrices(const std::string &priceBook);
    // (Re)starts the autoscaler with the services file; the reason it is off, if it is.
    void startScaling(const std::string &servicesFile);
    // The autoscaler inside this console, with its journal in the history file.
    Status startOwnScaling(const std::string &servicesFile);
    // View → RoCE fabric, with the fabric file named, or the simulator's.
    void startFabric();
    void startAlertSharing();
    // What closing would leave undone: rented cards this console's own autoscaler holds.
    QString closeWarning() const;
    // The triage shared through the history file, and silences kept in an Alertmanager.
    void shareTriage(AlertCenter &alerts, const AlertRouting *routing);
    // The desktop notifications and sound, and the routing file's routes where given.
    void startDesktopAlerts(AlertRouting routing, const std::string &routingFile);

    ConsoleOptions m_options;
    QElapsedTimer m_uptime;
    uint64_t m_openFileLimit = 0;  // after raising it to the hard limit
    FleetState m_state;
    std::unique_ptr<SimFleet> m_sim;
    std::unique_ptr<FleetClient> m_client;
    std::vector<std::unique_ptr<PrometheusSource>> m_stores;
    std::unique_ptr<StoreHistoryLoader> m_storeHistory;
    std::unique_ptr<StoreHistoryLoader> m_usageHistory;  // agents' cards past 15 minutes
    std::unique_ptr<FleetTimeMachine> m_timeMachine;     // the fleet at a past minute
    std::unique_ptr<HistoryStore> m_history;
    std::unique_ptr<UsageBackfill> m_backfill;
    std::unique_ptr<FleetSnapshotSource> m_source;
    std::unique_ptr<MainWindow> m_window;
    std::string m_historyProblem;
    QString m_storeProblemsSaid;  // on stderr, once per change
    std::string m_poolAddress;
    ClientSecurity m_security;
    std::unique_ptr<ScalingJournal> m_journal;
    std::unique_ptr<ScalingControl> m_scaling;
    std::string m_scalingController;  // a headless controller's address; empty: our own
    bool m_scalingHeadless = false;
    ScalingPolicyConfig m_scalingPolicy;  // --scaling-policy, read at start
};

}  // namespace meridian
