#include "teamwatcherlink.h"

#include <fmt/format.h>

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <map>

#include "alertguidance.h"
#include "alerts/alertrouting.h"
#include "alerts/routehttp.h"
#include "alerts/teamalerts.h"
#include "core/callwatch.h"

namespace meridian {

TeamWatcherLink::TeamWatcherLink(const AlertRoute &watcher, QThreadPool &thread, int callMs,
                                 QObject *parent)
    : QObject(parent)
    , m_watcher(std::make_shared<const AlertRoute>(watcher))
    , m_thread(thread)
    , m_callMs(callMs)
    , m_view(std::make_shared<const AlertsView>())
    , m_calls(std::make_shared<CallWatch>())
{
    connect(&m_reading, &QFutureWatcher<Read>::finished, this,
            [this] { take(m_reading.result()); });
}

TeamWatcherLink::~TeamWatcherLink()
{
    abortCalls();  // a watcher that drips its answer does not hold the console's exit
    m_reading.waitForFinished();
}

void TeamWatcherLink::abortCalls()
{
    m_calls->abortAll();
}

void TeamWatcherLink::seeFleet(std::shared_ptr<const FleetLayout> layout, int64_t nowMs)
{
    m_layout = std::move(layout);
    m_nowMs = std::max(m_nowMs, nowMs);
}

QString TeamWatcherLink::sourceText() const
{
    if (m_name.empty())
        return tr("from the watcher at %1 (not heard from yet)")
            .arg(QString::fromStdString(m_watcher->url));
    return tr("from %1").arg(QString::fromStdString(m_name));
}

TeamWatcherLink::Read TeamWatcherLink::read(const AlertRoute &watcher, int callMs, CallWatch &calls)
{
    Read read;
    RouteCall call;
    call.method = "GET";
    call.url = watcher.url + "/alerts";
    call.maxAnswerBytes = kMaxTeamAlertsBytes;
    auto answer = callRoute(watcher, call, callMs, calls);
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

void TeamWatcherLink::poll()
{
    if (m_reading.isRunning())
        return;
    m_reading.setFuture(
        QtConcurrent::run(&m_thread, [watcher = m_watcher, callMs = m_callMs, calls = m_calls] {
            return read(*watcher, callMs, *calls);
        }));
}

void TeamWatcherLink::take(const Read &read)
{
    if (!read.team) {
        // The list last read stays shown, and how old it is said.
        const QString since =
            m_heardMs > 0
                ? tr(" (the list shown is %1 old)").arg(alertDurationText(m_nowMs - m_heardMs))
                : QString();
        sayProblem(QString::fromStdString(read.problem) + since);
        return;
    }
    TeamAlerts &team = *read.team;
    m_name = team.watcher;
    m_heardMs = m_nowMs;
    auto view = std::make_shared<AlertsView>();
    view->sequence = m_view->sequence + 1;
    view->alerts = std::move(team.alerts);
    findCards(view->alerts);
    for (size_t i = 0; i < view->alerts.size(); ++i)
        view->indexByKey.emplace(view->alerts[i].key, i);
    view->holdingStaleness = !team.behind.empty();
    m_view = std::move(view);
    m_silences = std::move(team.silences);
    sayProblem(team.behind.empty()
                   ? QString()
                   : tr("the watcher is behind: %1").arg(QString::fromStdString(team.behind)));
    Q_EMIT changed();
}

void TeamWatcherLink::sayProblem(const QString &text)
{
    // Said when it changes only: a refusal of the user's triage (said by the job that
    // sent it) stays in view until the watcher's state has news.
    if (text == m_problem)
        return;
    m_problem = text;
    Q_EMIT problem(text);
}

void TeamWatcherLink::findCards(std::vector<Alert> &alerts) const
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

std::function<std::string()> TeamWatcherLink::sendJob(const TriageRequest &request) const
{
    return [watcher = m_watcher, callMs = m_callMs,
            body = triageRequestJson(request)]() -> std::string {
        RouteCall call;
        call.url = watcher->url + "/triage";
        call.body = body;
        CallWatch watch;
        auto answer = callRoute(*watcher, call, callMs, watch);
        if (!answer)
            return answer.error().message;
        if (answer->status / 100 != 2)
            return fmt::format("the watcher at {} refused it: HTTP {} {}", watcher->url,
                               answer->status, answer->body.substr(0, 200));
        return {};
    };
}

}  // namespace meridian
