#include "faultresponsemodel.h"

#include <QFont>
#include <QtConcurrent/QtConcurrentRun>
#include <filesystem>

#include "alerts/alerttriagelog.h"

namespace meridian {

namespace {

QString minutes(const std::optional<int64_t> &ms)
{
    if (!ms)
        return QStringLiteral("—");
    const double m = static_cast<double>(*ms) / 60'000.0;
    return m < 100 ? QObject::tr("%1 min").arg(m, 0, 'f', 1)
                   : QObject::tr("%1 h").arg(m / 60.0, 0, 'f', 1);
}

QString share(int count, double fraction)
{
    return QStringLiteral("%1 (%2%)").arg(count).arg(fraction * 100.0, 0, 'f', 0);
}

}  // namespace

FaultResponseModel::FaultResponseModel(QObject *parent) : QAbstractTableModel(parent)
{
    connect(&m_watcher, &QFutureWatcher<Loaded>::finished, this, &FaultResponseModel::take);
}

FaultResponseModel::~FaultResponseModel()
{
    m_watcher.waitForFinished();
}

void FaultResponseModel::load(const Ask &ask)
{
    if (m_watcher.isRunning()) {
        m_next = ask;
        return;
    }
    start(ask);
}

void FaultResponseModel::start(const Ask &ask)
{
    m_watcher.setFuture(QtConcurrent::run([ask] { return read(ask); }));
}

FaultResponseModel::Loaded FaultResponseModel::read(const Ask &ask)
{
    Loaded loaded{ask, Error{""}};
    const std::string path = ask.historyFile.toStdString();
    if (path.empty() || !std::filesystem::exists(path)) {
        loaded.rows = Error{path + ": no history yet"};
        return loaded;
    }
    auto log = AlertTriageLog::open(path);
    if (!log) {
        loaded.rows = log.error();
        return loaded;
    }
    auto incidents = log.value()->incidents(ask.fromMs, ask.toMs);
    if (!incidents) {
        loaded.rows = incidents.error();
        return loaded;
    }
    loaded.rows = tallyResponse(incidents.value(), ask.grouping, ask.targets);
    return loaded;
}

void FaultResponseModel::take()
{
    Loaded loaded = m_watcher.result();
    if (m_next) {
        const Ask next = *m_next;
        m_next.reset();
        start(next);
        return;
    }
    beginResetModel();
    m_shown = loaded.ask;
    if (loaded.rows) {
        m_rows = std::move(loaded.rows).value();
        m_problem.clear();
    } else {
        m_rows.clear();
        m_problem = QString::fromStdString(loaded.rows.error().message);
    }
    endResetModel();
    Q_EMIT this->loaded();
}

int FaultResponseModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FaultResponseModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FaultResponseModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ResponseRow &r = m_rows[static_cast<size_t>(index.row())];
    const bool total = index.row() + 1 == rowCount();
    if (role == Qt::FontRole && total) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::TextAlignmentRole && index.column() != Group)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Group: return total ? tr("Total") : QString::fromStdString(r.group);
    case Incidents: return r.incidents;
    case MedianToAcknowledge: return minutes(r.medianAcknowledgeMs);
    case P90ToAcknowledge: return minutes(r.p90AcknowledgeMs);
    case AcknowledgedInTime: return share(r.acknowledgedInTime, r.shareAcknowledgedInTime());
    case MedianToResolve: return minutes(r.medianResolveMs);
    case P90ToResolve: return minutes(r.p90ResolveMs);
    case ResolvedInTime: return share(r.resolvedInTime, r.shareResolvedInTime());
    case Open: return r.open;
    }
    return {};
}

QVariant FaultResponseModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const double ackMinutes = static_cast<double>(m_shown.targets.acknowledgeWithinMs) / 60'000;
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case AcknowledgedInTime:
            return tr("Alerts acknowledged within %1 minutes of being sent (the escalation "
                      "time), and their share of all alerts")
                .arg(ackMinutes);
        case ResolvedInTime:
            return tr(
                "Alerts resolved within an hour of being sent (the promise to "
                "customers), and their share of all alerts");
        case Open: return tr("Alerts not resolved yet");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Group: return groupingTitle(m_shown.grouping);
    case Incidents: return tr("Alerts");
    case MedianToAcknowledge: return tr("To ack (median)");
    case P90ToAcknowledge: return tr("To ack (p90)");
    case AcknowledgedInTime: return tr("Acked ≤ %1 min").arg(ackMinutes);
    case MedianToResolve: return tr("To resolve (median)");
    case P90ToResolve: return tr("To resolve (p90)");
    case ResolvedInTime: return tr("Resolved ≤ 1 h");
    case Open: return tr("Open");
    }
    return {};
}

QString FaultResponseModel::groupingTitle(ResponseGrouping grouping)
{
    switch (grouping) {
    case ResponseGrouping::Week: return tr("Week");
    case ResponseGrouping::DataCenter: return tr("Data center");
    case ResponseGrouping::Kind: return tr("Kind");
    case ResponseGrouping::Person: return tr("Acknowledged by");
    }
    return {};
}

}  // namespace meridian
