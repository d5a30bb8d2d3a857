#include "watchtriage.h"

#include <QString>

#include "alerts/triagegate.h"
#include "core/clock.h"
#include "models/alerts/alertcenter.h"

namespace meridian {

std::string teamAlertsOf(const AlertCenter &center, const std::string &watcherName, int64_t nowMs)
{
    TeamAlerts team;
    team.watcher = watcherName;
    team.nowMs = nowMs;
    team.behind = center.behindText().toStdString();
    for (const Alert &a : center.view().alerts) {
        if (a.firing)
            team.alerts.push_back(a);
    }
    team.silences = center.silences();
    return teamAlertsJson(team);
}

ScrapeAnswer answerTriage(const ScrapeRequest &request, const TriageGate &gate,
                          const std::function<void(TriageRequest, std::string)> &carryOut)
{
    if (request.path != "/triage")
        return {404, "no such path: POST /triage is here\n", "text/plain"};
    TriageCaller caller;
    caller.tokenName = request.caller;
    caller.mayOperate = request.mayOperate;
    caller.host = gate.host;
    TriageVerdict verdict = judgeTriage(request.body, caller, SystemClock::instance().nowUnixMs(),
                                        gate.allowance, gate.silenceMaxMs);
    if (!verdict.taken()) {
        ScrapeAnswer answer{verdict.status, verdict.why + "\n", "text/plain"};
        answer.retryAfterS = static_cast<int>((verdict.retryAfterMs + 999) / 1000);
        return answer;
    }
    carryOut(std::move(verdict.request), std::move(verdict.who));
    return {202, "{\"accepted\":true}\n", "application/json"};
}

void carryOutTriage(AlertCenter &center, const TriageRequest &request, const std::string &who)
{
    const QString itself = center.user();
    center.setUser(QString::fromStdString(who));
    const QString key = QString::fromStdString(request.key);
    switch (request.action) {
    case TriageRequest::Action::Acknowledge: center.acknowledge(key); break;
    case TriageRequest::Action::Note:
        center.setNote(key, QString::fromStdString(request.note));
        break;
    case TriageRequest::Action::Silence: {
        SilenceRule rule = request.silence;
        rule.id = 0;  // the watcher's file or Alertmanager gives it one
        rule.alertmanagerId.clear();
        center.silence(std::move(rule));
        break;
    }
    case TriageRequest::Action::Lift: center.liftSilence(request.silence.id); break;
    }
    center.setUser(itself);
}

}  // namespace meridian
