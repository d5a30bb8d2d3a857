// Wires one console run together: where the fleet comes from (the embedded simulator on
// loopback, or an inventory file), the fleet client, the snapshot timer, the window.
#pragma once

#include <QElapsedTimer>
#include <QString>
#include <memory>

#include "core/result.h"
#include "fleet/fleetstate.h"

namespace meridian {

class SimFleet;
class FleetClient;
class FleetSnapshotSource;
class MainWindow;

struct ConsoleOptions {
    QString inventoryFile;  // empty: the embedded simulated fleet
    int simulatedNodes = 750;
    QString diagnosticsJson;
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

private:
    ConsoleOptions m_options;
    QElapsedTimer m_uptime;
    FleetState m_state;
    std::unique_ptr<SimFleet> m_sim;
    std::unique_ptr<FleetClient> m_client;
    std::unique_ptr<FleetSnapshotSource> m_source;
    std::unique_ptr<MainWindow> m_window;
};

}  // namespace meridian
