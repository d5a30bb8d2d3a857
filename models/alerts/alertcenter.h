// Triage for the UI thread: feeds each snapshot and the events that arrived since the
// last one to the alert engine (on its own thread where runOnItsOwnThread() was asked,
// alertevaluator.h), says when the alerts changed (the list models follow it), and carries out
// what the on-call engineer does (acknowledge, silence, note). With a triage log, those
// actions go to the history file (off the UI thread) and every few seconds what other
// consoles on the same file did is read back, so all of them show one triage; with an
// Alertmanager, silences live there (alertcentersilences.cpp). Following the team's watcher,
// its list is shown instead (teamwatcherlink.h).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "alertevaluator.h"
#include "alertmanagersilencelist.h"
#include "alerts/alerttriagelog.h"
#include "alerts/selflag.h"
#include "deliveredfiring.h"
#include "teamwatcherlink.h"
#include "triageread.h"

namespace meridian {

class AlertmanagerSilences;
struct AlertRoute;
struct TriageRequest;

class AlertCenter final : public QObject {
    Q_OBJECT
public:
    AlertCenter(const FleetState &state, QObject *parent = nullptr);
    ~AlertCenter() override;

    // Evaluates on a thread of its own from now on: the window (and the watcher's event
    // loop) never waits for a pass. Without it each change is evaluated at once, here.
    void evaluateOffThisThread() { m_evaluator.runOnItsOwnThread(); }
    void update(std::shared_ptr<const FleetSnapshot> snapshot);
    void update(FleetSnapshot snapshot)
    {
        update(std::make_shared<const FleetSnapshot>(std::move(snapshot)));
    }
    // Evaluations and changes asked are done, and what they made is shown.
    void waitForEvaluation() { m_evaluator.waitForDone(); }
    // How long each kind's condition holds before it is an alert (the routing file's).
    void setPendingDurations(std::map<AlertKind, int64_t> pendingMs);
    // Measures this process's own lag at every update (selflag.h) and holds agents'
    // staleness while it is behind. Off by default: tests that jump virtual time would
    // read the jumps as lag.
    void measureOwnLag(SelfLagLimits limits = {}) { m_lag.emplace(limits); }
    const std::optional<SelfLag> &ownLag() const { return m_lag; }
    bool holdingStaleness() const { return m_holdingStaleness; }
    // "" when not behind; else what is held and why, in words.
    QString behindText() const;
    // The autoscaler's view of each service: TTFT against objective, plans waiting.
    void observeServices(const std::vector<ServiceObservation> &services, int64_t nowMs);
    // The scaling controller as a watcher reads it (alerts/controllerwatch.h).
    void observeController(const ControllerObservation &controller, int64_t nowMs);
    // What the engine held after the newest evaluation or change that has been shown; or,
    // following a watcher, its list as last read.
    const AlertsView &view() const { return m_team ? m_team->view() : m_evaluator.view(); }
    int openCount(const QString &dataCenter) const;
    // The time of the newest snapshot or service view it was given.
    int64_t nowMs() const { return m_nowMs; }
    QString user() const { return QString::fromStdString(m_user); }
    void setUser(const QString &user) { m_user = user.toStdString(); }

    void acknowledge(const QString &key);
    // Silences what the rule matches (its `by` is this console's user).
    void silence(SilenceRule rule);
    void silence(const QString &key, int64_t untilMs);
    void liftSilence(int64_t id);
    void setNote(const QString &key, const QString &note);
    // The silences in force, shared ones included.
    std::vector<SilenceRule> silences() const;

    // Whether the receivers were told `key` is firing (here, or by another console on the
    // history file, or before a restart) and not yet that it resolved.
    bool deliveredFiring(const std::string &key) const { return m_delivered.contains(key); }
    const std::set<std::string> &deliveredFiringKeys() const { return m_delivered.keys(); }
    // The occurrence the file held, at start, for an alert delivered as firing; none when
    // it held none.
    const AlertIncident *openIncident(const std::string &key) const;
    // The receivers were told (firing, or resolved); kept in the history file.
    void recordDelivery(const std::string &key, bool firing);
    // The receivers are being told: kept here at once, and in the history file by the
    // call returned, which runs on any thread (the dispatcher's, once they have answered)
    // and needs nothing of this center, only of its file.
    std::function<void()> deliveryRecord(const std::string &key, bool firing);
    // Whether what was delivered, and what is silenced, is known: neither a history file
    // nor an Alertmanager, or both read once since they were set (tried: one that does not
    // answer holds nothing back for longer than its call's deadline).
    bool deliveriesKnown() const { return (!m_log && !m_alertmanager) || m_triageRead; }

