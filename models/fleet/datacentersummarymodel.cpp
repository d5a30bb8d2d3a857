#include "datacentersummarymodel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <cmath>

#include "models/metricscale.h"

namespace meridian {

namespace {

std::vector<DataCenterSummaryRow> summarise(const FleetSnapshot &s,
                                            const std::map<std::string, int> &openAlerts)
{
    std::vector<DataCenterSummaryRow> rows;
    const FleetLayout &layout = *s.layout;
    std::vector<int> rowOfNode(layout.nodeCount());
    for (NodeHandle n = 0; n < layout.nodeCount(); ++n) {
        const QString name = dataCenterTitle(layout.nodeDataCenter[n]);
        auto it =
            std::find_if(rows.begin(), rows.end(), [&](const auto &r) { return r.name == name; });
        if (it == rows.end()) {
            rows.push_back({});
            rows.back().name = name;
            const auto open = openAlerts.find(layout.nodeDataCenter[n]);
            rows.back().openAlerts = open == openAlerts.end() ? 0 : open->second;
            it = std::prev(rows.end());
        }
        rowOfNode[n] = static_cast<int>(it - rows.begin());
        ++it->nodes;
        switch (s.nodeStatus(n)) {
        case NodeStatus::Live: ++it->liveNodes; break;
        case NodeStatus::Connecting: ++it->connectingNodes; break;
        case NodeStatus::Stale: ++it->staleNodes; break;
        case NodeStatus::Unreachable: ++it->unreachableNodes; break;
        }
    }
    for (CardHandle c = 0; c < layout.cardCount(); ++c) {
        DataCenterSummaryRow &row = rows[static_cast<size_t>(rowOfNode[layout.cardNode[c]])];
        ++row.cards;
        if (isDomestic(layout.cardVendor[c]))
            ++row.domestic;
        const float util = s.utilization[c];
        if (!std::isnan(util) && !s.nodeStale(layout.cardNode[c])) {
            ++row.reporting;
            row.utilizationSum += util;
            if (util >= DataCenterSummaryModel::kBusyPercent)
                ++row.busy;
        }
    }
    return rows;
}

double percent(int part, int whole)
{
    return whole > 0 ? 100.0 * part / whole : std::nan("");
}

QString percentText(double value)
{
    return std::isnan(value) ? QStringLiteral("–") : QStringLiteral("%1%").arg(value, 0, 'f', 0);
}

}  // namespace

DataCenterSummaryModel::DataCenterSummaryModel(QObject *parent) : KeyedTableModel(parent)
{}

void DataCenterSummaryModel::setSnapshot(const FleetSnapshot &snapshot,
                                         const std::map<std::string, int> &openAlerts)
{
    mergeRows(
        summarise(snapshot, openAlerts), [](const Row &r) { return r.name; },
        [](const Row &a, const Row &b) { return a == b; });
}

int DataCenterSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DataCenterSummaryModel::value(const Row &row, int column) const
{
    switch (column) {
    case Name: return row.name;
    case Cards: return row.cards;
    case Busy: return percent(row.busy, row.reporting);
    case MeanUtilization:
        return row.reporting > 0 ? row.utilizationSum / row.reporting : std::nan("");
    case Domestic: return percent(row.domestic, row.cards);
    case LiveNodes: return row.liveNodes;
    case StaleNodes: return row.staleNodes;
    case UnreachableNodes: return row.unreachableNodes;
    case OpenAlerts: return row.openAlerts;
    default: return {};
    }
}

QVariant DataCenterSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[static_cast<size_t>(index.row())];
    const int column = index.column();
    if (role == SortRole)
        return value(row, column);
    if (role == Qt::DisplayRole) {
        switch (column) {
        case Name: return row.name;
        case Cards: return QLocale().toString(row.cards);
        case Busy:
        case MeanUtilization:
        case Domestic: return percentText(value(row, column).toDouble());
        case LiveNodes:
            // Right after start nobody has answered yet: that is connecting, not stale.
            if (row.connectingNodes > 0)
                return tr("%1 of %2, %3 connecting")
                    .arg(row.liveNodes)
                    .arg(row.nodes)
                    .arg(row.connectingNodes);
            return tr("%1 of %2").arg(row.liveNodes).arg(row.nodes);
        case StaleNodes: return QString::number(row.staleNodes);
        case UnreachableNodes: return QString::number(row.unreachableNodes);
        case OpenAlerts: return QString::number(row.openAlerts);
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && column != Name)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    const bool alarming = (column == OpenAlerts && row.openAlerts > 0) ||
                          (column == StaleNodes && row.staleNodes > 0) ||
                          (column == UnreachableNodes && row.unreachableNodes > 0);
    if (role == Qt::ForegroundRole && alarming)
        return QBrush(QColor(0xd6, 0x27, 0x28));
    if (role == Qt::ToolTipRole && column == Busy) {
        return tr("%1 of %2 reporting cards at or above %3% utilisation")
            .arg(row.busy)
            .arg(row.reporting)
            .arg(static_cast<double>(kBusyPercent));
    }
    return {};
}

QVariant DataCenterSummaryModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return headerDefinition(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Data center");
    case Cards: return tr("Cards");
    case Busy: return tr("Busy");
    case MeanUtilization: return tr("Mean utilisation");
    case Domestic: return tr("Domestic");
    case LiveNodes: return tr("Agents live");
    case StaleNodes: return tr("Stale");
    case UnreachableNodes: return tr("Unreachable");
    case OpenAlerts: return tr("Open alerts");
    default: return {};
    }
}

QString DataCenterSummaryModel::headerDefinition(int section)
{
    switch (section) {
    case Cards: return tr("Accelerator cards in the inventory of the data center's agents");
    case Busy:
        return tr("Share of reporting cards at or above %1% utilisation now (the line the "
                  "usage ledger bills as busy)")
            .arg(static_cast<double>(kBusyPercent));
    case MeanUtilization: return tr("Mean utilisation of the cards reporting now");
    case Domestic:
        return tr(
            "Share of cards made in China (Huawei Ascend, Cambricon MLU, Hygon DCU), "
            "against NVIDIA");
    case LiveNodes: return tr("Agents whose telemetry arrived within three intervals");
    case StaleNodes:
        return tr("Agents that reported before but have been silent for three intervals");
    case UnreachableNodes:
        return tr(
            "Agents the console cannot connect to (refused, "
            "timed out, or their certificate or token was refused)");
    case OpenAlerts: return tr("Alerts neither acknowledged, silenced nor resolved");
    default: return {};
    }
}

}  // namespace meridian
