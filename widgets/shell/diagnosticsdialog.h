// Help → Diagnostics: the console's own figures, refreshed each second while it is open:
// agents by state, cards, telemetry rate, the UI thread's event-loop lag, memory and CPU.
#pragma once

#include <QDialog>
#include <QElapsedTimer>

class QLabel;

namespace meridian {

class FleetSnapshotSource;

class DiagnosticsDialog final : public QDialog {
    Q_OBJECT
public:
    // `uptime`: started when the console was.
    DiagnosticsDialog(const FleetSnapshotSource &source, const QElapsedTimer &uptime,
                      QWidget *parent = nullptr);

private:
    void refresh();

    const FleetSnapshotSource &m_source;
    const QElapsedTimer &m_uptime;
    QLabel *m_figures = nullptr;
};

}  // namespace meridian