    // Shares triage through the history file; reads it back every `syncMs`.
    void setTriageLog(std::shared_ptr<AlertTriageLog> log, int syncMs = 3000);
    // Keeps silences in this Alertmanager instead of the file, so every console and the
    // on-call's phone agree: made, read back with every sync, lifted through its API. One
    // that cannot be made there is kept in the file, and the problem said.
    void setAlertmanagerSilences(std::shared_ptr<AlertmanagerSilences> alertmanager,
                                 int syncMs = 3000);
    // Follows the team's watcher (teamwatcherlink.h): its alerts and silences are shown
    // instead of this center's own evaluation, read every `pollMs` (each call given
    // `callMs`), and acknowledgements, notes and silences go to it. Snapshots are then only
    // used to find the cards named.
    void followWatcher(const AlertRoute &watcher, int pollMs = 2000,
                       int callMs = TeamWatcherLink::kCallMs);
    bool followsWatcher() const { return m_team != nullptr; }
    // Whose alerts these are, in words: "" for this console's own.
    QString sourceText() const;
    // Reads the file now and applies what it holds (tests, and after a write).
    void syncTriage();
    // Waits for writes and reads in flight, and applies what they read.
    void waitForTriage();

Q_SIGNALS:
    void alertsChanged();
    // Began or stopped being behind (behindText()).
    void behindChanged();
    // The history file could not take or give the triage (empty text: it can again).
    void triageProblem(const QString &text);

private:
    // Sends what this console's user did to the watcher followed, on the triage thread.
    void askWatcher(TriageRequest request);
    void publish();
    void judgeOwnLag(const FleetSnapshot &snapshot);
    // Runs on the triage thread, after what was asked before; a problem it returns is said.
    void inBackground(std::function<std::string()> job);
    void write(std::function<std::string(AlertTriageLog &)> change);
    // The occurrence a delivery of `key` starts, for the fault-response clock.
    std::optional<AlertIncident> deliveredIncident(const std::string &key, bool firing,
                                                   int64_t nowMs) const;
    // The file's silences and the Alertmanager's, to the engine.
    void applySilences();
    // Expires an Alertmanager silence in the background.
    void expireInAlertmanager(const std::string &alertmanagerId);
    // Writes what this console's user did to the history file.
    void record(TriageAction::Kind kind, const std::string &key, const std::string &text);
    void applyTriage(const TriageRead &read);
    void applyKnownTriage();
    // What the history file says was done, for the engine; none when it says nothing.
    std::function<void(AlertEngine &)> knownTriage();

    const FleetState &m_state;
    AlertEvaluator m_evaluator;
    std::optional<SelfLag> m_lag;
    bool m_holdingStaleness = false;  // as last asked of the engine
    uint64_t m_eventCounter = 0;
    int64_t m_nowMs = 0;
    std::string m_user;
    std::vector<SilenceRule> m_sharedSilences;
    int64_t m_unsharedSilenceId = 0;  // counts down: never an id the file gives
    std::shared_ptr<AlertmanagerSilences> m_alertmanager;
    AlertmanagerSilenceList m_alertmanagerSilences;

    std::unique_ptr<TeamWatcherLink> m_team;      // none: this console judges for itself
    std::shared_ptr<const FleetLayout> m_layout;  // the newest snapshot's

    std::shared_ptr<AlertTriageLog> m_log;
    QThreadPool m_logThread;  // one thread: writes land in the order they were made
    QFutureWatcher<TriageRead> m_reading;
    QTimer m_syncTimer;
    int64_t m_lastActionId = 0;
    uint64_t m_readsAsked = 0;
    uint64_t m_readsApplied = 0;
    // What the file says was done to each alert (by key), kept while the alert may still
    // be listed: one it does not know yet may arrive from another console's fleet view.
    struct Done {
        std::string text;  // who acknowledged, or the note
        int64_t atMs = 0;
    };
    std::map<std::string, Done> m_acknowledgements;
    std::map<std::string, Done> m_notes;
    // Alerts the receivers were told are firing, by any console on the file; whether the
    // file has been read once (until then nobody can say what was sent).
    DeliveredFiring m_delivered;
    std::map<std::string, AlertIncident> m_openIncidents;  // read once, at the first read
    bool m_openIncidentsRead = false;
    int64_t m_lastForgetMs = 0;
    static constexpr int64_t kForgetEveryMs = 24 * 3600'000;
    bool m_triageRead = false;
    // The first read that counts: one asked after the file and the Alertmanager were set.
    uint64_t m_firstCompleteRead = 0;
    static constexpr int64_t kTriageKeptMs = 24 * 3600'000LL;
};

}  // namespace meridian
