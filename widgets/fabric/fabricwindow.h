// The RoCE fabric for triage: per data center the layered drawing (spines, leaves,
// hosts), the findings beside it, a link's counters over the last minutes, the path
// between two nodes, and a rail filter. Reassembled from FleetState once a second.
#pragma once

#include <QMainWindow>
#include <map>
#include <optional>
#include <set>

#include "core/clock.h"
#include "models/fabric/fabricsource.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTimer;

namespace meridian {

class FabricView;
class HistoryChart;

class FabricWindow final : public QMainWindow {
    Q_OBJECT
public:
    // `file` is optional; `fileProblem` says why there is none when one was asked for.
    // `clock` dates each assembly; it must outlive the window.
    FabricWindow(const FleetState &state, std::optional<FabricFile> file, QString fileProblem,
                 QWidget *parent = nullptr, const Clock &clock = SystemClock::instance());
    ~FabricWindow() override;

    // Reassembles the fabric in the background; the view follows when it is done.
    void refresh();
    bool assembling() const { return m_source->assembling(); }
    // Shows one NIC's link (from an alert): its data center, the link lit, zoomed in on it.
    // Asked before the first assembly has come, it is shown when it comes.
    bool focusNic(const std::string &nodeId, const std::string &netdev);
    FabricView *view() const { return m_view; }
    const Fabric &fabric() const { return m_source->fabric(); }
    QListWidget *findings() const { return m_findings; }
    QString details() const;
    bool showPath(const std::string &from, const std::string &to, uint32_t rail);

Q_SIGNALS:
    // "Alerts for this link": the triage list, on the selected NIC's alerts.
    void alertsRequested(const QString &nodeId, const QString &netdev);

private:
    void buildToolBar();
    QWidget *buildSidePanel(QWidget *parent, const QString &fileProblem);
    void selectFinding(int row);
    void zoomToLink(size_t link);
    void assembled();
    void relayout();
    void select(std::set<size_t> links, const QString &details);
    void selectLine(size_t line);
    void selectBox(size_t box);
    void showHistory();
    std::optional<uint32_t> rail() const;

    FabricSource *m_source;
    FabricView *m_view = nullptr;
    QComboBox *m_dataCenter = nullptr;
    QComboBox *m_rail = nullptr;
    QLineEdit *m_from = nullptr;
    QLineEdit *m_to = nullptr;
    QListWidget *m_findings = nullptr;
    QLabel *m_details = nullptr;
    QPushButton *m_alertsButton = nullptr;
    QLabel *m_status = nullptr;
    HistoryChart *m_loadChart = nullptr;
    HistoryChart *m_pfcChart = nullptr;
    QTimer *m_timer = nullptr;
    std::set<size_t> m_selected;
    std::string m_openLeaf;     // collapsed: the leaf whose hosts are drawn one by one
    std::string m_selectedKey;  // "node netdev" of the selected host link, to follow it
    // A NIC asked for before the first assembly: node and netdev.
    std::optional<std::pair<std::string, std::string>> m_pendingFocus;
};

}  // namespace meridian
