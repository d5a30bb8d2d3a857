// The node page's tables: the node's cards with their health and readings, and its RDMA
// links with their neighbour, state, rates and recent drops. Merged by key on every
// refresh (never a reset). Live on the UI thread.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "models/cardhealth.h"
#include "models/keyedtablemodel.h"

namespace meridian {

struct NodeCardRow {
    CardHandle card = 0;
    uint32_t index = 0;
    QString model;
    QString uuid;
    CardCondition condition = CardCondition::Healthy;
    float utilization = 0;  // NaN: no reading
    float memory = 0;
    float temperature = 0;
    float power = 0;
    uint32_t errors = 0;
};

class NodeCardsModel final : public KeyedTableModel<NodeCardRow> {
    Q_OBJECT
public:
    enum Column {
        Card,
        Model,
        Health,
        Utilization,
        Memory,
        Temperature,
        Power,
        Errors,
        Uuid,
        ColumnCount
    };
    static constexpr int CardRole = Qt::UserRole + 1;  // the CardHandle

    explicit NodeCardsModel(QObject *parent = nullptr);
    void setNode(const FleetSnapshot &snapshot, NodeHandle node);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

struct NodeLinkRow {
    QString netdev;
    QString state;      // up, down, unknown
    QString neighbour;  // "switch port", as LLDP names it
    std::optional<uint32_t> nearestCard;
    double rxGbps = 0;  // NaN: not reported
    double txGbps = 0;
    int drops = 0;  // in the last ten minutes
};

class NodeLinksModel final : public KeyedTableModel<NodeLinkRow> {
    Q_OBJECT
public:
    enum Column { Nic, State, Neighbour, NearestCard, Rx, Tx, Drops, ColumnCount };

    explicit NodeLinksModel(QObject *parent = nullptr);
    // The NICs of `nodeId` among every host NIC the fleet has.
    void setLinks(const std::vector<HostNic> &nics, const std::string &nodeId);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace meridian
