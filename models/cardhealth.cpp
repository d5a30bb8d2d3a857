#include "cardhealth.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

#include "metricscale.h"

namespace meridian {

namespace {

// The words' translation context ("Health" in the .ts file), in a form lupdate reads.
struct Health {
    Q_DECLARE_TR_FUNCTIONS(Health)
};

}  // namespace

CardCondition cardCondition(const FleetSnapshot &s, CardHandle card)
{
    const NodeHandle node = s.layout->cardNode[card];
    return cardCondition(s.cardFaults[card], s.nodeConnection[node] == ConnectionState::Unreachable,
                         s.nodeStale(node), s.utilization[card]);
}

CardCondition cardCondition(uint8_t faults, bool unreachable, bool stale, float utilization)
{
    if (faults & kFaultXid)
        return CardCondition::Xid;
    if (faults & kFaultEccUncorrected)
        return CardCondition::Ecc;
    if (unreachable)
        return CardCondition::Unreachable;
    if (stale)
        return CardCondition::Stale;
    if (faults & kFaultThermal)
        return CardCondition::Thermal;
    if (faults & kFaultThrottled)
        return CardCondition::Throttled;
    if (std::isnan(utilization))
        return CardCondition::NoReading;
    return CardCondition::Healthy;
}

bool isCardFault(CardCondition condition)
{
    switch (condition) {
    case CardCondition::Xid:
    case CardCondition::Ecc:
    case CardCondition::Thermal:
    case CardCondition::Throttled: return true;
    default: return false;
    }
}

QString conditionName(CardCondition condition)
{
    switch (condition) {
    case CardCondition::Xid: return Health::tr("Xid");
    case CardCondition::Ecc: return Health::tr("ECC error");
    case CardCondition::Unreachable: return Health::tr("unreachable");
    // Both slow the card; what sets them apart is heat, so the names say so (a card in
    // "Thermal throttling" was read as "throttled" when this said "too hot"), short enough
    // for the legend to fit beside an open card panel at 1366.
    case CardCondition::Thermal: return Health::tr("heat-throttled");
    case CardCondition::Throttled: return Health::tr("throttled");
    case CardCondition::Stale: return Health::tr("stale");
    case CardCondition::NoReading: return Health::tr("no reading");
    case CardCondition::Healthy: return Health::tr("healthy");
    }
    return {};
}

QColor conditionColor(CardCondition condition)
{
    switch (condition) {
    case CardCondition::Xid: return {0xe0, 0x1b, 0x24};          // red
    case CardCondition::Ecc: return {0xc0, 0x1c, 0xc8};          // magenta
    case CardCondition::Unreachable: return {0x5c, 0x3d, 0x2e};  // dark brown
    case CardCondition::Thermal: return {0xff, 0x7b, 0x00};      // orange
    case CardCondition::Throttled: return {0xf6, 0xd3, 0x2d};    // yellow
    case CardCondition::Stale: return staleColor();
    case CardCondition::NoReading: return noReadingColor();
    case CardCondition::Healthy: return healthyColor(0.5f, false);
    }
    return {};
}

QColor linkFaultColor()
{
    return {0x1c, 0x71, 0xd8};  // blue: no card condition is blue
}

}  // namespace meridian
