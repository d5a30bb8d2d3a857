// Everything wrong with one card and its node, in the very words its alerts use (title,
// meaning, next step: alertguidance), for the card panel. An alert open for the card,
// its node or its data center speaks for itself, with who acknowledged or silenced it;
// what the fleet shows and no alert says yet (still pending, or no alert engine behind
// the view) is put in the same words, so the panel never looks healthy over a fault.
#pragma once

#include <QString>
#include <vector>

#include "fleet/fleetstate.h"

namespace meridian {

struct AlertsView;

struct CardConditionNote {
    QString title;     // "GPU fell off the bus (Xid 79)"
    QString meaning;   // what is happening, in a sentence
    QString nextStep;  // what to do
    QString handling;  // "acknowledged by ana", "silenced until 14:00"; empty: nobody yet
    bool critical = false;
    std::string netdev;  // a link alert's NIC, so that its switch port can be named
};

// A NIC and the switch port at its other end, as the fabric's findings name them:
// "ens1np0 (rail 3) → wuhu-pod4-leaf0 Ethernet232"; or that no switch names it.
QString linkEndsText(const std::vector<NicInfo> &nodeNics, const std::string &netdev);

// Worst first (as the alerts' severities, then the card's own before its node's).
std::vector<CardConditionNote> cardConditionNotes(const FleetSnapshot &snapshot, CardHandle card,
                                                  const AlertsView *alerts);

}  // namespace meridian
