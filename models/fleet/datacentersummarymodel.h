// One row per data center: cards, how busy, domestic share, agents stale or
// unreachable. Rows are merged by data-center name on every snapshot: inserts and
// removals for new or vanished data centers, dataChanged for what changed, never a reset.
// Lives on the UI thread.
#pragma once

#include <QString>
#include <map>
#include <memory>
#include <vector>

#include "fleet/fleetstate.h"
#include "models/keyedtablemodel.h"

namespace meridian {

// One data center's figures (a row of DataCenterSummaryModel).
struct DataCenterSummaryRow {
    QString name;
    int cards = 0;
    int reporting = 0;  // cards with a utilisation reading
    int busy = 0;
    double utilizationSum = 0;
    int domestic = 0;
    int nodes = 0;
    int liveNodes = 0;
    int connectingNodes = 0;  // not heard from yet: the console is still connecting
    int staleNodes = 0;       // heard from, then silent
    int unreachableNodes = 0;
    int openAlerts = 0;
    bool operator==(const DataCenterSummaryRow &) const = default;
};

class DataCenterSummaryModel final : public KeyedTableModel<DataCenterSummaryRow> {
    Q_OBJECT
public:
    enum Column {
        Name,
        Cards,
        Busy,
        MeanUtilization,
        Domestic,
        LiveNodes,
        StaleNodes,
        UnreachableNodes,
        OpenAlerts,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    // A card counts as busy at or above this utilisation (as in the usage ledger).
    static constexpr float kBusyPercent = 5.0f;

    explicit DataCenterSummaryModel(QObject *parent = nullptr);

    // openAlerts: open alerts per data center (by its raw name), when triage runs.
    void setSnapshot(const FleetSnapshot &snapshot,
                     const std::map<std::string, int> &openAlerts = {});

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // What a column's figure means, as its header's tooltip says.
    static QString headerDefinition(int section);

    using Row = DataCenterSummaryRow;
    const std::vector<Row> &rows() const { return m_rows; }

private:
    QVariant value(const DataCenterSummaryRow &row, int column) const;
};

}  // namespace meridian
