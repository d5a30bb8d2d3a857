// AlertCenter following the team's watcher: its list is read over HTTP (under a deadline
// and a size cap, checked as a stranger's answer) and shown in place of this console's
// own evaluation; what the on-call does goes to the watcher, which records it in its
// triage log under the name of the caller's token.
#include <fmt/format.h>

#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include "alertcenter.h"
#include "alerts/alertrouting.h"
#include "alerts/routehttp.h"
#include "alerts/teamalerts.h"

namespace meridian {

namespace {

// A watcher answers from memory; one that takes longer is in trouble, and is said so.
constexpr int kWatcherCallMs = 5000;

}  // namespace

void AlertCenter::followWatcher(const AlertRoute &watcher, int pollMs)
{
    m_watcher = std::make_shared<const AlertRoute>(watcher);
    m_teamView = std::make_shared<const AlertsView>();
    publish();  // nothing this console judged before stays listed as the team's
    m_syncTimer.start(pollMs);
    syncTriage();
}

QString AlertCenter::sourceText() const
{
    if (!m_watcher)
        return {};
    if (m_teamName.empty())
        return tr("from the watcher at %1 (not heard from yet)")
            .arg(QString::fromStdString(m_watcher->url));
    return tr("from %1").arg(QString::fromStdString(m_teamName));
}

AlertCenter::TeamRead AlertCenter::readTeam(const AlertRoute &watcher)
{
    TeamRead read;
    RouteCall call;
    call.method = "GET";
    call.url = watcher.url + "/alerts";
    call.maxAnswerBytes = kMaxTeamAlertsBytes;
    CallWatch watch;
    auto answer = callRoute(watcher, call, kWatcherCallMs, watch);
    if (!answer) {
        read.problem = answer.error().message;
    } else if (answer->status != 200) {
        read.problem = fmt::format("the watcher at {} answered HTTP {}: {}", watcher.url,
                                   answer->status, answer->body.substr(0, 200));
    } else if (auto team = parseTeamAlerts(answer->body); !team) {
        read.problem = fmt::format("the watcher at {}: {}", watcher.url, team.error().message);
    } else {
        read.team = std::make_shared<TeamAlerts>(std::move(team).value());
    }
    return read;
}

void AlertCenter::pollWatcher()
{
    if (m_teamReading.isRunning())
        return;
    auto watcher = m_watcher;
    m_teamReading.setFuture(
        QtConcurrent::run(&m_logThread, [watcher] { return readTeam(*watcher); }));
}

void AlertCenter::takeTeam(const TeamRead &read)
{
    if (!read.team) {
        // The list last read stays shown, and how old it is said.
        const QString since = m_teamHeardMs > 0
                                  ? tr(" (the list shown is %1 old)")
                                        .arg(AlertsModel::durationText(m_nowMs - m_teamHeardMs))
                                  : QString();
        sayTeamProblem(QString::fromStdString(read.problem) + since);
        return;
    }
    TeamAlerts &team = *read.team;
    m_teamName = team.watcher;
    m_teamHeardMs = m_nowMs;
    auto view = std::make_shared<AlertsView>();
    view->sequence = m_teamView->sequence + 1;
    view->alerts = std::move(team.alerts);
    findCards(view->alerts);
    for (size_t i = 0; i < view->alerts.size(); ++i)
        view->indexByKey.emplace(view->alerts[i].key, i);
    view->holdingStaleness = !team.behind.empty();
    m_teamView = std::move(view);
    m_teamSilences = std::move(team.silences);
    sayTeamProblem(team.behind.empty()
                       ? QString()
                       : tr("the watcher is behind: %1").arg(QString::fromStdString(team.behind)));
    publish();
}

void AlertCenter::sayTeamProblem(const QString &text)
{
    // Said when it changes only: a refusal of the user's triage (said by the job that
    // sent it) stays in view until the watcher's state has news.
    if (text == m_teamProblem)
        return;
    m_teamProblem = text;
    Q_EMIT triageProblem(text);
}

void AlertCenter::findCards(std::vector<Alert> &alerts) const
{
    if (!m_layout)
        return;
    const FleetLayout &l = *m_layout;
    std::map<std::string, NodeHandle> nodeByName;
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        for (const std::string *name : {&l.nodeHint[n], &l.nodeAddress[n], &l.nodeId[n]}) {
            if (!name->empty())
                nodeByName[*name] = n;
        }
    }
    for (Alert &a : alerts) {
        const auto node = nodeByName.find(a.nodeName);
        if (node == nodeByName.end())
            continue;
        a.node = node->second;
        if (!a.cardIndex)
            continue;
        for (const CardHandle c : l.nodeCards[node->second]) {
            if (l.cardIndex[c] == *a.cardIndex)
                a.card = c;
        }
    }
}

void AlertCenter::askWatcher(TriageRequest request)
{
    request.who = m_user;
    auto watcher = m_watcher;
    inBackground([watcher, body = triageRequestJson(request)]() -> std::string {
        RouteCall call;
        call.url = watcher->url + "/triage";
        call.body = body;
        CallWatch watch;
        auto answer = callRoute(*watcher, call, kWatcherCallMs, watch);
        if (!answer)
            return answer.error().message;
        if (answer->status / 100 != 2)
            return fmt::format("the watcher at {} refused it: HTTP {} {}", watcher->url,
                               answer->status, answer->body.substr(0, 200));
        return {};
    });
}

}  // namespace meridian
