// One node at a glance, for whoever is triaging it: where it is and whether its agent
// reports, each card with its health and readings, each RDMA link with its switch port,
// state, rates and recent drops, and the node's recent events. Follows the fleet's
// snapshots (at most once a second) while open. Lives on the UI thread.
#pragma once

#include <QDialog>

#include "models/fleetsnapshotsource.h"

class QLabel;
class QListWidget;
class QTableView;

namespace meridian {

class NodeCardsModel;
class NodeLinksModel;

class NodePage final : public QDialog {
    Q_OBJECT
public:
    NodePage(const FleetSnapshotSource &source, NodeHandle node, QWidget *parent = nullptr);

    NodeHandle node() const { return m_node; }
    void showNode(NodeHandle node);
    QString heading() const;
    const NodeCardsModel *cards() const { return m_cards; }
    const NodeLinksModel *links() const { return m_links; }
    int eventCount() const;

Q_SIGNALS:
    // A card's row was double-clicked: show it in the fleet and its panel.
    void cardRequested(CardHandle card);

private:
    void refresh(const FleetSnapshot &snapshot);

    const FleetSnapshotSource &m_source;
    NodeHandle m_node;
    int64_t m_lastRefreshMs = 0;
    QLabel *m_heading;
    NodeCardsModel *m_cards;
    NodeLinksModel *m_links;
    QTableView *m_cardsView;
    QListWidget *m_events;
};

}  // namespace meridian
