#include "diagnosticsdialog.h"

#include <QFormLayout>
#include <QLabel>
#include <QTimer>

#include "models/consolediagnostics.h"
#include "models/fleetsnapshotsource.h"

namespace meridian {

DiagnosticsDialog::DiagnosticsDialog(const FleetSnapshotSource &source, const QElapsedTimer &uptime,
                                     QWidget *parent)
    : QDialog(parent), m_source(source), m_uptime(uptime)
{
    setWindowTitle(tr("Diagnostics"));
    auto *form = new QFormLayout(this);
    m_figures = new QLabel(this);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_figures);
    refresh();
    auto *timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &DiagnosticsDialog::refresh);
    timer->start(1000);
}

void DiagnosticsDialog::refresh()
{
    const auto snapshot = m_source.current();
    if (!snapshot)
        return;
    const ConsoleDiagnostics d =
        collectDiagnostics(*snapshot, m_source.lagSamples(), m_source.state().telemetryBatches(),
                           static_cast<double>(m_uptime.elapsed()) / 1000.0);
    m_figures->setText(tr("Agents: %1 (%2 live, %3 stale, %4 unreachable)<br>"
                          "Cards: %5<br>Telemetry: %6 batches/s<br>"
                          "UI event-loop lag: p50 %7 ms, p99 %8 ms, max %9 ms<br>"
                          "Memory: %10 MiB · CPU: %11% of one core")
                           .arg(d.agents)
                           .arg(d.agentsLive)
                           .arg(d.agentsStale)
                           .arg(d.agentsUnreachable)
                           .arg(d.cards)
                           .arg(d.telemetryBatchesPerSecond, 0, 'f', 0)
                           .arg(d.uiLagP50Ms, 0, 'f', 1)
                           .arg(d.uiLagP99Ms, 0, 'f', 1)
                           .arg(d.uiLagMaxMs, 0, 'f', 1)
                           .arg(d.residentMemoryMiB, 0, 'f', 0)
                           .arg(d.cpuPercentOfOneCore, 0, 'f', 0));
}

}  // namespace meridian
