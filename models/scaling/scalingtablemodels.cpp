#include "scalingtablemodels.h"

#include <QCoreApplication>
#include <QDateTime>
#include <tuple>

namespace meridian {

namespace {

// The Scaling window's words, kept in its translation context, where lupdate finds them.
class ScalingWindowWords {
    Q_DECLARE_TR_FUNCTIONS(meridian::ScalingWindow)
};

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

QString timeOf(int64_t unixMs)
{
    return QDateTime::fromMSecsSinceEpoch(unixMs).toString(QStringLiteral("MM-dd HH:mm:ss"));
}

// A p95 in seconds, a dash where there is no reading (sorted below every reading).
QVariant latency(const std::optional<double> &seconds, bool sort)
{
    if (sort)
        return seconds.value_or(-1.0);
    return seconds ? QString::number(*seconds, 'f', 2) : QStringLiteral("–");
}

QVariant header(const QStringList &names, int section, Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= names.size())
        return {};
    return names[section];
}

bool sameService(const ServiceScalingView &a, const ServiceScalingView &b)
{
    const auto last = [](const ServiceScalingView &s) {
        return s.history.empty() ? ServicePoint{} : s.history.back();
    };
    const ServicePoint la = last(a), lb = last(b);
    return a.localReplicas == b.localReplicas && a.rentedReplicas == b.rentedReplicas &&
           a.startingReplicas == b.startingReplicas && a.desiredReplicas == b.desiredReplicas &&
           a.rentedCards == b.rentedCards && a.rentedCnyPerHour == b.rentedCnyPerHour &&
           a.reason == b.reason && la.atMs == lb.atMs;
}

}  // namespace

QString scalingReasonText(ScalingReason reason)
{
    switch (reason) {
    case ScalingReason::Hold:
        return ScalingWindowWords::tr("steady: enough replicas for the demand");
    case ScalingReason::Up: return ScalingWindowWords::tr("more demand than the replicas serve");
    case ScalingReason::Panic:
        return ScalingWindowWords::tr("a sudden surge: adding replicas at once");
    case ScalingReason::LatencyGuard:
        return ScalingWindowWords::tr("answers too slow: time to first token over the objective");
    case ScalingReason::Down: return ScalingWindowWords::tr("less demand: replicas to spare");
    case ScalingReason::Bounds:
        return ScalingWindowWords::tr("at the service's minimum or maximum replicas");
    }
    return {};
}

void ScalingServicesModel::setServices(std::vector<ServiceScalingView> services)
{
    // The view's latest history point is all a row shows; the rest stays with the charts.
    mergeRows(
        std::move(services), [](const ServiceScalingView &s) { return s.service.name; },
        sameService);
}

const ServiceScalingView *ScalingServicesModel::serviceAt(int row) const
{
    return row >= 0 && row < rowCount() ? &m_rows[static_cast<size_t>(row)] : nullptr;
}

int ScalingServicesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScalingServicesModel::data(const QModelIndex &index, int role) const
{
    const ServiceScalingView *s = index.isValid() ? serviceAt(index.row()) : nullptr;
    if (s && role == Qt::ToolTipRole && index.column() == Decision)
        return scalingReasonText(s->reason);
    if (!s || (role != Qt::DisplayRole && role != SortRole))
        return {};
    const ServicePoint *last = s->history.empty() ? nullptr : &s->history.back();
    const bool sort = role == SortRole;
    switch (index.column()) {
    case Service: return text(s->service.name);
    case Local: return s->localReplicas;
    case Rented: return s->rentedReplicas;
    case Starting: return s->startingReplicas;
    case Desired: return s->desiredReplicas;
    case Arrivals:
        if (sort)
            return last ? last->arrivalRps : -1.0;
        return last ? QString::number(last->arrivalRps, 'f', 1) : QStringLiteral("–");
    case Waiting:
        if (sort)
            return last ? last->waitingRequests : -1.0;
        return last ? QString::number(last->waitingRequests, 'f', 0) : QStringLiteral("–");
    case QueueDelayP95: return latency(last ? last->queueDelayP95Seconds : std::nullopt, sort);
    case TtftP95: return latency(last ? last->ttftP95Seconds : std::nullopt, sort);
    case RentedCards: return s->rentedCards;
    case RentedCny:
        return sort ? QVariant(s->rentedCnyPerHour)
                    : QVariant(QString::number(s->rentedCnyPerHour, 'f', 2));
    case Decision: return scalingReasonText(s->reason);
    }
    return {};
}

