#include "alertsmodel.h"

#include "alertcenter.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>
#include <algorithm>

#include "alertguidance.h"
#include "models/metricscale.h"

namespace meridian {

namespace {

int64_t sinceMs(const Alert &a, int64_t nowMs)
{
    const int64_t since = a.activeSinceMs ? a.activeSinceMs : a.firstSeenMs;
    return (a.active ? nowMs : a.lastSeenMs) - since;
}

bool sameRow(const Alert &a, const Alert &b, int64_t nowA, int64_t nowB)
{
    // The "for" column moves by the minute: a row changes when its text would.
    return a.lastSeenMs == b.lastSeenMs && a.count == b.count && a.active == b.active &&
           a.acknowledgedMs == b.acknowledgedMs && a.silencedUntilMs == b.silencedUntilMs &&
           a.note == b.note && a.message == b.message && a.silenced(nowA) == b.silenced(nowB) &&
           a.xid == b.xid && a.silencedBy == b.silencedBy &&
           AlertsModel::durationText(sinceMs(a, nowA)) ==
               AlertsModel::durationText(sinceMs(b, nowB));
}

// The whole story in one place: what it means, the latest detail, what to do, and what
// the narrowed columns may cut (who has it, the note, why it is silenced).
QString alertTip(const Alert &a, int64_t nowMs)
{
    QString tip = QStringLiteral("<b>%1</b><br>%2")
                      .arg(alertTitle(a).toHtmlEscaped(), alertMeaning(a).toHtmlEscaped());
    if (!a.message.empty())
        tip +=
            QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(a.message).toHtmlEscaped());
    tip +=
        QStringLiteral("<br>") + AlertsModel::tr("Next: %1").arg(alertNextStep(a).toHtmlEscaped());
    // What the narrowed columns may cut: who has it, and the note.
    tip += QStringLiteral("<br>") + AlertsModel::stateText(a, nowMs).toHtmlEscaped();
    if (!a.note.empty())
        tip += QStringLiteral("<br>") +
               AlertsModel::tr("Note: %1").arg(QString::fromStdString(a.note).toHtmlEscaped());
    if (!a.silenceReason.empty() && a.silenced(nowMs))
        tip += QStringLiteral("<br>") +
               AlertsModel::tr("Silenced: %1")
                   .arg(QString::fromStdString(a.silenceReason).toHtmlEscaped());
    return tip;
}

}  // namespace

AlertsModel::AlertsModel(QObject *parent) : KeyedTableModel(parent)
{}

AlertsModel::AlertsModel(const AlertCenter &center, QObject *parent) : KeyedTableModel(parent)
{
    connect(&center, &AlertCenter::alertsChanged, this,
            [this, &center] { setAlerts(center.view().alerts, center.nowMs()); });
    setAlerts(center.view().alerts, center.nowMs());
}

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

QString AlertsModel::timeText(int64_t unixMs)
{
    return QDateTime::fromMSecsSinceEpoch(unixMs).toString(QStringLiteral("MM-dd HH:mm:ss t"));
}

QString AlertsModel::durationText(int64_t ms)
{
    return alertDurationText(ms);
}

QString AlertsModel::stateText(const Alert &a, int64_t nowMs)
{
    if (!a.active)
        return tr("resolved");
    if (a.silenced(nowMs)) {
        const QString until =
            QDateTime::fromMSecsSinceEpoch(a.silencedUntilMs).toString(QStringLiteral("HH:mm t"));
        return a.silencedBy.empty()
                   ? tr("silenced until %1").arg(until)
                   : tr("silenced by %1 until %2").arg(QString::fromStdString(a.silencedBy), until);
    }
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
        case Severity: {
            // Critical before warning, open before handled, then the newest occurrence
            // first: the time it began, which does not move while its count ticks, so a
            // row stays where it is under the mouse.
            const qlonglong rank = static_cast<int>(a.severity) * 2 + (a.open(m_nowMs) ? 1 : 0);
            const int64_t began = a.activeSinceMs ? a.activeSinceMs : a.firstSeenMs;
            return rank * kRankSpanMs + std::clamp<int64_t>(began, 0, kRankSpanMs - 1);
        }
        case Since: return static_cast<qlonglong>(sinceMs(a, m_nowMs));
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
        case What: return alertTitle(a);
        case Where: return alertWhere(a);
        case DataCenter: return dataCenterTitle(a.dataCenter);
        case Since: return durationText(sinceMs(a, m_nowMs));
        case FirstSeen: return timeText(a.firstSeenMs);
        case LastSeen: return timeText(a.lastSeenMs);
        case Count: return QString::number(a.count);
        case State: return stateText(a, m_nowMs);
        case NextStep: return alertNextStep(a);
        case Note: return QString::fromStdString(a.note);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return alertTip(a, m_nowMs);
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
    case Since: return tr("For");
    case FirstSeen: return tr("First seen");
    case LastSeen: return tr("Last seen");
    case Count: return tr("Count");
    case State: return tr("State");
    case NextStep: return tr("Next step");
    case Note: return tr("Note");
    default: return {};
    }
}

}  // namespace meridian
