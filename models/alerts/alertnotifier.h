// Makes alerts reach people who are not watching the window: when an alert opens (not
// acknowledged, not silenced) it goes to the desktop (a notification, a sound for the
// critical ones) and to the routes of the alert routing file; when it resolves, the
// routes hear that too. What the routes were told is kept in the history file, so a
// console started again (or another on the same file) does not tell them twice.
// Alertmanager is sent the firing alerts again every minute, as it expects. Lives on the
// UI thread; delivery runs on the dispatcher's thread.
#pragma once

#include <QObject>
#include <QTranslator>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "alerts/alertdispatcher.h"

namespace meridian {

class AlertCenter;
struct Alert;
class AlertDesk;

class AlertNotifier final : public QObject {
    Q_OBJECT
public:
    // The routing file's language is read from `translations` (meridian_<language>.qm).
    AlertNotifier(AlertCenter &center, AlertRouting routing, const Clock &clock, AlertDesk *desktop,
                  QObject *parent = nullptr,
                  const QString &translations = QStringLiteral(":/i18n"));
    ~AlertNotifier() override;

    AlertDispatcher &dispatcher() { return *m_dispatcher; }
    AlertDesk *desktop() const { return m_desktop; }
    const Clock &clock() const { return m_clock; }
    // The notice an alert becomes, in the console's language.
    static AlertNotice noticeFor(const Alert &alert, bool resolved);
    // A made-up alert for the routing dialog's test button.
    static AlertNotice testNotice(int64_t nowMs);
    // Looks at the alerts now (also called on every change of them).
    void review();
    // Who the receivers are told saw the alerts (the watcher's name); by default this
    // host's name.
    void setSeenBy(std::string name) { m_seenBy = std::move(name); }

Q_SIGNALS:
    // A critical alert opened (or any, as the routing file says): the window makes a sound.
    void soundRequested(const QString &command);

private:
    // Drops what is no longer listed from what was sent (here, and after a while from
    // the file).
    void forgetUnlisted(const std::set<std::string> &listed);
    // Resolves owed for alerts delivered as firing that are over; added to `changes`.
    void payOwedResolves(const std::set<std::string> &listed, int64_t nowMs,
                         std::vector<AlertNotice> &changes,
                         std::vector<std::function<void()>> &records);
    // The resolve of an alert the engine no longer holds, from what the file kept of it.
    AlertNotice owedResolve(const std::string &key, int64_t nowMs) const;
    // Whether the receivers were told `key` is firing (here, or as the file says) and not
    // yet that it resolved.
    bool toldFiring(const std::string &key) const;
    // noticeFor, said to be seen by this notifier's sender.
    AlertNotice notice(const Alert &alert, bool resolved) const;
    // Who the receivers are told saw an alert: setSeenBy's name, or this host's.
    std::string seenBy() const;
    // Whether the alerts now listed are the first list of the watcher followed (then
    // marked seen).
    bool firstListOfTheTeam();
    // Sends the alerts that opened or resolved; `records` put each in the history file.
    void tellReceivers(const std::vector<AlertNotice> &changes,
                       std::vector<std::function<void()>> records);
    // Critical alerts nobody has answered go to the escalation routes, and again at each
    // route's repeat while that lasts.
    void escalateUnanswered(const std::vector<Alert> &alerts, int64_t nowMs);
    // The desktop notification and the sound for alerts that just opened.
    void tellTheDesk(const std::vector<const Alert *> &opened);

    AlertCenter &m_center;
    const Clock &m_clock;
    AlertDesk *m_desktop;
    std::string m_seenBy;
    std::unique_ptr<AlertDispatcher> m_dispatcher;
    // The language the routes are sent in, where the routing file names one: its
    // translator (none for English).
    bool m_routesLanguageSet = false;
    std::unique_ptr<QTranslator> m_routesLanguage;
    std::set<std::string> m_notified;  // keys sent as firing, not yet as resolved
    // Keys sent as resolved, until they fire again or are no longer listed: the file
    // holds a resolution only once the receivers have answered, and a read of it before
    // then would otherwise make the alert look still sent as firing.
    std::set<std::string> m_toldResolved;
    int64_t m_lastResendMs = 0;
    int64_t m_firstReviewMs = 0;
    std::set<std::string> m_firingAtStart;  // delivered as firing before this start, unlisted
    bool m_teamListSeen = false;            // following a watcher: its first list has been read
    // When each alert was last escalated, by escalation route (its index) and key.
    std::map<std::pair<size_t, std::string>, int64_t> m_escalatedMs;
    // How long after starting an alert the file says was sent may stay unlisted here,
    // where the fleet is never judged whole.
    static constexpr int64_t kUnlistedDeliveryKeptMs = 10 * 60'000;
};

}  // namespace meridian
