// The console binary against receivers and stores that never finish answering: a webhook
// whose reply never ends (it used to grow the console to 3.6 GiB in 40 s), one that
// drips a byte a second behind a 100 MB Content-Length, and a Prometheus URL that drips.
// The console stays small, a good route still gets its alert, and a stop asked as a
// logout asks it (SIGTERM) is not held by them.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <optional>
#include <thread>

#include "agentprocess.h"
#include "childprocess.h"
#include "hostilehttp.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;

namespace {

// A webhook that takes every alert at once.
class GoodReceiver {
public:
    GoodReceiver()
    {
        m_server.Post("/hook", [this](const httplib::Request &, httplib::Response &response) {
            ++m_posts;
            response.set_content("{}", "application/json");
        });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
    }
    ~GoodReceiver()
    {
        m_server.stop();
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/hook"; }
    int posts() const { return m_posts; }

private:
    httplib::Server m_server;
    std::atomic<int> m_posts{0};
    int m_port = 0;
    std::thread m_thread;
};

struct MeasuredRun {
    bool ready = false;        // what the case waited for came within 30 s
    double secondsToExit = 0;  // from the stop asked to the exit
    double peakMiB = 0;
    double settledMiB = 0;  // two seconds in, once the window is up
    int waitStatus = -1;
};

// Runs the console until `ready` holds (and two seconds have passed: the window is up
// and its memory settled), samples its memory `holdSeconds` more, then asks it to stop as
// a logout does (SIGTERM) and measures how long it takes to exit. Killed if not ready
// within 30 s (half the routes' timeout: what waited for a timeout is not ready) or not
// gone 20 s after the ask.
MeasuredRun measureConsole(std::vector<std::string> args, const std::string &log,
                           const std::function<bool()> &ready, double holdSeconds = 0)
{
    using Clock = std::chrono::steady_clock;
    const auto since = [](Clock::time_point from) {
        return std::chrono::duration<double>(Clock::now() - from).count();
    };
    args.insert(args.begin(), MERIDIAN_CONSOLE_BIN);
    const auto started = Clock::now();
    ChildProcess console(args, log);
    MeasuredRun run;
    std::optional<Clock::time_point> readyAt, stopAskedAt;
    while (!console.ended()) {
        const double now = residentMiB(console.pid());
        run.peakMiB = std::max(run.peakMiB, now);
        if (run.settledMiB == 0 && since(started) >= 2)
            run.settledMiB = now;
        if (!readyAt && run.settledMiB > 0 && ready())
            readyAt = Clock::now();
        if (!stopAskedAt && ((readyAt && since(*readyAt) >= holdSeconds) || since(started) > 30)) {
            run.ready = readyAt.has_value();
            ::kill(console.pid(), SIGTERM);  // not ChildProcess::kill: that waits itself
            stopAskedAt = Clock::now();
        }
        if (stopAskedAt && since(*stopAskedAt) > 20) {
            console.kill(SIGKILL);
            break;
        }
        std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(stopAskedAt.has_value()) << "it ended before it was asked to stop\n"
                                         << console.log();
    run.secondsToExit = stopAskedAt ? since(*stopAskedAt) : 0;
    run.waitStatus = console.waitStatus();
    return run;
}

}  // namespace

TEST(HostileReceivers, RepliesThatNeverEndNeitherGrowTheConsoleNorHoldItsExitOrOtherRoutes)
{
    TempDir dir;
    HostileHttpServer endless(HostileReply::Endless);
    HostileHttpServer drip(HostileReply::DripAByteASecond);
    GoodReceiver good;
    // An agent nobody serves: refused at once, so its alert fires at once.
    std::ofstream(dir.file("fleet.yaml"))
        << "data_centers:\n  - name: xiamen\n    agents: [127.0.0.1:" << freePort() << "]\n";
    // A long timeout: only the cap on an answer and the abort at exit can help.
    std::ofstream(dir.file("routes.yaml"))
        << "delivery: {retries: 5, timeout_seconds: 60}\nroutes:\n"
        << "  - {name: endless, kind: json, url: '" << endless.url("/hook") << "'}\n"
        << "  - {name: drip, kind: json, url: '" << drip.url("/hook") << "'}\n"
        << "  - {name: good, kind: json, url: '" << good.url() << "'}\n";
    // Ready once both hostile receivers hold a post of the alert open and the good route
    // has had its own: had it waited behind them, that would take their 60 s timeout.
    // Then two seconds of the endless answer pouring in, the memory sampled (the console
    // that kept it grew past the bound in about one).
    const MeasuredRun run = measureConsole(
        {"--inventory", dir.file("fleet.yaml"), "--db", dir.file("history.db"), "--alert-routes",
         dir.file("routes.yaml")},
        dir.file("console.log"),
        [&] { return endless.requests() > 0 && drip.requests() > 0 && good.posts() > 0; }, 2);
    ASSERT_TRUE(run.ready) << "within 30 s: endless " << endless.requests() << ", drip "
                           << drip.requests() << ", good " << good.posts() << " requests\n"
                           << readFile(dir.file("console.log"));
    // Both hostile answers still open: an exit they held would take their 60 s timeout.
    EXPECT_LT(run.secondsToExit, 5) << "the stop waited for the receivers";
    EXPECT_TRUE(WIFEXITED(run.waitStatus) && WEXITSTATUS(run.waitStatus) == 0)
        << "wait status " << run.waitStatus << "\n"
        << readFile(dir.file("console.log"));
    RecordProperty("seconds_to_exit", std::to_string(run.secondsToExit));
    RecordProperty("rss_growth_mib", static_cast<int>(run.peakMiB - run.settledMiB));
    EXPECT_LT(run.peakMiB, run.settledMiB + 100)
        << "the console grew from " << run.settledMiB << " to " << run.peakMiB << " MiB";
}

TEST(HostileReceivers, AStoreThatDripsItsAnswerDoesNotHoldTheExit)
{
    TempDir dir;
    HostileHttpServer drip(HostileReply::DripAByteASecond);
    const MeasuredRun run =
        measureConsole({"--prometheus", drip.url(), "--db", dir.file("history.db")},
                       dir.file("console.log"), [&] { return drip.requests() > 0; });
    ASSERT_TRUE(run.ready) << "the console never asked the store\n"
                           << readFile(dir.file("console.log"));
    EXPECT_LT(run.secondsToExit, 5) << "the stop waited for the store's answer";
    RecordProperty("seconds_to_exit", std::to_string(run.secondsToExit));
    EXPECT_TRUE(WIFEXITED(run.waitStatus)) << "wait status " << run.waitStatus;
}

TEST(HostileReceivers, AStoreThatRefusesTheTokenIsSaidOnStderrAndInTheDiagnostics)
{
    TempDir dir;
    httplib::Server store;
    store.Get(".*", [](const httplib::Request &, httplib::Response &response) {
        response.status = 401;
        response.set_content("unauthorized", "text/plain");
    });
    const int port = store.bind_to_any_port("127.0.0.1");
    std::thread serving([&] { store.listen_after_bind(); });
    const std::string url = "http://127.0.0.1:" + std::to_string(port);
    const std::string refusal = url + ": refused (401)";
    const MeasuredRun run = measureConsole(
        {"--prometheus", url, "--db", dir.file("history.db"), "--diagnostics-json",
         dir.file("diagnostics.json")},
        dir.file("console.log"),
        [&] { return readFile(dir.file("console.log")).find(refusal) != std::string::npos; });
    EXPECT_TRUE(run.ready) << "not said within 30 s";
    store.stop();
    serving.join();
    const std::string said = readFile(dir.file("console.log"));
    EXPECT_NE(said.find(refusal), std::string::npos) << "stderr said:\n" << said;
    const std::string diagnostics = readFile(dir.file("diagnostics.json"));
    EXPECT_NE(diagnostics.find("\"problems\""), std::string::npos) << diagnostics;
    EXPECT_NE(diagnostics.find(refusal), std::string::npos) << diagnostics;
}
