#include "alertdispatcher.h"

#include <fmt/format.h>

#include <algorithm>

#include "routehttp.h"

namespace meridian {

namespace {

constexpr int64_t kFirstRetryMs = 2000;
constexpr int64_t kLongestRetryMs = 5 * 60'000;
// How often the delivery thread looks for retries that fell due (on the injected clock);
// a new notice wakes it at once.
constexpr auto kPollInterval = std::chrono::milliseconds(200);

int64_t retryDelayMs(int attempt)
{
    int64_t delay = kFirstRetryMs;
    for (int i = 1; i < attempt && delay < kLongestRetryMs; ++i)
        delay *= 2;
    return std::min(delay, kLongestRetryMs);
}

}  // namespace

AlertDispatcher::Sender AlertDispatcher::httpSender()
{
    return [](const AlertRoute &route, const HttpPost &post, int timeoutMs,
              CallWatch &watch) -> std::string {
        const auto answer =
            callRoute(route, {"POST", post.url, post.body, post.contentType}, timeoutMs, watch);
        if (!answer)
            return answer.error().message;
        if (answer->status < 200 || answer->status >= 300) {
            const size_t scheme = post.url.find("://");
            const std::string origin =
                post.url.substr(0, scheme == std::string::npos ? std::string::npos
                                                               : post.url.find('/', scheme + 3));
            return fmt::format("{} ({}): HTTP {} {}", route.name, origin, answer->status,
                               answer->body.substr(0, 200));
        }
        return {};
    };
}

AlertDispatcher::AlertDispatcher(AlertRouting routing, const Clock &clock, Sender sender)
    : m_routing(std::move(routing)), m_clock(clock), m_sender(std::move(sender))
{
    for (const AlertRoute &route : m_routing.routes) {
        m_status.push_back({route.name});
        m_rounds.push_back(std::make_unique<PeriodicThread>(clock));
    }
}

AlertDispatcher::~AlertDispatcher()
{
    stop();
}

void AlertDispatcher::start()
{
    // A thread per route: one slow or silent receiver delays no other.
    for (size_t r = 0; r < m_rounds.size(); ++r)
        m_rounds[r]->start(kPollInterval, [this, r] { deliverDue(r); });
}

void AlertDispatcher::stop()
{
    m_stopped = true;
    m_calls.abortAll();  // deliveries under way end now, not at their timeout
    for (auto &rounds : m_rounds)
        rounds->stop();
}

void AlertDispatcher::submit(const std::vector<AlertNotice> &notices, std::optional<RouteKind> only,
                             std::function<void()> answered)
{
    const int64_t now = m_clock.nowUnixMs();
    std::shared_ptr<Batch> batch;
    if (answered) {
        batch = std::make_shared<Batch>();
        batch->answered = std::move(answered);
    }
    int queued = 0;
    {
        std::lock_guard lock(m_mutex);
        for (size_t r = 0; r < m_routing.routes.size(); ++r) {
            const AlertRoute &route = m_routing.routes[r];
            if ((only && route.kind != *only) || route.escalates())
                continue;
            std::vector<AlertNotice> wanted;
            for (const AlertNotice &n : notices) {
                if (route.wants(n.severity, n.kind, n.dataCenter) &&
                    !(n.notForAlertmanager && route.kind == RouteKind::Alertmanager))
                    wanted.push_back(n);
            }
            if (wanted.empty())
                continue;
            m_queue.push_back({r, alertPost(route, wanted, now), 0, now, batch});
            ++m_status[r].waiting;
            ++queued;
        }
        if (batch)
            batch->unanswered = queued;  // under the lock: no route has taken one yet
    }
    if (batch && queued == 0)
        batch->answered();
    for (auto &rounds : m_rounds)
        rounds->wake();
}

void AlertDispatcher::escalate(size_t route, const std::vector<AlertNotice> &notices)
{
    if (route >= m_routing.routes.size() || notices.empty())
        return;
    {
        std::lock_guard lock(m_mutex);
        const int64_t now = m_clock.nowUnixMs();
        m_queue.push_back({route, alertPost(m_routing.routes[route], notices, now), 0, now, {}});
        ++m_status[route].waiting;
    }
    for (auto &rounds : m_rounds)
        rounds->wake();
}

int AlertDispatcher::deliverDue()
{
    int attempted = 0;
    for (size_t r = 0; r < m_routing.routes.size(); ++r)
        attempted += deliverDue(r);
    return attempted;
}

int AlertDispatcher::deliverDue(size_t route)
{
    std::vector<Delivery> due;
    const int64_t now = m_clock.nowUnixMs();
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_queue.begin(); it != m_queue.end();) {
            if (it->route == route && it->dueMs <= now) {
                due.push_back(std::move(*it));
                it = m_queue.erase(it);
            } else {
                ++it;
            }
        }
    }
    // Sent outside the lock: a receiver that takes its time blocks nobody else.
    for (Delivery &d : due) {
        const std::string error =
            m_sender(m_routing.routes[d.route], d.post, m_routing.timeoutMs, m_calls);
        // Its batch hears of the first attempt only, and before the route's status does,
        // so whoever sees the route done sees the batch's record made.
        if (const std::shared_ptr<Batch> batch = std::move(d.batch);
            batch && !m_stopped && --batch->unanswered == 0)
            batch->answered();
        settle(std::move(d), error, now);
    }
    return static_cast<int>(due.size());
}

void AlertDispatcher::settle(Delivery d, const std::string &error, int64_t nowMs)
{
    std::lock_guard lock(m_mutex);
    RouteStatus &status = m_status[d.route];
    if (error.empty()) {
        ++status.delivered;
        --status.waiting;
        status.lastError.clear();
        status.lastSuccessMs = nowMs;
        return;
    }
    status.lastError = error;
    ++status.failedAttempts;
    if (d.attempt >= m_routing.retries) {
        ++status.droppedAfterRetries;
        --status.waiting;
        return;
    }
    ++d.attempt;
    d.dueMs = nowMs + retryDelayMs(d.attempt);
    m_queue.push_back(std::move(d));
}

std::string AlertDispatcher::sendTest(const std::string &routeName, const AlertNotice &notice)
{
    return testSend(routeName, notice)();
}

std::function<std::string()> AlertDispatcher::testSend(const std::string &routeName,
                                                       const AlertNotice &notice) const
{
    for (const AlertRoute &route : m_routing.routes) {
        if (route.name == routeName) {
            return
                [sender = m_sender, route, post = alertPost(route, {notice}, m_clock.nowUnixMs()),
                 timeoutMs = m_routing.timeoutMs] {
                    CallWatch watch;  // its own: it may outlive the dispatcher
                    return sender(route, post, timeoutMs, watch);
                };
        }
    }
    return [routeName] { return "no route named " + routeName; };
}

std::vector<RouteStatus> AlertDispatcher::status() const
{
    std::lock_guard lock(m_mutex);
    return m_status;
}

}  // namespace meridian
