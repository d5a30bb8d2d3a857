#include "reporttablemodel.h"

#include <QFont>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "core/textutil.h"
#include "models/metricscale.h"
#include "reportwording.h"

namespace meridian {

ReportTableModel::ReportTableModel(QObject *parent) : QAbstractTableModel(parent)
{}

void ReportTableModel::setReport(const UsageReport &report)
{
    beginResetModel();
    m_report = report;
    endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || m_report.rows.empty())
        return 0;
    return static_cast<int>(m_report.rows.size()) + 1;  // and the total
}

int ReportTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const ReportRow &ReportTableModel::rowAt(int row) const
{
    return static_cast<size_t>(row) < m_report.rows.size() ? m_report.rows[static_cast<size_t>(row)]
                                                           : m_report.total;
}

double ReportTableModel::value(const ReportRow &row, int column) const
{
    switch (column) {
    case Cards: return row.cards;
    case CardHours: return row.cardHours;
    case Coverage: return m_report.coveragePercent(row.cardHours, row.cards).value_or(std::nan(""));
    case BusyPercent: return row.busyPercent();
    case MeanUtilization: return row.meanUtilizationPercent().value_or(std::nan(""));
    case IdleCardHours: return row.idleCardHours();
    case Cost: return row.costCny;
    case IdleCost: return row.idleCostCny;
    case Energy: return row.energyKwh;
    case Unpriced: return row.unpricedCardHours;
    default: return 0;
    }
}

QString ReportTableModel::groupTitle(ReportGroup group, const std::string &name)
{
    if (group == ReportGroup::DataCenter)
        return dataCenterTitle(name);
    if (group == ReportGroup::Service && name == "(no service)")
        return tr("(no service)");
    if (group == ReportGroup::Customer && name == "(no contract)")
        return tr("(no contract: list price)");
    return QString::fromStdString(name);
}

QString ReportTableModel::groupHeader(ReportGroup group)
{
    switch (group) {
    case ReportGroup::DataCenter: return tr("Data center");
    case ReportGroup::Vendor: return tr("Vendor");
    case ReportGroup::Model: return tr("Card model");
    case ReportGroup::Node: return tr("Node");
    case ReportGroup::Service: return tr("Inference service");
    case ReportGroup::Customer: return tr("Customer");
    }
    return {};
}

QVariant ReportTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const bool isTotal = static_cast<size_t>(index.row()) >= m_report.rows.size();
    const ReportRow &row = rowAt(index.row());
    const int column = index.column();
    if (role == TotalRole)
        return isTotal;
    if (role == SortRole)
        return column == Group ? QVariant(QString::fromStdString(row.group))
                               : QVariant(value(row, column));
    if (role == Qt::DisplayRole) {
        if (column == Group)
            return isTotal ? tr("Total") : groupTitle(m_report.group, row.group);
        const double v = value(row, column);
        if (std::isnan(v))
            return QStringLiteral("–");
        switch (column) {
        case Cards: return QLocale().toString(row.cards);
        case Coverage:
        case BusyPercent:
        case MeanUtilization: return percentText(v);
        case Cost:
        case IdleCost: return moneyText(v);
        case CardHours:
        case IdleCardHours:
        case Unpriced: return cardHoursText(v);
        default: return QLocale().toString(v, 'f', 1);
        }
    }
    if (role == Qt::TextAlignmentRole && column != Group)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && isTotal) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole && column == Unpriced && row.unpricedCardHours > 0)
        return tr("Card-hours no price in the price book covers: counted, not billed");
    return {};
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == BusyPercent)
        return tr(
            "Share of recorded card-hours at or above 5% utilisation: a card busy at 20% "
            "for an hour is a busy card-hour, so Busy runs well above Mean utilisation");
    if (role == Qt::ToolTipRole && section == Coverage)
        return tr(
            "Share of the card-hours these cards would give over the period (up to now) "
            "that the history holds: below 100%, minutes are missing, not idle");
    if (role == Qt::ToolTipRole && section == MeanUtilization)
        return tr("Average utilisation over the recorded card-hours");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Group: return groupHeader(m_report.group);
    case Cards: return tr("Cards");
    case CardHours: return tr("Card-hours");
    case Coverage: return tr("Coverage");
    case BusyPercent: return tr("Busy");
    case MeanUtilization: return tr("Mean utilisation");
    case IdleCardHours: return tr("Idle card-hours");
    case Cost: return tr("Value (CNY)");
    case IdleCost: return tr("Idle value (CNY)");
    case Energy: return tr("Energy (kWh)");
    case Unpriced: return tr("Unpriced card-hours");
    default: return {};
    }
}

ReportSortProxy::ReportSortProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(ReportTableModel::SortRole);
}

bool ReportSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // The total goes last whichever way the groups are sorted: descending, the proxy
    // places `left` first when lessThan(right, left) holds.
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    if (left.data(ReportTableModel::TotalRole).toBool())
        return !ascending;
    if (right.data(ReportTableModel::TotalRole).toBool())
        return ascending;
    const QVariant leftData = left.data(sortRole());
    const QVariant rightData = right.data(sortRole());
    if (left.column() == ReportTableModel::Group)
        return naturalLess(leftData.toString().toStdString(), rightData.toString().toStdString());
    // A group with no reading ("–", NaN) sorts below every figure: NaN compared with <
    // would break the sort's ordering.
    const double leftFigure = leftData.toDouble();
    const double rightFigure = rightData.toDouble();
    if (std::isnan(leftFigure) || std::isnan(rightFigure))
        return std::isnan(leftFigure) && !std::isnan(rightFigure);
    return leftFigure < rightFigure;
}

}  // namespace meridian
