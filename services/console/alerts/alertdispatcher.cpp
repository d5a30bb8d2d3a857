#include "alertdispatcher.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>

namespace meridian {

namespace {

constexpr int64_t kFirstRetryMs = 2000;
constexpr int64_t kLongestRetryMs = 5 * 60'000;
// How often the delivery thread looks for retries that fell due (on the injected clock);
// a new notice wakes it at once.
constexpr auto kPollInterval = std::chrono::milliseconds(200);
// A receiver's answer is an acknowledgement; past this it is not one.
constexpr size_t kMaxAnswerBytes = 64 * 1024;

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
        const size_t scheme = post.url.find("://");
        const size_t pathStart =
            scheme == std::string::npos ? std::string::npos : post.url.find('/', scheme + 3);
        const std::string origin = post.url.substr(0, pathStart);
        httplib::Client client(origin);
        if (!client.is_valid())
            return fmt::format("{}: cannot use {}", route.name, origin);
        client.set_connection_timeout(timeoutMs / 1000, (timeoutMs % 1000) * 1000);
        client.set_read_timeout(timeoutMs / 1000, (timeoutMs % 1000) * 1000);
        client.set_write_timeout(timeoutMs / 1000, (timeoutMs % 1000) * 1000);
        if (!route.bearerToken.empty())
            client.set_bearer_token_auth(route.bearerToken.c_str());
        if (!route.caFile.empty())
            client.set_ca_cert_path(route.caFile.c_str());
        httplib::Request request;
        request.method = "POST";
        request.path = pathStart == std::string::npos ? "/" : post.url.substr(pathStart);
        request.body = post.body;
        request.set_header("Content-Type", post.contentType);
        // Only the start of a receiver's answer is ever shown; the rest is not held.
        std::string answer;
        bool tooLong = false;
        request.content_receiver = [&](const char *data, size_t size, uint64_t, uint64_t) {
            tooLong = answer.size() + size > kMaxAnswerBytes;
            answer.append(data, tooLong ? 0 : size);
            return !tooLong;
        };
        // The whole delivery has timeoutMs: httplib's own timeouts restart with each byte.
        const CallWatch::Watched watched = watch.watch(timeoutMs, [&client] { client.stop(); });
        const httplib::Result result = client.send(request);
        if (watched.aborted())
            return fmt::format("{} ({}): no complete answer within {} s", route.name, origin,
                               timeoutMs / 1000.0);
        if (tooLong)
            return fmt::format("{} ({}): the answer passed {} KiB and was cut off", route.name,
                               origin, kMaxAnswerBytes >> 10);
        if (!result)
            return fmt::format("{} ({}): {}", route.name, origin,
                               httplib::to_string(result.error()));
        if (result->status < 200 || result->status >= 300)
            return fmt::format("{} ({}): HTTP {} {}", route.name, origin, result->status,
                               answer.substr(0, 200));
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
    m_calls.abortAll();  // deliveries under way end now, not at their timeout
    for (auto &rounds : m_rounds)
        rounds->stop();
}

void AlertDispatcher::submit(const std::vector<AlertNotice> &notices, std::optional<RouteKind> only)
{
    const int64_t now = m_clock.nowUnixMs();
    {
        std::lock_guard lock(m_mutex);
        for (size_t r = 0; r < m_routing.routes.size(); ++r) {
            const AlertRoute &route = m_routing.routes[r];
            if ((only && route.kind != *only) || route.escalates())
                continue;
            std::vector<AlertNotice> wanted;
            for (const AlertNotice &n : notices) {
                if (route.wants(n.severity, n.kind, n.dataCenter))
                    wanted.push_back(n);
            }
            if (wanted.empty())
                continue;
            m_queue.push_back({r, alertPost(route, wanted, now), 0, now});
            ++m_status[r].waiting;
        }
    }
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
        m_queue.push_back({route, alertPost(m_routing.routes[route], notices, now), 0, now});
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
        std::lock_guard lock(m_mutex);
        RouteStatus &status = m_status[d.route];
        if (error.empty()) {
            ++status.delivered;
            --status.waiting;
            status.lastError.clear();
            status.lastSuccessMs = now;
            continue;
        }
        status.lastError = error;
        ++status.failedAttempts;
        if (d.attempt >= m_routing.retries) {
            ++status.droppedAfterRetries;
            --status.waiting;
            continue;
        }
        ++d.attempt;
        d.dueMs = now + retryDelayMs(d.attempt);
        m_queue.push_back(std::move(d));
    }
    return static_cast<int>(due.size());
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
