// A real HTTP receiver on loopback that keeps every alert posted to it, and the waits
// alert tests share (Qt signals let through meanwhile). Header-only, for console tests.
#pragma once

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <mutex>
#include <thread>
#include <vector>

#include "childprocess.h"
#include "models/alerts/alertnotifier.h"
#include "testsupport.h"

namespace meridian::test {

using nlohmann::json;

class Receiver {
public:
    Receiver()
    {
        m_server.Post("/hook", [this](const httplib::Request &request, httplib::Response &) {
            const json body = json::parse(request.body);
            std::lock_guard lock(m_mutex);
            for (const json &a : body["alerts"])
                m_alerts.push_back(a);
        });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        test::waitUntil([this] { return m_server.is_running(); });
    }
    ~Receiver()
    {
        m_server.stop();
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/hook"; }
    std::vector<json> alerts() const
    {
        std::lock_guard lock(m_mutex);
        return m_alerts;
    }

private:
    httplib::Server m_server;
    mutable std::mutex m_mutex;
    std::vector<json> m_alerts;
    int m_port = 0;
    std::thread m_thread;
};

inline Event linkEvent(EventKind kind, int64_t atMs)
{
    Event e;
    e.kind = kind;
    e.netdev = "eth3";
    e.timeUnixMs = atMs;
    e.message = "eth3 carrier lost";
    return e;
}

// Waits, letting queued Qt signals through, until no route has anything left to send.
inline bool everyRouteDone(AlertNotifier &notifier)
{
    return test::waitUntil([&] {
        QCoreApplication::processEvents();
        for (const RouteStatus &r : notifier.dispatcher().status()) {
            if (r.waiting > 0)
                return false;
        }
        return true;
    });
}

// Waits for the receiver while letting queued Qt signals through.
inline bool receiverHolds(const Receiver &receiver, size_t count)
{
    return test::waitUntil([&] {
        QCoreApplication::processEvents();
        return receiver.alerts().size() >= count;
    });
}

}  // namespace meridian::test
