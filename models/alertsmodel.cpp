#include "alertsmodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>

#include "metricscale.h"

namespace meridian {

namespace {

QString timeText(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("MM-dd HH:mm:ss"));
}

bool sameRow(const Alert &a, const Alert &b, int64_t nowA, int64_t nowB)
{
    return a.lastSeenMs == b.lastSeenMs && a.count == b.count && a.active == b.active &&
           a.acknowledgedMs == b.acknowledgedMs && a.silencedUntilMs == b.silencedUntilMs &&
           a.note == b.note && a.message == b.message && a.silenced(nowA) == b.silenced(nowB);
}

}  // namespace

AlertsModel::AlertsModel(QObject *parent) : KeyedTableModel(parent)
{}

void AlertsModel::setAlerts(std::vector<Alert> alerts, int64_t nowMs)
{
    const int64_t before = m_nowMs;
    m_nowMs = nowMs;
    mergeRows(
        std::move(alerts), [](const Alert &a) { return a.key; },
        [&](const Alert &a, const Alert &b) { return sameRow(a, b, before, nowMs); });
}

const Alert *AlertsModel::alertAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<size_t>(row)]
                                                             : nullptr;
}

int AlertsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AlertsModel::stateText(const Alert &a, int64_t nowMs)
{
    if (!a.active)
        return tr("resolved");
    if (a.silenced(nowMs))
        return tr("silenced until %1")
            .arg(QDateTime::fromMSecsSinceEpoch(a.silencedUntilMs)
                     .toString(QStringLiteral("HH:mm")));
    if (a.acknowledgedMs)
        return tr("acknowledged by %1").arg(QString::fromStdString(a.acknowledgedBy));
    return tr("open");
}

QVariant AlertsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Alert &a = m_rows[static_cast<size_t>(index.row())];
    if (role == KeyRole)
        return QString::fromStdString(a.key);
    if (role == SortRole) {
        switch (index.column()) {
        case Severity: return static_cast<int>(a.severity) * 2 + (a.open(m_nowMs) ? 1 : 0);
        case FirstSeen: return static_cast<qlonglong>(a.firstSeenMs);
        case LastSeen: return static_cast<qlonglong>(a.lastSeenMs);
        case Count: return static_cast<qulonglong>(a.count);
        default: break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Severity:
            return a.severity == AlertSeverity::Critical ? tr("critical") : tr("warning");
        case What: return QString::fromLatin1(alertKindName(a.kind));
        case Where:
            return a.kind == AlertKind::DataCenterDark ? dataCenterTitle(a.subject)
                                                       : QString::fromStdString(a.subject);
        case DataCenter: return dataCenterTitle(a.dataCenter);
        case FirstSeen: return timeText(a.firstSeenMs);
        case LastSeen: return timeText(a.lastSeenMs);
        case Count: return QString::number(a.count);
        case State: return stateText(a, m_nowMs);
        case Note: return QString::fromStdString(a.note);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(a.message);
    if (role == Qt::ForegroundRole && index.column() == Severity && a.open(m_nowMs) &&
        a.severity == AlertSeverity::Critical)
        return QBrush(QColor(0xd6, 0x27, 0x28));
    if (role == Qt::FontRole && a.open(m_nowMs)) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

QVariant AlertsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Severity: return tr("Severity");
    case What: return tr("What");
    case Where: return tr("Where");
    case DataCenter: return tr("Data center");
    case FirstSeen: return tr("First seen");
    case LastSeen: return tr("Last seen");
    case Count: return tr("Count");
    case State: return tr("State");
    case Note: return tr("Note");
    default: return {};
    }
}

}  // namespace meridian
