// The RoCE fabric the fabric window draws: reassembled from FleetState's NICs and the
// optional fabric file off the UI thread (tens of ms for 6,000 NICs), so panning and
// zooming never wait for it; a NIC's recent counters on demand. Lives on the UI thread;
// the FleetState must outlive it.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabricfile.h"
#include "fabric/fabricmodel.h"
#include "fleet/fleetstate.h"

namespace meridian {

class Clock;

class FabricSource final : public QObject {
    Q_OBJECT
public:
    FabricSource(const FleetState &state, std::optional<FabricFile> file, const Clock &clock,
                 QObject *parent = nullptr);
    // Waits for an assembly under way: it reads the FleetState, which may go next.
    ~FabricSource() override;

    // Reassembles in the background; assembled() follows. While one is under way a call
    // does nothing: a beat is skipped rather than queued.
    void refresh();
    bool assembling() const { return m_assembling.isRunning(); }
    const Fabric &fabric() const { return m_current.fabric; }
    int64_t assembledAtMs() const { return m_current.atMs; }
    // The rack each node stands in, from the fleet's layout.
    const std::map<std::string, std::string> &rackOfNode() const { return m_current.rackOfNode; }
    // One NIC's last 15 minutes, kept by FleetState since the console started.
    std::vector<NicPoint> nicHistory(const std::string &nodeId, const std::string &netdev) const;

Q_SIGNALS:
    void assembled();

private:
    struct Assembly {
        int64_t atMs = 0;
        Fabric fabric;
        std::map<std::string, std::string> rackOfNode;
    };

    const FleetState &m_state;
    std::optional<FabricFile> m_file;
    const Clock &m_clock;
    QFutureWatcher<Assembly> m_assembling;
    Assembly m_current;
};

}  // namespace meridian
