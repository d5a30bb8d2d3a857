#include "silencesmodel.h"

#include <QCoreApplication>
#include <QStringList>
#include <tuple>

#include "alertguidance.h"
#include "alertsmodel.h"
#include "models/metricscale.h"
#include "models/plaintip.h"

namespace meridian {

namespace {

// The alerts panel's words, kept in its translation context, where lupdate finds them.
class AlertsPanelWords {
    Q_DECLARE_TR_FUNCTIONS(meridian::AlertsPanel)
};

// What a silence quiets, as people name it: the alert, its kind, the node, the site.
QString silencedWhat(const SilenceRule &r)
{
    QStringList what;
    if (!r.alertKey.empty())
        what << QString::fromStdString(r.alertKey);
    if (r.kind)
        what << alertKindTitle(*r.kind);
    if (!r.node.empty())
        what << QString::fromStdString(r.node);
    if (!r.dataCenter.empty())
        what << dataCenterTitle(r.dataCenter);
    if (what.isEmpty() && !r.matchers.empty())  // made in Alertmanager, with its own matchers
        what << QString::fromStdString(r.matchersText());
    return what.join(QStringLiteral(" · "));
}

}  // namespace

void SilencesModel::setSilences(std::vector<SilenceRule> silences)
{
    // A silence just set in a console with a history file has no id until the file gives
    // it one: until then what it quiets tells it apart.
    const auto keyOf = [](const SilenceRule &r) {
        return std::tuple(r.id, r.alertKey, r.node, r.dataCenter, r.untilMs);
    };
    mergeRows(std::move(silences), keyOf, [](const SilenceRule &a, const SilenceRule &b) {
        return a.untilMs == b.untilMs && a.reason == b.reason && a.by == b.by;
    });
}

int SilencesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SilencesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const SilenceRule &r = m_rows[static_cast<size_t>(index.row())];
    if (role == IdRole)
        return static_cast<qlonglong>(r.id);
    if (role == Qt::ToolTipRole) {
        // Who made it and why come from a watcher or an Alertmanager: shown as written.
        switch (index.column()) {
        case By: return plainTip(r.by);
        case Reason: return plainTip(r.reason);
        default: break;
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case What: return silencedWhat(r);
    case Until: return AlertsModel::timeText(r.untilMs);
    case By: return QString::fromStdString(r.by);
    case Reason: return QString::fromStdString(r.reason);
    default: return {};
    }
}

QVariant SilencesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case What: return AlertsPanelWords::tr("What");
    case Until: return AlertsPanelWords::tr("Until");
    case By: return AlertsPanelWords::tr("By");
    case Reason: return AlertsPanelWords::tr("Reason");
    default: return {};
    }
}

}  // namespace meridian
