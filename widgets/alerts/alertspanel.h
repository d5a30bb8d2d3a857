// The on-call engineer's list: alerts sorted open-critical first (grouped by kind or data
// center when asked), with acknowledge, silence and note, and a double-click that jumps
// to the card or node in the fleet.
#pragma once

#include <QWidget>

#include "models/fleetsnapshotsource.h"

class QSortFilterProxyModel;
class QTableView;
class QCheckBox;
class QComboBox;
class QPushButton;

namespace meridian {

class AlertCenter;
class AlertsModel;
struct Alert;

class AlertsPanel final : public QWidget {
    Q_OBJECT
public:
    // Rows of one kind, or of one data center, together (remembered).
    enum class Grouping { None, Kind, DataCenter };

    AlertsPanel(AlertCenter &center, QWidget *parent = nullptr);
    QTableView *view() const { return m_view; }
    // The height that shows the buttons, the header and this many rows.
    int minimumRowsHeight(int rows) const;
    // Selects the newest alert about one NIC (from the fabric); false when there is none.
    bool selectLinkAlert(const std::string &nodeId, const std::string &netdev);

Q_SIGNALS:
    void cardRequested(CardHandle card);
    void nodeRequested(NodeHandle node);
    // A link alert (down, flapping, PFC storm): the NIC's place in the fabric.
    void linkRequested(NodeHandle node, const QString &netdev);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // The sorted alert list: severity first, the next step taking what is left.
    void buildTable();
    // Free text (what, where, state, note) takes at most its share of the width, elided,
    // whole in the tooltip: the next step keeps room through acknowledge, note and silence.
    void fitColumns();
    // Once, after the changes the event loop is handling now: a merge is many signals.
    void fitColumnsSoon();
    // The width a column's header and a sample of its first rows ask for.
    int sampledWidth(int column) const;
    const Alert *selected() const;
    void acknowledgeSelected();
    void silenceSelected();
    void showSilences();
    void noteSelected();
    void jumpTo(const QModelIndex &index);

    AlertCenter &m_center;
    AlertsModel *m_model;
    bool m_fitQueued = false;
    QSortFilterProxyModel *m_sorted;
    QTableView *m_view;
    QCheckBox *m_openOnly;
    QComboBox *m_grouping;
    QPushButton *m_silences;
};

}  // namespace meridian