QVariant ScalingServicesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header({ScalingWindowWords::tr("Service"), ScalingWindowWords::tr("Serving local"),
                   ScalingWindowWords::tr("Serving rented"), ScalingWindowWords::tr("Starting"),
                   ScalingWindowWords::tr("Desired"), ScalingWindowWords::tr("Arrivals req/s"),
                   ScalingWindowWords::tr("Waiting"), ScalingWindowWords::tr("Queue p95 s"),
                   ScalingWindowWords::tr("TTFT p95 s"), ScalingWindowWords::tr("Rented cards"),
                   ScalingWindowWords::tr("Rented CNY/h"), ScalingWindowWords::tr("Decision")},
                  section, orientation, role);
}

void ScalingJournalModel::setSteps(std::vector<JournalStep> steps)
{
    mergeRows(
        std::move(steps), [](const JournalStep &s) { return s.id; },
        [](const JournalStep &a, const JournalStep &b) {
            return a.state == b.state && a.updatedUnixMs == b.updatedUnixMs &&
                   a.leaseId == b.leaseId && a.nodeId == b.nodeId;
        });
}

int ScalingJournalModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScalingJournalModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() ||
        (role != Qt::DisplayRole && role != SortRole))
        return {};
    const JournalStep &s = m_rows[static_cast<size_t>(index.row())];
    const bool sort = role == SortRole;
    switch (index.column()) {
    case Step:
        return sort ? QVariant(static_cast<qlonglong>(s.id)) : QVariant(QString::number(s.id));
    case Created:
        return sort ? QVariant(static_cast<qlonglong>(s.createdUnixMs))
                    : QVariant(timeOf(s.createdUnixMs));
    case Service: return text(s.service);
    case State: return text(std::string(stepStateName(s.state)));
    case Offer: return text(s.offerId);
    case Lease: return text(s.leaseId);
    case Node: return text(s.nodeId);
    case CnyPerHour:
        return sort ? QVariant(s.cnyPerHour) : QVariant(QString::number(s.cnyPerHour, 'f', 2));
    case By: return text(s.requestedBy);
    case Why: return text(s.reason);
    }
    return {};
}

QVariant ScalingJournalModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header({ScalingWindowWords::tr("Step"), ScalingWindowWords::tr("Created"),
                   ScalingWindowWords::tr("Service"), ScalingWindowWords::tr("State"),
                   ScalingWindowWords::tr("Offer"), ScalingWindowWords::tr("Lease"),
                   ScalingWindowWords::tr("Node"), ScalingWindowWords::tr("CNY/h"),
                   ScalingWindowWords::tr("By"), ScalingWindowWords::tr("Why")},
                  section, orientation, role);
}

void ScalingAuditModel::setEntries(std::vector<AuditEntry> entries)
{
    // An entry is never edited: it is its own key.
    const auto key = [](const AuditEntry &e) {
        return std::make_tuple(e.atUnixMs, e.who, e.what, e.why);
    };
    mergeRows(std::move(entries), key, [](const AuditEntry &, const AuditEntry &) { return true; });
}

int ScalingAuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScalingAuditModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() ||
        (role != Qt::DisplayRole && role != SortRole))
        return {};
    const AuditEntry &e = m_rows[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case When:
        return role == SortRole ? QVariant(static_cast<qlonglong>(e.atUnixMs))
                                : QVariant(timeOf(e.atUnixMs));
    case Who: return text(e.who);
    case What: return text(e.what);
    case Why: return text(e.why);
    }
    return {};
}

QVariant ScalingAuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header({ScalingWindowWords::tr("When"), ScalingWindowWords::tr("Who"),
                   ScalingWindowWords::tr("What"), ScalingWindowWords::tr("Why")},
                  section, orientation, role);
}

}  // namespace meridian
