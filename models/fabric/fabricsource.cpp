#include "fabricsource.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/clock.h"

namespace meridian {

FabricSource::FabricSource(const FleetState &state, std::optional<FabricFile> file,
                           const Clock &clock, QObject *parent)
    : QObject(parent), m_state(state), m_file(std::move(file)), m_clock(clock)
{
    connect(&m_assembling, &QFutureWatcher<Assembly>::finished, this, [this] {
        m_current = m_assembling.result();
        Q_EMIT assembled();
    });
}

FabricSource::~FabricSource()
{
    m_assembling.waitForFinished();
}

void FabricSource::refresh()
{
    if (m_assembling.isRunning())
        return;
    const FleetState &state = m_state;
    const std::optional<FabricFile> file = m_file;
    const int64_t now = m_clock.nowUnixMs();
    m_assembling.setFuture(QtConcurrent::run([&state, file, now] {
        Assembly out;
        out.atMs = now;
        out.fabric = assembleFabric(state.hostNics(now), file ? &*file : nullptr, now);
        const auto snapshot = state.snapshot(now);
        const FleetLayout &layout = *snapshot.layout;
        for (NodeHandle n = 0; n < layout.nodeCount(); ++n)
            out.rackOfNode[layout.nodeId[n]] = layout.nodeRack[n];
        return out;
    }));
}

std::vector<NicPoint> FabricSource::nicHistory(const std::string &nodeId,
                                               const std::string &netdev) const
{
    return m_state.nicHistory(nodeId, netdev);
}

}  // namespace meridian
