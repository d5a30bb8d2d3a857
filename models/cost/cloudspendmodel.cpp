#include "cloudspendmodel.h"

#include <QCoreApplication>
#include <QLocale>

namespace meridian {

namespace {

// The Reports window's words, kept in its translation context, where lupdate finds them.
class ReportsWindowWords {
    Q_DECLARE_TR_FUNCTIONS(meridian::ReportsWindow)
};

}  // namespace

void CloudSpendModel::setLeases(std::vector<CloudSpendRow> leases)
{
    mergeRows(
        std::move(leases), [](const CloudSpendRow &r) { return r.leaseId; },
        [](const CloudSpendRow &a, const CloudSpendRow &b) {
            return a.billedHours == b.billedHours && a.costCny == b.costCny &&
                   a.service == b.service && a.cards == b.cards;
        });
}

int CloudSpendModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CloudSpendModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const CloudSpendRow &r = m_rows[static_cast<size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole && column >= Cards)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (column) {
        case Cards: return r.cards;
        case CnyPerCardHour: return r.cnyPerCardHour;
        case BilledHours: return r.billedHours;
        case Cost: return r.costCny;
        default: break;
        }
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const QLocale locale;
    switch (column) {
    case Lease: return QString::fromStdString(r.leaseId);
    case Service:
        return r.service.empty() ? ReportsWindowWords::tr("(not the autoscaler's)")
                                 : QString::fromStdString(r.service);
    case Region: return QString::fromStdString(r.region);
    case CardModel: return QString::fromStdString(r.cardModel);
    case Cards: return QString::number(r.cards);
    case CnyPerCardHour: return locale.toString(r.cnyPerCardHour, 'f', 2);
    case BilledHours: return locale.toString(r.billedHours, 'f', 0);
    case Cost: return locale.toString(r.costCny, 'f', 2);
    }
    return {};
}

QVariant CloudSpendModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Lease: return ReportsWindowWords::tr("Cloud lease");
    case Service: return ReportsWindowWords::tr("Service");
    case Region: return ReportsWindowWords::tr("Region");
    case CardModel: return ReportsWindowWords::tr("Card model");
    case Cards: return ReportsWindowWords::tr("Cards");
    case CnyPerCardHour: return ReportsWindowWords::tr("CNY per card-hour");
    case BilledHours: return ReportsWindowWords::tr("Billed hours");
    case Cost: return ReportsWindowWords::tr("Spend (CNY)");
    }
    return {};
}

}  // namespace meridian
