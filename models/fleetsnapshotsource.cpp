#include "fleetsnapshotsource.h"

#include "core/clock.h"

namespace meridian {

namespace {
constexpr size_t kLagSamplesKept = 36'000;  // an hour at 10 Hz
}

FleetSnapshotSource::FleetSnapshotSource(const FleetState &state, const Clock &clock,
                                         int intervalMs, QObject *parent)
    : QObject(parent), m_state(state), m_clock(clock), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_sinceLastTick.isValid()) {
            const double late =
                static_cast<double>(m_sinceLastTick.nsecsElapsed()) / 1e6 - m_intervalMs;
            if (m_lag.size() >= kLagSamplesKept)
                m_lag.erase(m_lag.begin(), m_lag.begin() + kLagSamplesKept / 2);
            m_lag.push_back(std::max(0.0, late));
        }
        m_sinceLastTick.start();
        refresh();
    });
    m_timer.start();
    refresh();
}

void FleetSnapshotSource::refresh()
{
    m_current = std::make_shared<const FleetSnapshot>(m_state.snapshot(m_clock.nowUnixMs()));
    Q_EMIT snapshotChanged(m_current);
}

}  // namespace meridian
