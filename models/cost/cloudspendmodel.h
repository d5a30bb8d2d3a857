// A report's cloud leases as a table: one row per lease billed in the period, what it
// was rented for and what it cost. Merged by lease id when a new report comes (never a
// reset); SortRole gives the figures as numbers for a sort proxy. Lives on the UI thread.
#pragma once

#include "cost/usagereport.h"
#include "models/keyedtablemodel.h"

namespace meridian {

class CloudSpendModel final : public KeyedTableModel<CloudSpendRow> {
    Q_OBJECT
public:
    enum Column {
        Lease,
        Service,
        Region,
        CardModel,
        Cards,
        CnyPerCardHour,
        BilledHours,
        Cost,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    using KeyedTableModel::KeyedTableModel;
    void setLeases(std::vector<CloudSpendRow> leases);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace meridian
