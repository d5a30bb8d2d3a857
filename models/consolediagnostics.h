// The console's own health in figures: connections, ingest rate, UI event-loop lag and
// memory. Shown in Help → Diagnostics and written by --diagnostics-json on exit.
#pragma once

#include <QJsonObject>
#include <QStringList>
#include <vector>

#include "fleet/fleetstate.h"

namespace meridian {

struct ConsoleDiagnostics {
    int agents = 0;
    int agentsLive = 0;
    int agentsStale = 0;
    int agentsUnreachable = 0;
    int cards = 0;
    double telemetryBatchesPerSecond = 0;
    double uiLagP50Ms = 0;
    double uiLagP99Ms = 0;
    double uiLagMaxMs = 0;
    double residentMemoryMiB = 0;
    double cpuPercentOfOneCore = 0;  // whole process, since start
    double uptimeSeconds = 0;
    // How old the readings on screen are (newest card, and the oldest card still read).
    double newestReadingAgeSeconds = 0;
    double oldestReadingAgeSeconds = 0;
    // What the console could not do, in words: a store that refused it, the history file.
    QStringList problems;

    QJsonObject toJson() const;
};

// lag: event-loop lateness samples (ms); batches: telemetry batches received so far.
ConsoleDiagnostics collectDiagnostics(const FleetSnapshot &snapshot, const std::vector<double> &lag,
                                      uint64_t batches, double uptimeSeconds);

}  // namespace meridian
