// A simulated fleet in its own process (meridian-sim, its agents on loopback) and
// `meridian-watch` over it: what the watcher's tests and the consoles that follow a
// watcher start.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agentprocess.h"
#include "childprocess.h"
#include "testsupport.h"

namespace meridian::test {

// A webhook that keeps every alert it is sent, by key and status, with when.
class CountingWebhook {
public:
    CountingWebhook()
    {
        m_server.Post("/hook", [this](const httplib::Request &request, httplib::Response &answer) {
            const nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
            std::lock_guard lock(m_mutex);
            ++m_posts;
            // Meridian's JSON route: {"alerts": [...]}; Alertmanager's webhook: the same
            // key, each alert with its labels.
            if (body.is_object() && body.contains("alerts")) {
                for (const nlohmann::json &a : body["alerts"]) {
                    const std::string key = a.contains("labels")
                                                ? a["labels"].value("alertname", "") + "/" +
                                                      a["labels"].value("dc", "") + "/" +
                                                      a["labels"].value("node", "") + "/" +
                                                      a["labels"].dump()
                                                : a.value("key", "");
                    m_seen.push_back(
                        {key,
                         a.value("kind",
                                 a.contains("labels") ? a["labels"].value("alertname", "") : ""),
                         a.value("status", ""), std::chrono::steady_clock::now()});
                }
            }
            answer.set_content("{}", "application/json");
        });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        test::waitUntil([this] { return m_server.is_running(); });
    }
    ~CountingWebhook()
    {
        m_server.stop();
        m_thread.join();
    }
    std::string url() const { return fmt::format("http://127.0.0.1:{}/hook", m_port); }
    // A routing file in `dir` that names this webhook alone, with `more` YAML after it.
    std::string routesFile(const TempDir &dir, const std::string &more = {}) const
    {
        const std::string path = dir.file("routes.yaml");
        std::ofstream(path) << "routes:\n  - {name: hook, kind: json, url: '" << url() << "'}\n"
                            << more;
        return path;
    }
    struct Seen {
        std::string key;
        std::string kind;
        std::string status;
        std::chrono::steady_clock::time_point at;
    };
    std::vector<Seen> seen() const
    {
        std::lock_guard lock(m_mutex);
        return m_seen;
    }
    int posts() const
    {
        std::lock_guard lock(m_mutex);
        return m_posts;
    }
    // How many times `status` was sent for keys of `kind` (and the first time).
    int count(const std::string &kind, const std::string &status,
              std::chrono::steady_clock::time_point *first = nullptr) const
    {
        int n = 0;
        for (const Seen &s : seen()) {
            if (s.kind == kind && s.status == status) {
                if (first && n == 0)
                    *first = s.at;
                ++n;
            }
        }
        return n;
    }

private:
    httplib::Server m_server;
    int m_port = 0;
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<Seen> m_seen;
    int m_posts = 0;
};

// A simulated fleet of `nodes` agents, in its own process.
class Fleet {
public:
    explicit Fleet(test::TempDir &dir, int nodes)
        : m_dir(dir)
        , m_sim({MERIDIAN_SIM_BIN, "--nodes", std::to_string(nodes), "--inventory-out",
                 dir.file("inventory.yaml")},
                dir.file("sim.log"))
    {
        m_control = test::simControlOnceWritten(dir.file("inventory.yaml"));
        EXPECT_NE(m_control, "") << m_sim.log();
    }
    std::string inventory() const { return m_dir.file("inventory.yaml"); }
    // `meridian-sim fault`, as an operator types it.
    void fault(std::vector<std::string> args)
    {
        args.insert(args.begin(), {MERIDIAN_SIM_BIN, "fault", "--control", m_control});
        test::ChildProcess command(args, m_dir.file("fault.log"));
        ASSERT_TRUE(test::waitUntil([&] { return command.ended(); }));
        ASSERT_EQ(command.waitStatus(), 0) << command.log();
    }

private:
    test::TempDir &m_dir;
    test::ChildProcess m_sim;
    std::string m_control;
};

// What a test that asserts "nothing more was sent" waits for, instead of a guess at how
// long that takes: the watcher on `port` has run its rules over the fleet `more` times after
// this call, and then once at or after `notBefore` (this machine's clock), and none of its
// routes holds an alert waiting for a retry.
inline bool watchSettles(int port, int more, std::chrono::system_clock::time_point notBefore = {},
                         std::chrono::seconds within = std::chrono::seconds(90))
{
    const auto status = [port] {
        return nlohmann::json::parse(test::httpGet(port, "/status"), nullptr, false);
    };
    const nlohmann::json before = status();
    const int64_t from = before.is_object() ? before.value("evaluations", int64_t{0}) : 0;
    const int64_t notBeforeMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(notBefore.time_since_epoch()).count();
    return test::waitUntil(
        [&] {
            const nlohmann::json s = status();
            if (!s.is_object() || s.value("evaluations", int64_t{0}) < from + more ||
                s.value("last_evaluation_ms", int64_t{0}) < notBeforeMs)
                return false;
            for (const nlohmann::json &route : s.value("routes", nlohmann::json::array())) {
                if (route.value("waiting", 0) > 0)
                    return false;
            }
            return true;
        },
        within);
}

// `meridian-watch` on the fleet, its /status on a free port, its rules run four times a
// second: a case that waits for passes (settles) waits a quarter as long, and what is
// bound to time (pending durations, staleness, the hold after a stall) stays in seconds.
// Its agents send each second, as a console's do, so staleness is judged as the cases
// expect; the systemd case runs the watcher at its own default (every 5 s).
class Watcher {
public:
    Watcher(test::TempDir &dir, const std::string &inventory, const std::string &routes,
            const std::string &db, const std::string &name, std::vector<std::string> more = {})
        : m_process(arguments(inventory, routes, db, name, port, std::move(more)),
                    dir.file(name + ".log"))
    {}
    nlohmann::json status() const
    {
        return nlohmann::json::parse(test::httpGet(port, "/status"), nullptr, false);
    }
    // Once every agent is connected and the rules have run.
    bool watching(int agents) const
    {
        const nlohmann::json s = status();
        return s.is_object() && s.value("connected", 0) == agents;
    }
    bool settles(int more, std::chrono::system_clock::time_point notBefore = {}) const
    {
        return watchSettles(port, more, notBefore);
    }
    void kill(int signal) { m_process.kill(signal); }
    pid_t pid() const { return m_process.pid(); }
    std::string log() const { return m_process.log(); }
    const int port = test::freePort();

private:
    static std::vector<std::string> arguments(const std::string &inventory,
                                              const std::string &routes, const std::string &db,
                                              const std::string &name, int port,
                                              std::vector<std::string> more)
    {
        std::vector<std::string> args = {MERIDIAN_WATCH_BIN,
                                         "--inventory",
                                         inventory,
                                         "--alert-routes",
                                         routes,
                                         "--db",
                                         db,
                                         "--name",
                                         name,
                                         "--listen",
                                         fmt::format("127.0.0.1:{}", port),
                                         "--evaluate-every",
                                         "0.25",
                                         "--telemetry-every",
                                         "1"};
        args.insert(args.end(), more.begin(), more.end());
        return args;
    }
    test::ChildProcess m_process;
};

}  // namespace meridian::test
