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
    return [](const AlertRoute &route, const HttpPost &post, int timeoutMs) -> std::string {
        const size_t scheme = post.url.find("://");
        const size_t pathStart =
            scheme == std::string::npos ? std::string::npos : post.url.find('/', scheme + 3);
        const std::string origin = post.url.substr(0, pathStart);
        const std::string path = pathStart == std::string::npos ? "/" : post.url.substr(pathStart);
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
        const httplib::Result result = client.Post(path, post.body, post.contentType);
        if (!result)
            return fmt::format("{} ({}): {}", route.name, origin,
                               httplib::to_string(result.error()));
        if (result->status < 200 || result->status >= 300) {
            std::string body = result->body.substr(0, 200);
            return fmt::format("{} ({}): HTTP {} {}", route.name, origin, result->status, body);
        }
        return {};
    };
}

AlertDispatcher::AlertDispatcher(AlertRouting routing, const Clock &clock, Sender sender)
    : m_routing(std::move(routing)), m_clock(clock), m_sender(std::move(sender)), m_rounds(clock)
{
    for (const AlertRoute &route : m_routing.routes)
        m_status.push_back({route.name});
}

AlertDispatcher::~AlertDispatcher()
{
    stop();
}

void AlertDispatcher::start()
{
    if (!m_routing.routes.empty())
        m_rounds.start(kPollInterval, [this] { deliverDue(); });
}

void AlertDispatcher::stop()
{
    m_rounds.stop();
}

void AlertDispatcher::submit(const std::vector<AlertNotice> &notices, std::optional<RouteKind> only)
{
    const int64_t now = m_clock.nowUnixMs();
    {
        std::lock_guard lock(m_mutex);
        for (size_t r = 0; r < m_routing.routes.size(); ++r) {
            const AlertRoute &route = m_routing.routes[r];
            if (only && route.kind != *only)
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
    m_rounds.wake();
}

int AlertDispatcher::deliverDue()
{
    std::vector<Delivery> due;
    const int64_t now = m_clock.nowUnixMs();
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_queue.begin(); it != m_queue.end();) {
            if (it->dueMs <= now) {
                due.push_back(std::move(*it));
                it = m_queue.erase(it);
            } else {
                ++it;
            }
        }
    }
    // Sent outside the lock: a receiver that takes its time blocks nobody else.
    for (Delivery &d : due) {
        const AlertRoute &route = m_routing.routes[d.route];
        const std::string error = m_sender(route, d.post, m_routing.timeoutMs);
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
                 timeoutMs = m_routing.timeoutMs] { return sender(route, post, timeoutMs); };
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
