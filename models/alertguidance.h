// What each alert means and what to do next, in the words of the runbook, for the alert
// list, notifications and webhooks. Xid alerts are explained by their code (NVIDIA's Xid
// catalogue), since "Xid" alone tells the night shift nothing.
#pragma once

#include <QString>

#include "alerts/alert.h"

namespace meridian {

// The kind as people read it ("GPU fell off the bus (Xid 79)", "Data center dark").
QString alertTitle(const Alert &alert);
QString alertKindTitle(AlertKind kind);
// Where it is, as people read it: a data center by its name, "xm-r01-n2 card 3".
QString alertWhere(const Alert &alert);
// What is happening, in a sentence.
QString alertMeaning(const Alert &alert);
// The next step for whoever is on call.
QString alertNextStep(const Alert &alert);

}  // namespace meridian
