#include "alertroutesmodel.h"

#include <QCoreApplication>
#include <QStringList>

#include "models/plaintip.h"

#include "alertguidance.h"

namespace meridian {

namespace {

// The routing dialog's words, kept in its translation context, where lupdate finds them.
class RoutingDialogWords {
    Q_DECLARE_TR_FUNCTIONS(meridian::AlertRoutingDialog)
};

QString filterText(const AlertRoute &route)
{
    QStringList parts;
    if (route.escalates())
        parts << QCoreApplication::translate("meridian::AlertRoutingDialog",
                                             "critical and unanswered after %1 min, again "
                                             "every %2 min")
                     .arg(route.escalateAfterMs / 60'000)
                     .arg(route.repeatMs / 60'000);
    else
        parts << (route.minimumSeverity == AlertSeverity::Critical
                      ? RoutingDialogWords::tr("critical only")
                      : RoutingDialogWords::tr("warning and critical"));
    QStringList kinds;
    for (AlertKind k : route.kinds)
        kinds << alertKindTitle(k);
    if (!kinds.isEmpty())
        parts << kinds.join(QStringLiteral(", "));
    QStringList dcs;
    for (const std::string &dc : route.dataCenters)
        dcs << QString::fromStdString(dc);
    if (!dcs.isEmpty())
        parts << dcs.join(QStringLiteral(", "));
    return parts.join(QStringLiteral(" · "));
}

QString originOf(const std::string &url)
{
    // The key or token in a webhook's URL is a secret: show where it goes, not the key.
    const QString text = QString::fromStdString(url);
    const int query = text.indexOf(QLatin1Char('?'));
    return query < 0 ? text : text.left(query) + QStringLiteral("?…");
}

QString deliveredText(const RouteStatus &s)
{
    QString delivered = QString::number(s.delivered);
    if (s.waiting > 0)
        delivered += RoutingDialogWords::tr(", %1 waiting").arg(s.waiting);
    if (s.droppedAfterRetries > 0)
        delivered += RoutingDialogWords::tr(", %1 given up").arg(s.droppedAfterRetries);
    return delivered;
}

}  // namespace

void AlertRoutesModel::setRoutes(const std::vector<AlertRoute> &routes,
                                 const std::vector<RouteStatus> &status)
{
    std::vector<AlertRouteRow> rows;
    rows.reserve(routes.size());
    for (size_t i = 0; i < routes.size(); ++i)
        rows.push_back({routes[i], i < status.size() ? status[i] : RouteStatus{}});
    mergeRows(
        std::move(rows), [](const AlertRouteRow &r) { return r.route.name; },
        [](const AlertRouteRow &a, const AlertRouteRow &b) {
            return a.status.delivered == b.status.delivered &&
                   a.status.waiting == b.status.waiting &&
                   a.status.droppedAfterRetries == b.status.droppedAfterRetries &&
                   a.status.lastError == b.status.lastError;
        });
}

int AlertRoutesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertRoutesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const AlertRouteRow &r = m_rows[static_cast<size_t>(index.row())];
    if (role == NameRole)
        return QString::fromStdString(r.route.name);
    if (role == Qt::ToolTipRole && index.column() == LastProblem)
        return plainTip(r.status.lastError);  // a receiver's own words, shown as written
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Route: return QString::fromStdString(r.route.name);
    case Kind: return QString::fromLatin1(routeKindName(r.route.kind));
    case Address: return originOf(r.route.url);
    case Takes: return filterText(r.route);
    case Delivered: return deliveredText(r.status);
    case LastProblem: return QString::fromStdString(r.status.lastError);
    default: return {};
    }
}

QVariant AlertRoutesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Route: return RoutingDialogWords::tr("Route");
    case Kind: return RoutingDialogWords::tr("Kind");
    case Address: return RoutingDialogWords::tr("Address");
    case Takes: return RoutingDialogWords::tr("Takes");
    case Delivered: return RoutingDialogWords::tr("Delivered");
    case LastProblem: return RoutingDialogWords::tr("Last problem");
    default: return {};
    }
}

}  // namespace meridian
