#include "cardconditions.h"

#include <QCoreApplication>
#include <QDateTime>
#include <algorithm>

#include "models/alerts/alertevaluator.h"
#include "models/alerts/alertguidance.h"

namespace meridian {

namespace {

// The words' translation context, in a form lupdate reads.
struct CardConditions {
    Q_DECLARE_TR_FUNCTIONS(CardConditions)
};

// Whether an alert of this kind on the card's node (with no card of its own) is about
// every card on it.
bool concernsEveryCardOfItsNode(AlertKind kind)
{
    switch (kind) {
    case AlertKind::AgentUnreachable:
    case AlertKind::AgentStale:
    case AlertKind::LinkDown:
    case AlertKind::LinkFlap:
    case AlertKind::PfcStorm: return true;
    default: return false;
    }
}

QString handlingOf(const Alert &alert, int64_t nowMs)
{
    if (alert.silenced(nowMs))
        return CardConditions::tr("silenced until %1 by %2")
            .arg(QDateTime::fromMSecsSinceEpoch(alert.silencedUntilMs)
                     .toString(QStringLiteral("MM-dd HH:mm")),
                 QString::fromStdString(alert.silencedBy));
    if (alert.acknowledgedMs)
        return CardConditions::tr("acknowledged by %1")
            .arg(QString::fromStdString(alert.acknowledgedBy));
    return {};
}

CardConditionNote noteOf(const Alert &alert, int64_t nowMs)
{
    return {alertTitle(alert),
            alertMeaning(alert),
            alertNextStep(alert),
            handlingOf(alert, nowMs),
            alert.severity == AlertSeverity::Critical,
            alert.netdev};
}

// What the snapshot shows of a kind, put as its alert would be, for a condition no alert
// speaks for yet.
Alert shownAs(AlertKind kind, AlertSeverity severity, const FleetSnapshot &s, CardHandle card)
{
    const FleetLayout &l = *s.layout;
    Alert alert;
    alert.kind = kind;
    alert.severity = severity;
    alert.node = l.cardNode[card];
    alert.nodeName = l.nodeId[*alert.node];
    alert.dataCenter = l.nodeDataCenter[*alert.node];
    alert.subject = alert.nodeName;
    return alert;
}

// The firing alerts that concern the card: its own, its node's that concern every card of
// it, its data center's going dark.
std::vector<const Alert *> alertsOfCard(const FleetSnapshot &s, CardHandle card,
                                        const AlertsView *alerts)
{
    std::vector<const Alert *> found;
    if (!alerts)
        return found;
    const FleetLayout &l = *s.layout;
    const NodeHandle node = l.cardNode[card];
    for (const Alert &a : alerts->alerts) {
        if (!a.active || !a.firing)
            continue;
        const bool mine =
            a.card
                ? *a.card == card
                : (a.node && *a.node == node && concernsEveryCardOfItsNode(a.kind)) ||
                      (a.kind == AlertKind::DataCenterDark && a.subject == l.nodeDataCenter[node]);
        if (mine)
            found.push_back(&a);
    }
    return found;
}

// The fleet knows a link of the node is down or flapping, not which.
CardConditionNote linkTroubleNote(const FleetSnapshot &s, CardHandle card)
{
    const Alert down = shownAs(AlertKind::LinkDown, AlertSeverity::Critical, s, card);
    return {CardConditions::tr("Link down or flapping"),
            CardConditions::tr("A RoCE link of the node is down, or dropped twice "
                               "or more in the last ten minutes"),
            alertNextStep(down),
            {},
            true};
}

// Slowed by the hardware (a power brake, a slowdown), not by heat: no alert has it.
CardConditionNote throttledNote()
{
    return {CardConditions::tr("Throttled by the hardware"),
            CardConditions::tr("The card runs slower than it may: a power brake or "
                               "a hardware slowdown, not its temperature"),
            CardConditions::tr("Check the node's power supplies and the card's "
                               "throttle reasons (nvidia-smi -q -d PERFORMANCE)"),
            {},
            false};
}

}  // namespace

QString linkEndsText(const std::vector<NicInfo> &nodeNics, const std::string &netdev)
{
    const auto nic = std::find_if(nodeNics.begin(), nodeNics.end(),
                                  [&](const NicInfo &n) { return n.netdev == netdev; });
    const QString name = QString::fromStdString(netdev);
    if (nic == nodeNics.end() || !nic->neighbor || nic->neighbor->systemName.empty())
        return CardConditions::tr("%1: no switch names it (LLDP), so its port is not known")
            .arg(name);
    const QString end =
        nic->nearestCardIndex
            ? CardConditions::tr("%1 (rail %2)").arg(name).arg(*nic->nearestCardIndex)
            : name;
    return CardConditions::tr("%1 → switch %2 port %3")
        .arg(end, QString::fromStdString(nic->neighbor->systemName),
             QString::fromStdString(nic->neighbor->portId));
}

std::vector<CardConditionNote> cardConditionNotes(const FleetSnapshot &s, CardHandle card,
                                                  const AlertsView *alerts)
{
    const FleetLayout &l = *s.layout;
    const NodeHandle node = l.cardNode[card];
    std::vector<CardConditionNote> notes;
    std::vector<AlertKind> spoken;  // kinds an alert already speaks for
    for (const Alert *a : alertsOfCard(s, card, alerts)) {
        notes.push_back(noteOf(*a, s.takenUnixMs));
        spoken.push_back(a->kind);
    }
    const auto unspoken = [&](AlertKind kind) {
        return std::find(spoken.begin(), spoken.end(), kind) == spoken.end();
    };
    const auto add = [&](AlertKind kind, AlertSeverity severity) {
        if (!unspoken(kind))
            return;
        Alert shown = shownAs(kind, severity, s, card);
        if (kind != AlertKind::AgentUnreachable && kind != AlertKind::AgentStale) {
            shown.card = card;
            shown.cardIndex = l.cardIndex[card];
        }
        notes.push_back(noteOf(shown, s.takenUnixMs));
    };
    const uint8_t faults = s.cardFaults[card];
    if (faults & kFaultXid)
        add(AlertKind::Xid, AlertSeverity::Critical);
    if (faults & kFaultEccUncorrected)
        add(AlertKind::EccDoubleBit, AlertSeverity::Critical);
    if (faults & kFaultThermal)
        add(AlertKind::ThermalThrottle, AlertSeverity::Warning);
    // A dark data center's alert speaks for each of its silent agents already.
    if (unspoken(AlertKind::DataCenterDark)) {
        if (s.nodeConnection[node] == ConnectionState::Unreachable)
            add(AlertKind::AgentUnreachable, AlertSeverity::Critical);
        else if (s.nodeStale(node))
            add(AlertKind::AgentStale, AlertSeverity::Warning);
    }
    // The fleet knows a link is down or flapping, not which, until an alert says so.
    if (s.nodeLinkFault[node] && unspoken(AlertKind::LinkDown) && unspoken(AlertKind::LinkFlap) &&
        unspoken(AlertKind::PfcStorm)) {
        notes.push_back(linkTroubleNote(s, card));
    }
    // Slowed by the hardware (a power brake, a slowdown), not by heat: no alert has it.
    if ((faults & kFaultThrottled) && !(faults & kFaultThermal)) {
        notes.push_back(throttledNote());
    }
    std::stable_sort(notes.begin(), notes.end(),
                     [](const CardConditionNote &a, const CardConditionNote &b) {
                         return a.critical && !b.critical;
                     });
    return notes;
}

}  // namespace meridian
