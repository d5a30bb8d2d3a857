// Delivers alert notices to every route that wants them, on a thread per route so a slow
// or dead receiver never holds up the window or another route. Each delivery has the
// routing's timeout as a whole, and a receiver's answer is read up to 64 KiB. A failed delivery is
// tried again after 2, 4, 8 … s (on the injected clock) up to the routing's retries; then it is
// dropped and the route's status says so. Thread-safe.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "alertpayloads.h"
#include "core/callwatch.h"
#include "core/clock.h"
#include "core/periodicthread.h"

namespace meridian {

struct RouteStatus {
    std::string name;
    uint64_t delivered = 0;
    uint64_t failedAttempts = 0;
    uint64_t droppedAfterRetries = 0;
    size_t waiting = 0;     // deliveries queued or waiting for a retry
    std::string lastError;  // of the latest failed attempt; cleared by a success
    int64_t lastSuccessMs = 0;
};

class AlertDispatcher {
public:
    // Sends one request within timeoutMs, watched by `watch`; the error in words, or
    // empty on success (2xx).
    using Sender = std::function<std::string(const AlertRoute &, const HttpPost &, int timeoutMs,
                                             CallWatch &watch)>;
    static Sender httpSender();

    AlertDispatcher(AlertRouting routing, const Clock &clock, Sender sender = httpSender());
    ~AlertDispatcher();
    AlertDispatcher(const AlertDispatcher &) = delete;
    AlertDispatcher &operator=(const AlertDispatcher &) = delete;

    // Delivers in the background until stop(); without start(), deliverDue() does it.
    void start();
    // Ends deliveries under way at once; nothing is sent after it.
    void stop();

    // Queues the notices each route wants (one request per route and batch); `only`
    // limits it to routes of one kind (Alertmanager's periodic re-sends). `answered`, when
    // given, runs once every route's first attempt at the batch has its answer (or its
    // error), on the thread of the route that answered last, before that route's status
    // counts it; at once when no route wants the notices; not for an attempt ended by
    // stop(). What was sent is recorded there, so a process killed before then sends it
    // again when it starts rather than never.
    void submit(const std::vector<AlertNotice> &notices,
                std::optional<RouteKind> only = std::nullopt, std::function<void()> answered = {});
    // Queues the notices for one escalation route (an index into the routing's routes),
    // which submit() leaves out.
    void escalate(size_t route, const std::vector<AlertNotice> &notices);
    // Makes every delivery that is due now; returns how many were attempted.
    int deliverDue();
    // Sends a test notice to one route now, bypassing the queue; the error, or empty.
    std::string sendTest(const std::string &routeName, const AlertNotice &notice);
    // The same, made ready to send on any thread. It holds copies of what it needs, so it
    // may run after the dispatcher is gone (a window closed during a slow test send).
    std::function<std::string()> testSend(const std::string &routeName,
                                          const AlertNotice &notice) const;

    std::vector<RouteStatus> status() const;
    const AlertRouting &routing() const { return m_routing; }

private:
    // A submitted batch whose routes' first attempts have not all been answered.
    struct Batch {
        std::atomic<int> unanswered{0};
        std::function<void()> answered;
    };
    struct Delivery {
        size_t route = 0;
        HttpPost post;
        int attempt = 0;
        int64_t dueMs = 0;
        std::shared_ptr<Batch> batch;  // until its first attempt is answered
    };
    int deliverDue(size_t route);
    // Counts one attempt's outcome in its route's status; queues a retry when one is due.
    void settle(Delivery delivery, const std::string &error, int64_t nowMs);

    const AlertRouting m_routing;
    const Clock &m_clock;
    Sender m_sender;
    mutable std::mutex m_mutex;  // guards the queue and the status
    std::deque<Delivery> m_queue;
    std::vector<RouteStatus> m_status;  // by route
    CallWatch m_calls;
    std::atomic<bool> m_stopped{false};
    std::vector<std::unique_ptr<PeriodicThread>> m_rounds;  // by route
};

}  // namespace meridian
