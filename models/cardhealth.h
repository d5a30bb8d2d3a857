// The Health colouring: the worst thing wrong with each card, painted over its
// utilisation, so that what is broken is what the eye finds first. One place decides
// the order of conditions, their names and colours, for the heatmap, its legend and
// tooltips.
#pragma once

#include <QColor>
#include <QString>

#include "fleet/fleetstate.h"

namespace meridian {

// Worst first. Xid and ECC are facts about the card and outlast a silent agent; heat and
// throttling are readings, so a silent agent's card shows as unreachable or stale.
enum class CardCondition { Xid, Ecc, Unreachable, Thermal, Throttled, Stale, NoReading, Healthy };

CardCondition cardCondition(const FleetSnapshot &snapshot, CardHandle card);
// The same from the parts, for a painter that has its nodes' states at hand already.
CardCondition cardCondition(uint8_t faults, bool unreachable, bool stale, float utilization);
// Whether the condition is the card's own fault (the ones a marker points at).
bool isCardFault(CardCondition condition);

QString conditionName(CardCondition condition);
// Saturated, and far from every colour of the healthy ramp in both themes.
QColor conditionColor(CardCondition condition);
// A node whose link is down or flapping: its badge.
QColor linkFaultColor();
// Healthy cards are drawn in metricscale.h's healthyColor.

}  // namespace meridian
