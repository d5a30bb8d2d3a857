// Triage for the UI thread: feeds each snapshot and the events that arrived since the
// last one to the alert engine (on its own thread where runOnItsOwnThread() was asked,
// alertevaluator.h), keeps the alert list model current, and carries out
// what the on-call engineer does (acknowledge, silence, note). With a triage log, those
// actions go to the history file (off the UI thread) and every few seconds what other
// consoles on the same file did is read back, so all of them show one triage; with an
// Alertmanager, silences live there (alertcentersilences.cpp).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "alertevaluator.h"
#include "alerts/alerttriagelog.h"
#include "alerts/selflag.h"
#include "alertsmodel.h"

namespace meridian {

class AlertmanagerSilences;
struct AlertRoute;
struct TeamAlerts;
struct TriageRequest;
struct UnconfirmedSilence;

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
    AlertsModel *model() { return &m_model; }
    // What the engine held after the newest evaluation or change that has been shown; or,
    // following a watcher, its list as last read.
    const AlertsView &view() const { return m_watcher ? *m_teamView : m_evaluator.view(); }
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
    bool deliveredFiring(const std::string &key) const { return m_delivered.count(key) > 0; }
    const std::set<std::string> &deliveredFiringKeys() const { return m_delivered; }
    // The receivers were told (firing, or resolved); kept in the history file.
    void recordDelivery(const std::string &key, bool firing);
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
    // Follows the team's watcher (alertcenterwatcher.cpp): its alerts and silences are shown
    // instead of this center's own evaluation, read every `pollMs`, and acknowledgements,
    // notes and silences go to it. Snapshots are then only used to find the cards named.
    void followWatcher(const AlertRoute &watcher, int pollMs = 2000);
    bool followsWatcher() const { return m_watcher != nullptr; }
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
    struct TeamRead {
        std::shared_ptr<TeamAlerts> team;  // none: not read
        std::string problem;
    };
    static TeamRead readTeam(const AlertRoute &watcher);
    void pollWatcher();
    void takeTeam(const TeamRead &read);
    void askWatcher(TriageRequest request);
    void sayTeamProblem(const QString &text);
    // The watcher's alerts carry its node and card names: the handles here are found.
    void findCards(std::vector<Alert> &alerts) const;
    struct TriageRead {
        uint64_t sequence = 0;  // reads apply in the order they were asked for
        std::vector<TriageAction> actions;
        std::vector<SilenceRule> silences;
        std::set<std::string> delivered;
        std::string problem;
        std::optional<std::vector<SilenceRule>> alertmanagerSilences;  // none: not read
        std::string alertmanagerProblem;
    };
    static TriageRead readTriage(AlertTriageLog *log, AlertmanagerSilences *alertmanager,
                                 uint64_t sequence, int64_t afterId, int64_t nowMs);
    void publish();
    void judgeOwnLag(const FleetSnapshot &snapshot);
    // Runs on the triage thread, after what was asked before; a problem it returns is said.
    void inBackground(std::function<std::string()> job);
    void write(std::function<std::string(AlertTriageLog &)> change);
    // The file's silences and the Alertmanager's, to the engine.
    void applySilences();
    void takeAlertmanagerSilences(std::vector<SilenceRule> silences);
    // Expires an Alertmanager silence in the background, and keeps it out of the list.
    void expireInAlertmanager(const std::string &alertmanagerId);
    // Those shown before Alertmanager had them, when it does not answer.
    void forgetPendingAlertmanagerSilences();
    // Writes what this console's user did to the history file.
    void record(TriageAction::Kind kind, const std::string &key, const std::string &text);
    void applyTriage(const TriageRead &read);
    void takeDelivered(const TriageRead &read);
    void applyKnownTriage();
    // What the history file says was done, for the engine; none when it says nothing.
    std::function<void(AlertEngine &)> knownTriage();

    const FleetState &m_state;
    AlertEvaluator m_evaluator;
    std::optional<SelfLag> m_lag;
    bool m_holdingStaleness = false;  // as last asked of the engine
    AlertsModel m_model;
    uint64_t m_eventCounter = 0;
    int64_t m_nowMs = 0;
    std::string m_user;
    std::vector<SilenceRule> m_sharedSilences;
    int64_t m_unsharedSilenceId = 0;  // counts down: never an id the file gives
    std::shared_ptr<AlertmanagerSilences> m_alertmanager;
    std::vector<SilenceRule> m_alertmanagerSilences;   // as last read, with ids of ours
    std::map<std::string, int64_t> m_alertmanagerIds;  // Alertmanager's id → ours, as last read
    // Ours for Alertmanager's silences count down from far below any the file or this
    // console gives, so a lift goes to the right place.
    int64_t m_nextAlertmanagerSilenceId = -1'000'000'000;
    // Made here and not yet confirmed by Alertmanager, by our id: a lift meanwhile waits
    // for the id.
    std::map<int64_t, std::shared_ptr<UnconfirmedSilence>> m_unconfirmedSilences;
    // Lifted here, by Alertmanager's id, with the reads asked by then: one of those may
    // still list the silence. A read asked later ran after the lift (one thread, in order).
    std::map<std::string, uint64_t> m_liftedAlertmanagerIds;

    std::shared_ptr<const AlertRoute> m_watcher;
    std::shared_ptr<const AlertsView> m_teamView;
    std::vector<SilenceRule> m_teamSilences;
    std::string m_teamName;
    int64_t m_teamHeardMs = 0;  // this console's clock, when the watcher last answered
    QString m_teamProblem;      // as last said
    QFutureWatcher<TeamRead> m_teamReading;
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
    std::set<std::string> m_delivered;
    bool m_triageRead = false;
    // The first read that counts: one asked after the file and the Alertmanager were set.
    uint64_t m_firstCompleteRead = 0;
    // This console's records since reads it may not be in: kept until a read asked after
    // them is applied. Another console's resolution then reaches m_delivered too.
    struct DeliveryChange {
        std::string key;
        bool firing = false;
        uint64_t readsAskedBefore = 0;  // m_readsAsked when it was recorded
    };
    std::vector<DeliveryChange> m_deliveryChanges;
    static constexpr int64_t kTriageKeptMs = 24 * 3600'000LL;
};

}  // namespace meridian
