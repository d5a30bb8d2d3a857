// Pulls a FleetState snapshot on a timer on the UI thread and hands it to the views as
// one coalesced change per tick; the views ask it, not FleetState, for a card's history. Also
// measures how late the timer fires: the UI event loop's lag, for diagnostics. Lives on the UI
// thread.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

#include "fleet/fleetstate.h"

namespace meridian {

class Clock;

class FleetSnapshotSource final : public QObject {
    Q_OBJECT
public:
    FleetSnapshotSource(const FleetState &state, const Clock &clock, int intervalMs = 200,
                        QObject *parent = nullptr);

    std::shared_ptr<const FleetSnapshot> current() const { return m_current; }
    const FleetState &state() const { return m_state; }
    // A card's bounded history of one metric, and a node's latest events, newest last.
    std::vector<HistoryPoint> history(CardHandle card, CardMetric metric) const
    {
        return m_state.history(card, metric);
    }
    std::vector<Event> recentEvents(NodeHandle node, size_t limit) const
    {
        return m_state.recentEvents(node, limit);
    }
    // The console's time, for the windows that ask what now is.
    const Clock &clock() const { return m_clock; }
    // Event-loop lag samples (ms late), newest last; bounded.
    const std::vector<double> &lagSamples() const { return m_lag; }
    void refresh();

Q_SIGNALS:
    void snapshotChanged(std::shared_ptr<const FleetSnapshot> snapshot);

private:
    const FleetState &m_state;
    const Clock &m_clock;
    QTimer m_timer;
    QElapsedTimer m_sinceLastTick;
    int m_intervalMs;
    std::shared_ptr<const FleetSnapshot> m_current;
    std::vector<double> m_lag;
};

}  // namespace meridian
