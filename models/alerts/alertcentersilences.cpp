// AlertCenter's silences: in the history file, or in an Alertmanager where one is set,
// so that consoles on other files and the on-call's phone see the same ones.
#include <QString>
#include <algorithm>
#include <mutex>

#include "alertcenter.h"
#include "alerts/alertmanagersilences.h"
#include "alerts/teamalerts.h"

namespace meridian {

// A silence on its way to Alertmanager. Whichever learns last, the job that makes it (the
// id) or the user who lifts it (the lift), expires it, so a lift in the seconds before
// Alertmanager answers is not undone by the next read.
struct UnconfirmedSilence {
    std::mutex mutex;
    std::string alertmanagerId;
    bool lifted = false;
};

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
    if (m_watcher) {
        TriageRequest ask;
        ask.action = TriageRequest::Action::Silence;
        ask.silence = std::move(rule);
        askWatcher(std::move(ask));
        return;
    }
    if (m_alertmanager) {
        // Shown at once; the next read brings it back from the Alertmanager with its id.
        rule.id = --m_unsharedSilenceId;
        m_alertmanagerSilences.push_back(rule);
        applySilences();
        auto alertmanager = m_alertmanager;
        auto log = m_log;
        auto unconfirmed = std::make_shared<UnconfirmedSilence>();
        m_unconfirmedSilences[rule.id] = unconfirmed;
        inBackground([alertmanager, log, rule, now, unconfirmed]() -> std::string {
            const auto made = alertmanager->create(rule, now);
            if (made) {
                bool liftedMeanwhile = false;
                {
                    const std::lock_guard lock(unconfirmed->mutex);
                    unconfirmed->alertmanagerId = made.value();
                    liftedMeanwhile = unconfirmed->lifted;
                }
                const std::string what = "silenced " + silenceScope(rule) + " in " +
                                         alertmanager->route().name + " (silence " + made.value() +
                                         ")";
                if (liftedMeanwhile) {
                    if (Status lifted = alertmanager->expire(made.value()); !lifted)
                        return lifted.message();
                }
                if (!log)
                    return {};
                return log
                    ->audit(now, rule.by, liftedMeanwhile ? what + ", and lifted" : what,
                            rule.reason)
                    .error()
                    .message;
            }
            // Not lost: the file keeps it, shared with the consoles on it.
            std::string problem = made.error().message;
            if (log && log->addSilence(rule, now))
                problem += "; the silence is kept in the history file instead";
            return problem;
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
    if (m_watcher) {
        TriageRequest ask;
        ask.action = TriageRequest::Action::Lift;
        ask.silence.id = id;
        askWatcher(std::move(ask));
        return;
    }
    const auto it = std::find_if(m_alertmanagerSilences.begin(), m_alertmanagerSilences.end(),
                                 [id](const SilenceRule &r) { return r.id == id; });
    if (it != m_alertmanagerSilences.end()) {
        std::string alertmanagerId = it->alertmanagerId;
        m_alertmanagerSilences.erase(it);
        applySilences();
        if (const auto unconfirmed = m_unconfirmedSilences.find(id);
            alertmanagerId.empty() && unconfirmed != m_unconfirmedSilences.end()) {
            const std::lock_guard lock(unconfirmed->second->mutex);
            unconfirmed->second->lifted = true;  // made not yet: the job that makes it lifts it
            alertmanagerId = unconfirmed->second->alertmanagerId;
        }
        if (!alertmanagerId.empty())
            expireInAlertmanager(alertmanagerId);
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
    m_liftedAlertmanagerIds[alertmanagerId] = m_readsAsked;
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
    for (const auto *rules : {&m_sharedSilences, &m_alertmanagerSilences, &m_teamSilences}) {
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
    all.insert(all.end(), m_alertmanagerSilences.begin(), m_alertmanagerSilences.end());
    m_evaluator.change(
        [all = std::move(all)](AlertEngine &engine) { engine.setSharedSilences(all); });
}

void AlertCenter::takeAlertmanagerSilences(std::vector<SilenceRule> silences)
{
    // One lifted here may still be listed by a read asked before the lift. A read asked
    // after it lists the silence only where the lift failed (said as a problem), and then
    // the silence is still there for everyone: shown again.
    std::erase_if(m_liftedAlertmanagerIds,
                  [this](const auto &lifted) { return lifted.second < m_readsApplied; });
    std::erase_if(silences, [this](const SilenceRule &r) {
        return m_liftedAlertmanagerIds.count(r.alertmanagerId) > 0;
    });
    // Confirmed, and read back or lifted: nothing is left to carry over.
    std::erase_if(m_unconfirmedSilences, [&](const auto &entry) {
        const std::lock_guard lock(entry.second->mutex);
        const std::string &made = entry.second->alertmanagerId;
        return !made.empty() &&
               (entry.second->lifted ||
                std::any_of(silences.begin(), silences.end(),
                            [&](const SilenceRule &r) { return r.alertmanagerId == made; }));
    });
    // The same silence keeps its id here across reads, so the list's selection holds; one
    // no longer listed has ended, and its id goes with it.
    std::map<std::string, int64_t> ids;
    for (SilenceRule &rule : silences) {
        const auto known = m_alertmanagerIds.find(rule.alertmanagerId);
        rule.id = known != m_alertmanagerIds.end() ? known->second : m_nextAlertmanagerSilenceId--;
        ids[rule.alertmanagerId] = rule.id;
    }
    m_alertmanagerIds = std::move(ids);
    // In the order this console first saw them (ids count down): Alertmanager's own order
    // ties silences that end together, and a list reordered between reads would move rows
    // under the user.
    std::stable_sort(silences.begin(), silences.end(),
                     [](const SilenceRule &a, const SilenceRule &b) { return a.id > b.id; });
    m_alertmanagerSilences = std::move(silences);
    applySilences();
}

void AlertCenter::forgetPendingAlertmanagerSilences()
{
    // A silence Alertmanager did not take is in the history file: listed from there, once.
    std::erase_if(m_alertmanagerSilences,
                  [](const SilenceRule &r) { return r.alertmanagerId.empty(); });
    applySilences();
}

}  // namespace meridian
