#include "alertcenter.h"

#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <cstdlib>

#include "alerts/alertmanagersilences.h"
#include "alerts/alertrouting.h"
#include "alerts/alerttriagelog.h"
#include "alerts/teamalerts.h"

namespace meridian {

AlertCenter::AlertCenter(const FleetState &state, QObject *parent) : QObject(parent), m_state(state)
{
    // Who acts, as the triage list and the audit log name them: a configured name (a
    // shared NOC login is no one in particular), else the OS user.
    const char *configured = std::getenv("MERIDIAN_OPERATOR");
    const char *user = std::getenv("USER");
    m_user = configured && *configured ? configured : user ? user : "operator";
    m_logThread.setMaxThreadCount(1);
    connect(&m_reading, &QFutureWatcher<TriageRead>::finished, this,
            [this] { applyTriage(m_reading.result()); });
    connect(&m_syncTimer, &QTimer::timeout, this, &AlertCenter::syncTriage);
    connect(&m_evaluator, &AlertEvaluator::published, this, &AlertCenter::publish);
}

AlertCenter::~AlertCenter()
{
    if (m_alertmanager)
        m_alertmanager->abortCalls();  // an Alertmanager that hangs does not hold the exit
    if (m_team)
        m_team->abortCalls();   // nor does a watcher that drips its answer
    m_logThread.waitForDone();  // never leave a write half made
}

void AlertCenter::update(std::shared_ptr<const FleetSnapshot> snapshot)
{
    m_nowMs = snapshot->takenUnixMs;
    m_layout = snapshot->layout;
    if (m_team) {
        m_team->seeFleet(m_layout, m_nowMs);
        return;  // the watcher judges
    }
    judgeOwnLag(*snapshot);
    m_evaluator.evaluate(std::move(snapshot), m_state.eventsSince(m_eventCounter, &m_eventCounter),
                         knownTriage());
}

void AlertCenter::observeController(const ControllerObservation &controller, int64_t nowMs)
{
    m_nowMs = std::max(m_nowMs, nowMs);
    if (m_team)
        return;
    m_evaluator.change([controller, nowMs, then = knownTriage()](AlertEngine &engine) {
        engine.observeController(controller, nowMs);
        if (then)
            then(engine);
    });
}

void AlertCenter::setPendingDurations(std::map<AlertKind, int64_t> pendingMs)
{
    m_evaluator.change([pendingMs = std::move(pendingMs)](AlertEngine &engine) {
        engine.setPendingDurations(pendingMs);
    });
}

void AlertCenter::observeServices(const std::vector<ServiceObservation> &services, int64_t nowMs)
{
    m_nowMs = std::max(m_nowMs, nowMs);
    if (m_team)
        return;  // services are the watcher's to judge too, where it watches them
    m_evaluator.change([services, nowMs, then = knownTriage()](AlertEngine &engine) {
        engine.observeServices(services, nowMs);
        if (then)
            then(engine);
    });
}

void AlertCenter::judgeOwnLag(const FleetSnapshot &snapshot)
{
    if (!m_lag)
        return;
    const int64_t now = snapshot.takenUnixMs;
    int64_t sendsEveryMs = 0;
    for (size_t n = 0; n < snapshot.nodeConnection.size(); ++n) {
        if (snapshot.nodeConnection[n] == ConnectionState::Connected &&
            snapshot.nodeLastSeenMs[n] > 0) {
            const int64_t every = snapshot.nodeIntervalMs[n];
            sendsEveryMs = sendsEveryMs == 0 ? every : std::min(sendsEveryMs, every);
        }
    }
    m_lag->tick(now);
    m_lag->received(m_state.telemetryBatches(), sendsEveryMs, now);
    const bool behind = m_lag->behind(now);
    if (behind != m_holdingStaleness) {
        m_holdingStaleness = behind;  // asked before the pass this snapshot makes
        m_evaluator.change([behind](AlertEngine &engine) { engine.setHoldingStaleness(behind); });
        Q_EMIT behindChanged();
    }
}

QString AlertCenter::behindText() const
{
    if (!m_lag || !m_holdingStaleness)
        return {};
    return tr("Agents' silence is not judged: this process is behind (its loop %1 s late, "
              "nothing received for %2 s)")
        .arg(static_cast<double>(m_lag->loopLateMs(m_nowMs)) / 1000.0, 0, 'f', 1)
        .arg(static_cast<double>(m_lag->receiveGapMs(m_nowMs)) / 1000.0, 0, 'f', 1);
}

void AlertCenter::publish()
{
    Q_EMIT alertsChanged();
}

int AlertCenter::openCount(const QString &dataCenter) const
{
    return view().openCount(dataCenter.toStdString(), m_nowMs);
}

void AlertCenter::write(std::function<std::string(AlertTriageLog &)> change)
{
    if (!m_log)
        return;
    auto log = m_log;
    inBackground([log, change] { return change(*log); });
}

void AlertCenter::inBackground(std::function<std::string()> job)
{
    auto *watcher = new QFutureWatcher<std::string>(this);
    connect(watcher, &QFutureWatcher<std::string>::finished, this, [this, watcher] {
        if (!watcher->result().empty())
            Q_EMIT triageProblem(QString::fromStdString(watcher->result()));
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(&m_logThread, std::move(job)));
    syncTriage();
}

void AlertCenter::acknowledge(const QString &key)
{
    const std::string k = key.toStdString();
    if (!view().find(k))
        return;
    if (m_team) {
        TriageRequest ask;
        ask.action = TriageRequest::Action::Acknowledge;
        ask.key = k;
        askWatcher(std::move(ask));
        return;
    }
    m_acknowledgements[k] = {m_user, m_nowMs};
    m_evaluator.change(
        [k, who = m_user, now = m_nowMs](AlertEngine &engine) { engine.acknowledge(k, who, now); });
    record(TriageAction::Kind::Acknowledge, k, {});
}

void AlertCenter::setNote(const QString &key, const QString &note)
{
    const std::string k = key.toStdString();
    if (!view().find(k))
        return;
    if (m_team) {
        TriageRequest ask;
        ask.action = TriageRequest::Action::Note;
        ask.key = k;
        ask.note = note.toStdString();
        askWatcher(std::move(ask));
        return;
    }
    m_notes[k] = {note.toStdString(), m_nowMs};
    m_evaluator.change(
        [k, text = note.toStdString()](AlertEngine &engine) { engine.setNote(k, text); });
    record(TriageAction::Kind::Note, k, note.toStdString());
}

void AlertCenter::record(TriageAction::Kind kind, const std::string &key, const std::string &text)
{
    TriageAction action;
    action.atUnixMs = m_nowMs;
    action.alertKey = key;
    action.kind = kind;
    action.who = m_user;
    action.text = text;
    write([action](AlertTriageLog &log) { return log.record(action).error().message; });
}

void AlertCenter::recordDelivery(const std::string &key, bool firing)
{
    m_delivered.record(key, firing, m_readsAsked, m_log != nullptr);
    const int64_t now = m_nowMs;
    const std::optional<AlertIncident> started = deliveredIncident(key, firing, now);
    write([key, firing, now, started](AlertTriageLog &log) {
        return log.recordDelivery(key, firing, now, started).error().message;
    });
}

std::function<void()> AlertCenter::deliveryRecord(const std::string &key, bool firing)
{
    m_delivered.record(key, firing, m_readsAsked, m_log != nullptr);
    if (!m_log)
        return [] {};
    const int64_t now = m_nowMs;
    const std::optional<AlertIncident> started = deliveredIncident(key, firing, now);
    return [log = m_log, key, firing, now, started] {
        // Not this center's writer thread: the window may be gone by now, so a file that
        // cannot take it is said on stderr only (a watcher's journal). Nothing is lost:
        // unrecorded, the page is sent again by the next start.
        if (const Status written = log->recordDelivery(key, firing, now, started); !written)
            qWarning("alert triage: %s", written.message().c_str());
    };
}

const AlertIncident *AlertCenter::openIncident(const std::string &key) const
{
    const auto it = m_openIncidents.find(key);
    return it == m_openIncidents.end() ? nullptr : &it->second;
}

std::optional<AlertIncident> AlertCenter::deliveredIncident(const std::string &key, bool firing,
                                                            int64_t nowMs) const
{
    // The occurrence, for the fault-response clock; none for one the engine no longer has.
    if (const Alert *alert = view().find(key); firing && alert)
        return incidentOf(*alert, nowMs);
    return std::nullopt;
}

void AlertCenter::setTriageLog(std::shared_ptr<AlertTriageLog> log, int syncMs)
{
    m_log = std::move(log);
    m_triageRead = false;
    m_firstCompleteRead = m_readsAsked + 1;
    if (m_log) {
        m_syncTimer.start(syncMs);
        syncTriage();
    } else if (!m_alertmanager) {
        m_syncTimer.stop();
    }
}

void AlertCenter::syncTriage()
{
    if (m_team) {
        m_team->poll();
        return;
    }
    if ((!m_log && !m_alertmanager) || m_reading.isRunning())
        return;
    // Once a day what ended long ago is forgotten: nobody grows the file without bound.
    if (m_log && m_nowMs > 0 && m_nowMs - m_lastForgetMs >= kForgetEveryMs) {
        m_lastForgetMs = m_nowMs;
        write([cutoff = m_nowMs - kTriageKeptMs](AlertTriageLog &log) {
            auto forgotten = log.forgetBefore(cutoff);
            return forgotten ? std::string() : forgotten.error().message;
        });
    }
    auto log = m_log;
    auto alertmanager = m_alertmanager;
    const uint64_t sequence = ++m_readsAsked;
    const int64_t after = m_lastActionId;
    const int64_t now = m_nowMs;
    const bool incidents = !m_openIncidentsRead;
    m_reading.setFuture(
        QtConcurrent::run(&m_logThread, [log, alertmanager, sequence, after, now, incidents] {
            return readTriage(log.get(), alertmanager.get(), sequence, after, now, incidents);
        }));
}

void AlertCenter::waitForTriage()
{
    if (!m_log && !m_alertmanager)
        return;
    m_logThread.waitForDone();
    applyTriage(readTriage(m_log.get(), m_alertmanager.get(), ++m_readsAsked, m_lastActionId,
                           m_nowMs, !m_openIncidentsRead));
}

void AlertCenter::applyTriage(const TriageRead &read)
{
    if (read.sequence <= m_readsApplied)
        return;  // a newer read has been applied already
    m_readsApplied = read.sequence;
    // Tried once: even a file that cannot say what was sent must not hold alerts back
    // (they may then reach a receiver twice, never not at all). A read asked before a
    // source was set did not ask it.
    m_triageRead = m_triageRead || read.sequence >= m_firstCompleteRead;
    // What was delivered is known before anything below shows the alerts again (the
    // notifier reviews them then).
    if (read.problem.empty())
        m_delivered.take(read.delivered, read.sequence);
    if (read.openIncidents) {
        m_openIncidents = *read.openIncidents;
        m_openIncidentsRead = true;
    }
    if (!m_triageRead)
        QTimer::singleShot(0, this, [this] { syncTriage(); });  // the one that counts, now
    // An Alertmanager that does not answer keeps the silences last read from it.
    if (read.alertmanagerSilences) {
        m_alertmanagerSilences.take(*read.alertmanagerSilences, m_readsApplied);
        applySilences();
    } else if (!read.alertmanagerProblem.empty()) {
        m_alertmanagerSilences.forgetUnconfirmed();  // kept in the file, and read from there
        applySilences();
    }
    std::string problem = read.problem;
    if (!read.alertmanagerProblem.empty())
        problem += (problem.empty() ? "" : "; ") + read.alertmanagerProblem;
    Q_EMIT triageProblem(QString::fromStdString(problem));
    if (!read.problem.empty()) {
        applySilences();
        return;  // keep what we had: a locked or damaged file must not lift silences
    }
    for (const TriageAction &a : read.actions) {
        if (a.id <= m_lastActionId)
            continue;
        m_lastActionId = a.id;
        if (a.kind == TriageAction::Kind::Acknowledge) {
            Done &known = m_acknowledgements[a.alertKey];
            if (a.atUnixMs >= known.atMs)
                known = {a.who, a.atUnixMs};
        } else {
            m_notes[a.alertKey] = {a.text, a.atUnixMs};
        }
    }
    m_sharedSilences = read.silences;
    applySilences();
    applyKnownTriage();
}

void AlertCenter::applyKnownTriage()
{
    if (auto apply = knownTriage())
        m_evaluator.change(std::move(apply));
}

std::function<void(AlertEngine &)> AlertCenter::knownTriage()
{
    // What the file says of alerts long gone is no use any more.
    const auto forgotten = [&](const std::string &key, int64_t atMs) {
        return !view().find(key) && m_nowMs - atMs > kTriageKeptMs;
    };
    for (auto *done : {&m_acknowledgements, &m_notes})
        std::erase_if(*done,
                      [&](const auto &entry) { return forgotten(entry.first, entry.second.atMs); });
    if (m_acknowledgements.empty() && m_notes.empty())
        return {};
    return [acknowledgements = m_acknowledgements, notes = m_notes](AlertEngine &engine) {
        for (const auto &[key, ack] : acknowledgements)
            engine.applyAcknowledgement(key, ack.text, ack.atMs);
        for (const auto &[key, note] : notes) {
            const Alert *a = engine.find(key);
            if (a && a->note != note.text)
                engine.setNote(key, note.text);
        }
    };
}

void AlertCenter::followWatcher(const AlertRoute &watcher, int pollMs, int callMs)
{
    m_team = std::make_unique<TeamWatcherLink>(watcher, m_logThread, callMs);
    m_team->seeFleet(m_layout, m_nowMs);
    connect(m_team.get(), &TeamWatcherLink::changed, this, &AlertCenter::publish);
    connect(m_team.get(), &TeamWatcherLink::problem, this, &AlertCenter::triageProblem);
    publish();  // nothing this console judged before stays listed as the team's
    m_syncTimer.start(pollMs);
    syncTriage();
}

QString AlertCenter::sourceText() const
{
    return m_team ? m_team->sourceText() : QString();
}

void AlertCenter::askWatcher(TriageRequest request)
{
    request.who = m_user;
    inBackground(m_team->sendJob(request));
}

}  // namespace meridian
