// AlertCenter's silences: in the history file, or in an Alertmanager where one is set,
// so that consoles on other files and the on-call's phone see the same ones.
#include <QString>
#include <algorithm>
#include <mutex>

#include "alertcenter.h"
#include "alerts/alertmanagersilences.h"
#include "alerts/teamalerts.h"

namespace meridian {

namespace {

// Makes the silence in Alertmanager (on the triage thread) and tells whoever learns last of
// it and a lift meanwhile; one Alertmanager does not take is kept in the history file.
std::string makeInAlertmanager(AlertmanagerSilences &alertmanager, AlertTriageLog *log,
                               const SilenceRule &rule, int64_t now,
                               UnconfirmedSilence &unconfirmed)
{
    const auto made = alertmanager.create(rule, now);
    if (made) {
        bool liftedMeanwhile = false;
        {
            const std::lock_guard lock(unconfirmed.mutex);
            unconfirmed.alertmanagerId = made.value();
            liftedMeanwhile = unconfirmed.lifted;
        }
        const std::string what = "silenced " + silenceScope(rule) + " in " +
                                 alertmanager.route().name + " (silence " + made.value() + ")";
        if (liftedMeanwhile) {
            if (Status lifted = alertmanager.expire(made.value()); !lifted)
                return lifted.message();
        }
        if (!log)
            return {};
        return log->audit(now, rule.by, liftedMeanwhile ? what + ", and lifted" : what, rule.reason)
            .error()
            .message;
    }
    // Not lost: the file keeps it, shared with the consoles on it.
    std::string problem = made.error().message;
    if (log && log->addSilence(rule, now))
        problem += "; the silence is kept in the history file instead";
    return problem;
}

}  // namespace

void AlertCenter::setAlertmanagerSilences(std::shared_ptr<AlertmanagerSilences> alertmanager,
                                          int syncMs)
{
    m_alertmanager = std::move(alertmanager);
    // Nothing is sent until its silences have been read: the first delivery of a start
    // must honour a silence someone set while no console ran.
    m_triageRead = false;
    m_firstCompleteRead = m_readsAsked + 1;
    if (m_alertmanager && !m_syncTimer.isActive())
        m_syncTimer.start(syncMs);
    syncTriage();
}

void AlertCenter::silence(SilenceRule rule)
{
    rule.by = m_user;
    const int64_t now = m_nowMs;
    if (m_team) {
        TriageRequest ask;
        ask.action = TriageRequest::Action::Silence;
        ask.silence = std::move(rule);
        askWatcher(std::move(ask));
        return;
    }
    if (m_alertmanager) {
        // Shown at once; the next read brings it back from the Alertmanager with its id.
        rule.id = --m_unsharedSilenceId;
        auto unconfirmed = m_alertmanagerSilences.addUnconfirmed(rule);
        applySilences();
        auto alertmanager = m_alertmanager;
        auto log = m_log;
        inBackground([alertmanager, log, rule, now, unconfirmed] {
            return makeInAlertmanager(*alertmanager, log.get(), rule, now, *unconfirmed);
        });
        return;
    }
    // Shown at once. With a history file the next read brings it back with its id;
    // without one it lives in this console only, under an id of its own.
    if (!m_log)
        rule.id = --m_unsharedSilenceId;
    m_sharedSilences.push_back(rule);
    applySilences();
    write([rule, now](AlertTriageLog &log) {
        auto added = log.addSilence(rule, now);
        return added ? std::string() : added.error().message;
    });
}

void AlertCenter::silence(const QString &key, int64_t untilMs)
{
    SilenceRule rule;
    rule.alertKey = key.toStdString();
    rule.untilMs = untilMs;
    silence(rule);
}

void AlertCenter::liftSilence(int64_t id)
{
    if (m_team) {
        TriageRequest ask;
        ask.action = TriageRequest::Action::Lift;
        ask.silence.id = id;
        askWatcher(std::move(ask));
        return;
    }
    if (const auto alertmanagerId = m_alertmanagerSilences.lift(id, m_readsAsked)) {
        applySilences();
        if (!alertmanagerId->empty())
            expireInAlertmanager(*alertmanagerId);
        return;
    }
    std::erase_if(m_sharedSilences, [id](const SilenceRule &r) { return r.id == id; });
    applySilences();
    const int64_t now = m_nowMs;
    write([id, now, who = m_user](AlertTriageLog &log) {
        return log.liftSilence(id, now, who).error().message;
    });
}

void AlertCenter::expireInAlertmanager(const std::string &alertmanagerId)
{
    auto alertmanager = m_alertmanager;
    if (!alertmanager)
        return;
    auto log = m_log;
    inBackground([alertmanager, log, alertmanagerId, who = m_user, now = m_nowMs] {
        if (Status lifted = alertmanager->expire(alertmanagerId); !lifted)
            return lifted.message();
        if (!log)
            return std::string();
        return log
            ->audit(now, who,
                    "lifted silence " + alertmanagerId + " in " + alertmanager->route().name, {})
            .error()
            .message;
    });
}

std::vector<SilenceRule> AlertCenter::silences() const
{
    std::vector<SilenceRule> active;
    const std::vector<SilenceRule> none;
    for (const auto *rules : {&m_sharedSilences, &m_alertmanagerSilences.rules(),
                              m_team ? &m_team->silences() : &none}) {
        for (const SilenceRule &rule : *rules) {
            if (rule.untilMs > m_nowMs)
                active.push_back(rule);
        }
    }
    return active;
}

void AlertCenter::applySilences()
{
    std::vector<SilenceRule> all = m_sharedSilences;
    all.insert(all.end(), m_alertmanagerSilences.rules().begin(),
               m_alertmanagerSilences.rules().end());
    m_evaluator.change(
        [all = std::move(all)](AlertEngine &engine) { engine.setSharedSilences(all); });
}

}  // namespace meridian
