// What each alert means and what to do next, in the words of the runbook, for the alert
// list, notifications and webhooks. Xid alerts are explained by their code (NVIDIA's Xid
// catalogue), since "Xid" alone tells the night shift nothing.
#pragma once

#include <QString>

class QTranslator;

#include "alerts/alert.h"

namespace meridian {

// The kind as people read it ("GPU fell off the bus (Xid 79)", "Data center dark").
QString alertTitle(const Alert &alert);
QString alertKindTitle(AlertKind kind);
// The same by the kind's recorded name ("Xid"); a name no kind has, as it stands.
QString alertKindTitleOfName(const std::string &kindName);
// Where it is, as people read it: a data center by its name, "xm-r01-n2 card 3".
QString alertWhere(const Alert &alert);
// What is happening, in a sentence.
QString alertMeaning(const Alert &alert);
// The next step for whoever is on call.
QString alertNextStep(const Alert &alert);
// "45 s", "12 min", "3 h 5 min", "2 d 4 h".
QString alertDurationText(int64_t ms);
// What a resolved alert's page says: "Over after 12 min".
QString alertOverText(int64_t lastedMs);
// The same for one that ended while nobody judged: "Over; it ended within 2 h of its start".
QString alertEndedUnseenText(int64_t atMostMs);

// While one lives, the functions above speak `translator`'s language on this thread (none:
// the English they are written in), not the window's: what the team's receivers are sent
// does not depend on which console sent it.
class ScopedAlertLanguage {
public:
    explicit ScopedAlertLanguage(const QTranslator *translator);
    ~ScopedAlertLanguage();
    ScopedAlertLanguage(const ScopedAlertLanguage &) = delete;
    ScopedAlertLanguage &operator=(const ScopedAlertLanguage &) = delete;

private:
    bool m_wasSet;
    const QTranslator *m_was;
};

}  // namespace meridian
