#include "alertnotifier.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <optional>
#include <set>

#include "alertcenter.h"
#include "alertdesk.h"
#include "alertguidance.h"

namespace meridian {

namespace {

// A storm is one desktop notification that counts the rest, not fifty bubbles.
constexpr int kDesktopNotificationsPerBatch = 3;

}  // namespace

AlertNotifier::AlertNotifier(AlertCenter &center, AlertRouting routing, const Clock &clock,
                             AlertDesk *desktop, QObject *parent, const QString &translations)
    : QObject(parent)
    , m_center(center)
    , m_clock(clock)
    , m_desktop(desktop)
    , m_dispatcher(std::make_unique<AlertDispatcher>(std::move(routing), clock))
{
    const std::string &language = m_dispatcher->routing().language;
    if (language == "en") {
        m_routesLanguageSet = true;
    } else if (!language.empty()) {
        auto translator = std::make_unique<QTranslator>();
        if (translator->load(QStringLiteral("meridian_") + QString::fromStdString(language),
                             translations)) {
            m_routesLanguage = std::move(translator);
            m_routesLanguageSet = true;
        } else {
            qWarning(
                "alert routing: no %s translation in %s; the routes are sent in the "
                "console's language",
                language.c_str(), qPrintable(translations));
        }
    }
    m_dispatcher->start();
    connect(&center, &AlertCenter::alertsChanged, this, &AlertNotifier::review);
}

AlertNotifier::~AlertNotifier() = default;

AlertNotice AlertNotifier::noticeFor(const Alert &alert, bool resolved)
{
    AlertNotice n;
    n.key = alert.key;
    n.kind = alert.kind;
    n.severity = alert.severity;
    n.resolved = resolved;
    n.title = alertTitle(alert).toStdString();
    n.subject = alertWhere(alert).toStdString();
    n.dataCenter = alert.dataCenter;
    n.node = alert.nodeName;
    n.netdev = alert.netdev;
    n.service = alert.service;
    n.xid = alert.xid;
    n.card = alert.cardIndex;
    n.meaning = alertMeaning(alert).toStdString();
    n.startsAtMs = alert.activeSinceMs ? alert.activeSinceMs : alert.firstSeenMs;
    n.endsAtMs = resolved ? std::max(alert.lastSeenMs, n.startsAtMs) : 0;
    // Over: what it was and how long it lasted, not the problem's words again beside
    // "resolved", and nothing left to do.
    n.message = resolved ? alertOverText(n.endsAtMs - n.startsAtMs).toStdString() : alert.message;
    n.nextStep = resolved ? std::string() : alertNextStep(alert).toStdString();
    n.console = QSysInfo::machineHostName().toStdString();
    n.acknowledgedBy = alert.acknowledgedMs ? alert.acknowledgedBy : std::string();
    n.note = alert.note;
    return n;
}

AlertNotice AlertNotifier::testNotice(int64_t nowMs)
{
    Alert a;
    a.key = "test/meridian";
    a.kind = AlertKind::Xid;
    a.severity = AlertSeverity::Warning;
    a.xid = 79;
    a.subject = QCoreApplication::translate("AlertNotifier", "test from the Meridian console")
                    .toStdString();
    a.message =
        QCoreApplication::translate("AlertNotifier", "A test: if you read this, the route works.")
            .toStdString();
    a.firstSeenMs = nowMs;
    a.activeSinceMs = nowMs;
    return noticeFor(a, false);
}

void AlertNotifier::review()
{
    // Until the history file says what the receivers were told before, every open alert
    // would look new to them: a restart would send them all again.
    if (!m_center.deliveriesKnown())
        return;
    const int64_t now = m_clock.nowUnixMs();
    const AlertRouting &routing = m_dispatcher->routing();
    // On every change (once a second): notices only for what changed, and for the firing
    // ones when Alertmanager is due to hear them again.
    const bool resend = now - m_lastResendMs >= routing.resendMs;
    std::vector<AlertNotice> changes;
    std::vector<std::function<void()>> recordWhenAnswered;  // for `changes`
    std::vector<AlertNotice> firing;
    std::vector<const Alert *> opened;
    std::set<std::string> listed;
    const std::vector<Alert> alerts = m_center.view().alerts;
    // The routes hear the routing file's language; the desktop, below, the window's.
    std::optional<ScopedAlertLanguage> routesLanguage;
    if (m_routesLanguageSet)
        routesLanguage.emplace(m_routesLanguage.get());
    const bool firstTeamList = firstListOfTheTeam();
    for (const Alert &a : alerts) {
        listed.insert(a.key);
        const bool wanted = a.active && !a.acknowledgedMs && !a.silenced(now);
        const bool sent = toldFiring(a.key);
        if (wanted && !sent) {
            m_notified.insert(a.key);
            m_toldResolved.erase(a.key);
            if (firstTeamList) {
                m_center.recordDelivery(a.key, true);
                continue;
            }
            recordWhenAnswered.push_back(m_center.deliveryRecord(a.key, true));
            changes.push_back(notice(a, false));
            opened.push_back(&a);
        } else if (!a.active && sent) {
            m_notified.erase(a.key);
            m_toldResolved.insert(a.key);
            recordWhenAnswered.push_back(m_center.deliveryRecord(a.key, false));
            changes.push_back(notice(a, true));
        }
        // Alertmanager hears again of every alert still true it was told of, acknowledged
        // and silenced ones too: one it stops hearing of it calls resolved, as would every
        // receiver and inhibition behind it (its own silences mute it).
        if (resend && a.active && toldFiring(a.key))
            firing.push_back(notice(a, false));
    }
    forgetUnlisted(listed);
    payOwedResolves(listed, now, changes, recordWhenAnswered);
    escalateUnanswered(alerts, now);
    routesLanguage.reset();
    tellReceivers(changes, std::move(recordWhenAnswered));
    if (resend) {
        m_lastResendMs = now;
        if (!firing.empty())
            m_dispatcher->submit(firing, RouteKind::Alertmanager);
    }
    tellTheDesk(opened);
}

AlertNotice AlertNotifier::notice(const Alert &alert, bool resolved) const
{
    AlertNotice n = noticeFor(alert, resolved);
    n.console = seenBy();
    return n;
}

std::string AlertNotifier::seenBy() const
{
    return m_seenBy.empty() ? QSysInfo::machineHostName().toStdString() : m_seenBy;
}

bool AlertNotifier::toldFiring(const std::string &key) const
{
    return m_notified.count(key) > 0 ||
           (m_center.deliveredFiring(key) && !m_toldResolved.count(key));
}

bool AlertNotifier::firstListOfTheTeam()
{
    // Following a watcher, what its first list holds was news before this console started
    // (the watcher paged it): a console opened mid-incident does not pop up every alert.
    const bool first = m_center.followsWatcher() && !m_teamListSeen && m_center.view().sequence > 0;
    m_teamListSeen = m_teamListSeen || first;
    return first;
}

void AlertNotifier::tellReceivers(const std::vector<AlertNotice> &changes,
                                  std::vector<std::function<void()>> records)
{
    if (changes.empty())
        return;
    // What they are told goes in the history file once every route has answered: a
    // watcher killed before then tells them again when it starts, rather than never.
    m_dispatcher->submit(changes, std::nullopt, [records = std::move(records)] {
        for (const std::function<void()> &record : records)
            record();
    });
}

void AlertNotifier::escalateUnanswered(const std::vector<Alert> &alerts, int64_t nowMs)
{
    const std::vector<AlertRoute> &routes = m_dispatcher->routing().routes;
    std::set<std::pair<size_t, std::string>> stillDue;
    for (size_t r = 0; r < routes.size(); ++r) {
        const AlertRoute &route = routes[r];
        if (!route.escalates())
            continue;
        std::vector<AlertNotice> due;
        for (const Alert &a : alerts) {
            // Critical, going on, and nobody has said they are on it.
            if (a.severity != AlertSeverity::Critical || !a.active || a.acknowledgedMs ||
                a.silenced(nowMs) || !route.wants(a.severity, a.kind, a.dataCenter))
                continue;
            const int64_t began = a.activeSinceMs ? a.activeSinceMs : a.firstSeenMs;
            if (nowMs - began < route.escalateAfterMs)
                continue;
            const auto key = std::make_pair(r, a.key);
            stillDue.insert(key);
            const auto last = m_escalatedMs.find(key);
            if (last != m_escalatedMs.end() && nowMs - last->second < route.repeatMs)
                continue;
            m_escalatedMs[key] = nowMs;
            due.push_back(notice(a, false));
        }
        m_dispatcher->escalate(r, due);
    }
    // Answered or over: a recurrence escalates afresh.
    std::erase_if(m_escalatedMs, [&](const auto &entry) { return !stillDue.count(entry.first); });
}

void AlertNotifier::forgetUnlisted(const std::set<std::string> &listed)
{
    // Alerts forgotten by the engine while firing are over too (payOwedResolves says so).
    std::erase_if(m_notified, [&](const std::string &key) { return !listed.count(key); });
    std::erase_if(m_toldResolved, [&](const std::string &key) { return !listed.count(key); });
}

void AlertNotifier::payOwedResolves(const std::set<std::string> &listed, int64_t nowMs,
                                    std::vector<AlertNotice> &changes,
                                    std::vector<std::function<void()>> &records)
{
    // At start the file says what the receivers were told fires. What the engine, once it
    // has judged the whole fleet, holds neither firing nor pending ended while no judge
    // ran, and the receivers are owed that, once. What it lists meanwhile is its own.
    if (m_firstReviewMs == 0) {
        m_firstReviewMs = nowMs;
        m_firingAtStart = m_center.deliveredFiringKeys();
    }
    std::erase_if(m_firingAtStart, [&](const std::string &key) { return listed.count(key); });
    const AlertsView &view = m_center.view();
    const bool waitedLong = nowMs - m_firstReviewMs >= kUnlistedDeliveryKeptMs;
    if (view.fleetJudged && !m_center.followsWatcher()) {
        for (const std::string &key : m_firingAtStart) {
            if (view.pendingKeys.count(key) || !m_center.deliveredFiring(key))
                continue;
            changes.push_back(owedResolve(key, nowMs));
            records.push_back(m_center.deliveryRecord(key, false));
        }
        m_firingAtStart.clear();
    }
    if (!waitedLong)
        return;
    // One still unlisted after a while (a console following a watcher leaves paging to
    // it; an alert the engine forgot while firing): forgotten, so it is news if it recurs.
    const std::set<std::string> delivered = m_center.deliveredFiringKeys();  // it shrinks
    for (const std::string &key : delivered) {
        if (!listed.count(key))
            m_center.recordDelivery(key, false);
    }
}

AlertNotice AlertNotifier::owedResolve(const std::string &key, int64_t nowMs) const
{
    AlertNotice n;
    n.key = key;
    n.resolved = true;
    n.notForAlertmanager = true;
    n.title = key;
    n.subject = key;
    n.startsAtMs = nowMs;
    if (const AlertIncident *incident = m_center.openIncident(key)) {
        if (const auto kind = alertKindFromName(incident->kind)) {
            n.kind = *kind;
            n.title = alertKindTitle(*kind).toStdString();
        }
        n.severity =
            incident->severity == "critical" ? AlertSeverity::Critical : AlertSeverity::Warning;
        n.dataCenter = incident->dataCenter;
        n.subject = incident->subject;
        n.startsAtMs = incident->startedMs;
    }
    n.endsAtMs = nowMs;
    n.message = alertEndedUnseenText(nowMs - n.startsAtMs).toStdString();
    n.console = seenBy();
    return n;
}

void AlertNotifier::tellTheDesk(const std::vector<const Alert *> &opened)
{
    if (opened.empty())
        return;
    const AlertRouting &routing = m_dispatcher->routing();
    bool critical = false;
    for (const Alert *a : opened)
        critical |= a->severity == AlertSeverity::Critical;
    if (m_desktop && routing.desktopNotifications) {
        int shown = 0;
        for (const Alert *a : opened) {
            if (shown == kDesktopNotificationsPerBatch)
                break;
            ++shown;
            const QString where = alertWhere(*a);
            m_desktop->notify(QStringLiteral("%1: %2").arg(alertTitle(*a), where),
                              tr("%1\nNext: %2").arg(alertMeaning(*a), alertNextStep(*a)),
                              a->severity == AlertSeverity::Critical);
        }
        const int rest = static_cast<int>(opened.size()) - shown;
        if (rest > 0)
            m_desktop->notify(tr("%n more alert(s)", nullptr, rest),
                              tr("Open Meridian's alert list (Ctrl+L)"), critical);
    }
    if (routing.sound == SoundWhen::Always || (routing.sound == SoundWhen::Critical && critical))
        Q_EMIT soundRequested(QString::fromStdString(routing.soundCommand));
}

}  // namespace meridian
