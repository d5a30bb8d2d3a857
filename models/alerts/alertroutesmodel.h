// The alert routes and how delivery to each is going, as a table: its name, kind and
// address (a key in the URL hidden), what it takes, what was delivered, waits or was given
// up, and the last problem. Merged by route name on every refresh (never a reset), so the
// route picked for a test stays picked. Lives on the UI thread.
#pragma once

#include "alerts/alertdispatcher.h"
#include "alerts/alertrouting.h"
#include "models/keyedtablemodel.h"

namespace meridian {

struct AlertRouteRow {
    AlertRoute route;
    RouteStatus status;
};

class AlertRoutesModel final : public KeyedTableModel<AlertRouteRow> {
    Q_OBJECT
public:
    enum Column { Route, Kind, Address, Takes, Delivered, LastProblem, ColumnCount };
    static constexpr int NameRole = Qt::UserRole + 1;  // the route's name, to test it

    using KeyedTableModel::KeyedTableModel;
    // `status` is the dispatcher's, one per route in the routing's order.
    void setRoutes(const std::vector<AlertRoute> &routes, const std::vector<RouteStatus> &status);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace meridian
