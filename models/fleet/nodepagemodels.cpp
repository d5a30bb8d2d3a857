#include "nodepagemodels.h"

#include <QBrush>
#include <QLocale>
#include <cmath>

#include "models/metricscale.h"

namespace meridian {

namespace {

QString reading(FleetMetric metric, float value)
{
    return formatMetric(metric, value);
}

QString rate(double gbps)
{
    return std::isnan(gbps) ? QStringLiteral("–") : QLocale().toString(gbps, 'f', 1);
}

}  // namespace

NodeCardsModel::NodeCardsModel(QObject *parent) : KeyedTableModel(parent)
{}

void NodeCardsModel::setNode(const FleetSnapshot &s, NodeHandle node)
{
    std::vector<NodeCardRow> rows;
    const FleetLayout &l = *s.layout;
    if (node < l.nodeCount()) {
        for (CardHandle c : l.nodeCards[node])
            rows.push_back({c, l.cardIndex[c], QString::fromStdString(l.cardModel[c]),
                            QString::fromStdString(l.cardUuid[c]), cardCondition(s, c),
                            s.utilization[c], s.memoryPercent[c], s.temperature[c], s.power[c],
                            s.errors[c]});
    }
    // NaN never equals itself: two absent readings are the same, or every row would repaint.
    const auto sameReading = [](float a, float b) {
        return a == b || (std::isnan(a) && std::isnan(b));
    };
    const auto same = [&](const NodeCardRow &a, const NodeCardRow &b) {
        return sameReading(a.utilization, b.utilization) && sameReading(a.memory, b.memory) &&
               sameReading(a.temperature, b.temperature) && sameReading(a.power, b.power) &&
               a.condition == b.condition && a.errors == b.errors && a.model == b.model;
    };
    mergeRows(
        std::move(rows), [](const NodeCardRow &r) { return r.card; }, same);
}

int NodeCardsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeCardsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeCardRow &r = m_rows[static_cast<size_t>(index.row())];
    if (role == CardRole)
        return static_cast<uint>(r.card);
    if (role == Qt::ForegroundRole && index.column() == Health && isCardFault(r.condition))
        return QBrush(conditionColor(r.condition).darker(120));
    if (role == Qt::TextAlignmentRole && index.column() >= Utilization && index.column() <= Errors)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Card: return r.index;
    case Model: return r.model;
    case Health: return conditionName(r.condition);
    case Utilization: return reading(FleetMetric::Utilization, r.utilization);
    case Memory: return reading(FleetMetric::Memory, r.memory);
    case Temperature: return reading(FleetMetric::Temperature, r.temperature);
    case Power: return reading(FleetMetric::Power, r.power);
    case Errors: return r.errors;
    case Uuid: return r.uuid;
    default: return {};
    }
}

QVariant NodeCardsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Card: return tr("Card");
    case Model: return tr("Model");
    case Health: return tr("Health");
    case Utilization: return metricName(FleetMetric::Utilization);
    case Memory: return metricName(FleetMetric::Memory);
    case Temperature: return metricName(FleetMetric::Temperature);
    case Power: return metricName(FleetMetric::Power);
    case Errors: return tr("Xid/ECC");
    case Uuid: return tr("UUID");
    default: return {};
    }
}

NodeLinksModel::NodeLinksModel(QObject *parent) : KeyedTableModel(parent)
{}

void NodeLinksModel::setLinks(const std::vector<HostNic> &nics, const std::string &nodeId)
{
    std::vector<NodeLinkRow> rows;
    const auto gbps = [](const std::optional<double> &bytesPerSecond) {
        return bytesPerSecond ? *bytesPerSecond * 8 / 1e9 : std::nan("");
    };
    for (const HostNic &h : nics) {
        if (h.nodeId != nodeId)
            continue;
        const LinkState state = h.sample ? h.sample->counters.linkState : h.nic.linkState;
        NodeLinkRow row;
        row.netdev = QString::fromStdString(h.nic.netdev);
        row.state = state == LinkState::Up     ? tr("up")
                    : state == LinkState::Down ? tr("down")
                                               : tr("unknown");
        if (h.nic.neighbor)
            row.neighbour = QStringLiteral("%1 %2").arg(
                QString::fromStdString(h.nic.neighbor->systemName.empty()
                                           ? h.nic.neighbor->chassisId
                                           : h.nic.neighbor->systemName),
                QString::fromStdString(h.nic.neighbor->portId));
        row.nearestCard = h.nic.nearestCardIndex;
        row.rxGbps = h.sample ? gbps(h.sample->rxBytesPerSecond) : std::nan("");
        row.txGbps = h.sample ? gbps(h.sample->txBytesPerSecond) : std::nan("");
        row.drops = h.recentLinkDrops;
        rows.push_back(std::move(row));
    }
    const auto same = [](const NodeLinkRow &a, const NodeLinkRow &b) {
        return a.state == b.state && a.neighbour == b.neighbour && a.drops == b.drops &&
               rate(a.rxGbps) == rate(b.rxGbps) && rate(a.txGbps) == rate(b.txGbps);
    };
    mergeRows(
        std::move(rows), [](const NodeLinkRow &r) { return r.netdev; }, same);
}

int NodeLinksModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeLinksModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeLinkRow &r = m_rows[static_cast<size_t>(index.row())];
    const bool faulty = r.state == tr("down") || r.drops >= 2;
    if (role == Qt::ForegroundRole && faulty)
        return QBrush(linkFaultColor());
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Nic: return r.netdev;
    case State: return r.state;
    case Neighbour: return r.neighbour.isEmpty() ? tr("(no LLDP)") : r.neighbour;
    case NearestCard:
        return r.nearestCard ? QVariant(*r.nearestCard) : QVariant(QStringLiteral("–"));
    case Rx: return rate(r.rxGbps);
    case Tx: return rate(r.txGbps);
    case Drops: return r.drops;
    default: return {};
    }
}

QVariant NodeLinksModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Nic: return tr("NIC");
    case State: return tr("State");
    case Neighbour: return tr("Switch port (LLDP)");
    case NearestCard: return tr("Nearest card");
    case Rx: return tr("Rx Gb/s");
    case Tx: return tr("Tx Gb/s");
    case Drops: return tr("Drops (10 min)");
    default: return {};
    }
}

}  // namespace meridian
