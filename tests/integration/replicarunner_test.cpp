// Replicas as real processes: the runner starts meridian-sim's stand-in server (an
// OpenAI-compatible server with vLLM's /metrics) pinned to its cards, waits for its
// health, reads its metrics under load from a real HTTP load generator, drains it on
// stop, restarts it when it crashes and fails it past the limit, kills what ignores
// SIGTERM after the grace, and a new runner on the same records adopts a replica
// instead of starting a second. Where systemd runs, the same under a real systemd (a
// user manager of the test's own): each replica a transient unit. Time the runner
// judges by (startup timeout, drain grace) is a virtual clock; the processes themselves,
// and systemd's own grace, run in real time.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "childprocess.h"
#include "core/toolrunner.h"
#include "replicas/replicarunner.h"
#include "systemdusermanager.h"
#include "testsupport.h"

using namespace meridian;
using namespace std::chrono_literals;

namespace {

std::vector<CardInfo> hybridCards()
{
    std::vector<CardInfo> cards;
    for (uint32_t i = 0; i < 8; ++i)
        cards.push_back({i, i < 4 ? Vendor::Nvidia : Vendor::Huawei, i < 4 ? "A100" : "910B"});
    return cards;
}

ServingCommand standIn(int port, std::vector<std::string> extra = {})
{
    ServingCommand c;
    c.command = {MERIDIAN_SIM_BIN, "serve-replica",        "--port", "{port}", "--model",
                 "{model}",        "--cold-start-seconds", "0.3"};
    c.command.insert(c.command.end(), extra.begin(), extra.end());
    c.port = port;
    c.drainGraceSeconds = 30;
    c.restartLimit = 1;
    c.startupTimeoutSeconds = 60;
    return c;
}

Workload workload(const std::string &id, const std::string &service, std::vector<uint32_t> cards)
{
    Workload w;
    w.replicaId = id;
    w.service = service;
    w.model = "qwen";
    w.cardIndices = std::move(cards);
    return w;
}

// A free base port for this test's replicas (the runner takes the next ones).
int basePort()
{
    return 21000 + static_cast<int>(::getpid() % 2000) * 8;
}

struct Fixture {
    test::TempDir dir;
    ManualClock clock;
    MemoryNodeRecords records;
    std::vector<Event> events;

    std::unique_ptr<ReplicaRunner> runner(std::map<std::string, ServingCommand> services)
    {
        return runner(ReplicaRunnerOptions{std::move(services), dir.file("replicas")});
    }
    std::unique_ptr<ReplicaRunner> runner(ReplicaRunnerOptions options)
    {
        auto r = std::make_unique<ReplicaRunner>(std::move(options), hybridCards(), records, clock);
        r->setEventSink([this](const Event &e) { events.push_back(e); });
        return r;
    }
    bool sawEvent(const std::string &text) const
    {
        return std::any_of(events.begin(), events.end(), [&](const Event &e) {
            return e.message.find(text) != std::string::npos;
        });
    }
    // A replica that takes SIGTERM and goes on (the trap writes "term" to `marker`), having
    // written "ready" there once its trap is set.
    std::vector<std::string> stubbornReplica(const std::string &marker) const
    {
        return {"sh", "-c",
                "trap 'echo term >> " + marker + "' TERM; echo ready >> " + marker +
                    "; while true; do sleep 1; done"};
    }
    bool markerSays(const std::string &marker, const std::string &word) const
    {
        return test::waitUntil(
            [&] { return test::readFile(marker).find(word) != std::string::npos; });
    }
    bool tickUntil(ReplicaRunner &runner, const std::function<bool()> &done)
    {
        return test::waitUntil([&] {
            runner.tick();
            return done();
        });
    }
};

}  // namespace

TEST(ReplicaRunner, StartsPinnedServesMetricsUnderLoadAndDrainsOnStop)
{
    Fixture f;
    const int port = basePort();
    auto runner = f.runner({{"chat", standIn(port)}, {"npu-chat", standIn(port)}});
    ASSERT_TRUE(runner->startReplica(workload("r1", "chat", {2, 3})).ok());
    ASSERT_TRUE(runner->startReplica(workload("r2", "npu-chat", {4, 5, 6, 7})).ok());
    EXPECT_FALSE(runner->replicaServing("r1")) << "not before its health answers";
    ASSERT_TRUE(f.tickUntil(*runner, [&] {
        return runner->replicaServing("r1") && runner->replicaServing("r2");
    })) << test::readFile(f.dir.file("replicas/r1.log"));
    // Each on a port of its own from the base on, pinned to its cards by its vendor's
    // variable. Not exactly the base: another test running beside this one may hold it
    // by now, and the runner passes over a port in use.
    const int p1 = runner->portOf("r1"), p2 = runner->portOf("r2");
    EXPECT_GE(p1, port);
    EXPECT_GT(p2, p1);
    EXPECT_NE(test::httpGet(p1, "/health").find("\"visible_devices\":\"2,3\""), std::string::npos);
    EXPECT_NE(test::readFile(f.dir.file("replicas/r2.log")).find("serving qwen"),
              std::string::npos);

    // Real HTTP load, more than one replica batches: requests queue, and the runner
    // reads waiting, running, the TTFT p95 and the queueing delay's from the replica's
    // own /metrics.
    test::ChildProcess load(
        {MERIDIAN_SIM_BIN, "drive", "--url", "http://127.0.0.1:" + std::to_string(p1), "--rps",
         "60", "--seconds", "2", "--prompt-tokens", "400", "--max-tokens", "60"},
        f.dir.file("drive.log"));
    std::optional<ReplicaSignals> busy;
    ASSERT_TRUE(f.tickUntil(*runner, [&] {
        f.clock.advanceMs(1000);
        for (const ReplicaSignals &s : runner->signals()) {
            if (s.replicaId == "r1" && s.waitingRequests.value_or(0) > 0 && s.ttftP95Seconds &&
                s.queueDelayP95Seconds)
                busy = s;
        }
        return busy.has_value();
    }));
    EXPECT_EQ(busy->service, "chat");
    EXPECT_GT(*busy->queueDelayP95Seconds, 0) << "requests waited for a batch";
    EXPECT_LE(*busy->queueDelayP95Seconds, *busy->ttftP95Seconds + 0.3)
        << "a wait is part of the time to the first token";
    EXPECT_GT(busy->runningRequests.value_or(0), 0u);
    EXPECT_LE(busy->runningRequests.value_or(99), 32u) << "at most its batch";
    EXPECT_GT(*busy->ttftP95Seconds, 0);

    // Stopped while requests are in flight: it drains, answering them, then exits.
    ASSERT_TRUE(runner->stopReplica("r1").ok());
    EXPECT_TRUE(runner->replicaDraining("r1"));
    ASSERT_TRUE(test::waitUntil([&] {
        runner->tick();
        return !runner->replicaDraining("r1");
    })) << test::readFile(f.dir.file("replicas/r1.log"));
    EXPECT_EQ(runner->portOf("r1"), 0);
    EXPECT_TRUE(test::readFile(f.dir.file("replicas/r1.log")).find("drained after") !=
                std::string::npos);
    ASSERT_TRUE(runner->stopReplica("r2").ok());
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return !runner->replicaDraining("r2"); }));
}

TEST(ReplicaRunner, ACrashIsRestartedThenFailedPastTheLimit)
{
    Fixture f;
    auto runner = f.runner({{"chat", standIn(basePort() + 4, {"--crash-after-requests", "1"})}});
    ASSERT_TRUE(runner->startReplica(workload("r1", "chat", {0})).ok());
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return runner->replicaServing("r1"); }));
    const int port = runner->portOf("r1");
    const auto crash = [&] {
        for (int i = 0; i < 2; ++i)
            test::httpPost(port, "/v1/completions", R"({"prompt":"hi","max_tokens":1})");
    };
    crash();
    ASSERT_TRUE(f.tickUntil(*runner, [&] {
        return !f.events.empty() &&
               f.events.back().message.find("restarted (1 of 1)") != std::string::npos;
    }));
    EXPECT_EQ(f.events.back().severity, Severity::Warning);
    EXPECT_NE(f.events.back().message.find("exited with status 3"), std::string::npos)
        << f.events.back().message;
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return runner->replicaServing("r1"); }));
    crash();
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return runner->replicaFailure("r1").has_value(); }));
    EXPECT_EQ(*runner->replicaFailure("r1"), "exited with status 3 after 1 restarts");
    EXPECT_EQ(f.events.back().severity, Severity::Critical);
}

TEST(ReplicaRunner, AnAgentRestartAdoptsTheReplicaInsteadOfStartingASecond)
{
    Fixture f;
    const std::map<std::string, ServingCommand> services = {{"chat", standIn(basePort() + 6)}};
    WorkloadRequest start{"scale-up-7-step-1", true, workload("r1", "chat", {0, 1}), "ops", "peak"};
    bool answered = false;
    {
        auto first = f.runner(services);
        WorkloadManager manager(first.get(), f.clock, 8, &f.records);
        ASSERT_TRUE(manager.apply(start).ok());
        ASSERT_TRUE(f.tickUntil(*first, [&] { return first->replicaServing("r1"); }));
        answered = !test::httpGet(first->portOf("r1"), "/health").empty();
    }  // the agent goes; its replica does not
    ASSERT_TRUE(answered) << "the replica answered before the agent went";
    auto second = f.runner(services);
    WorkloadManager manager(second.get(), f.clock, 8, &f.records);
    second->tick();
    EXPECT_TRUE(second->replicaServing("r1")) << "adopted, still serving";
    const auto again = manager.apply(start);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_TRUE(again->replayed) << "the same key is answered from the record";
    const auto listed = manager.list();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].state, WorkloadState::Serving);
    EXPECT_EQ(std::count_if(f.events.begin(), f.events.end(),
                            [](const Event &e) {
                                return e.message.find("started on port") != std::string::npos;
                            }),
              1)
        << "started once, by the first agent";
    // The adopted replica stops like any other.
    ASSERT_TRUE(manager.apply({"scale-down-8", false, workload("r1", "chat", {}), "ops", ""}).ok());
    ASSERT_TRUE(f.tickUntil(*second, [&] { return !second->replicaDraining("r1"); }));
    EXPECT_TRUE(manager.list().front().state == WorkloadState::Stopped);
}

TEST(ReplicaRunner, NeverHealthyIsFailedAndWhatIgnoresSigtermIsKilledAfterTheGrace)
{
    Fixture f;
    ServingCommand silent;
    const std::string marker = f.dir.file("stuck.marker");
    silent.command = f.stubbornReplica(marker);
    silent.port = basePort() + 7;
    silent.startupTimeoutSeconds = 120;
    silent.drainGraceSeconds = 10;
    silent.restartLimit = 0;
    auto runner = f.runner({{"stuck", silent}, {"missing", ServingCommand{{"/nonexistent/vllm"}}}});
    // A program that is not there is an error at once, with its name and why.
    const Status missing = runner->startReplica(workload("m", "missing", {0}));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.message(), "cannot start /nonexistent/vllm: No such file or directory");
    const Status unknown = runner->startReplica(workload("u", "nobody", {0}));
    EXPECT_NE(unknown.message().find("no serving: section"), std::string::npos);

    ASSERT_TRUE(runner->startReplica(workload("s1", "stuck", {1})).ok());
    ASSERT_TRUE(f.markerSays(marker, "ready"));  // its trap is set
    runner->tick();
    ASSERT_TRUE(runner->stopReplica("s1").ok());
    runner->tick();
    ASSERT_TRUE(f.markerSays(marker, "term"));  // SIGTERM came, and it went on
    runner->tick();
    EXPECT_TRUE(runner->replicaDraining("s1")) << "SIGTERM ignored, inside the grace";
    f.clock.advanceMs(11'000);
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return !runner->replicaDraining("s1"); }));

    ASSERT_TRUE(runner->startReplica(workload("s2", "stuck", {2})).ok());
    runner->tick();
    f.clock.advanceMs(121'000);
    runner->tick();
    ASSERT_TRUE(runner->replicaFailure("s2").has_value());
    EXPECT_EQ(*runner->replicaFailure("s2"), "did not answer /health within 120 s of starting");
}

namespace {

// What the test's own systemd says of a unit's property.
std::string unitProperty(const test::SystemdUserManager &systemd, const std::string &unit,
                         const std::string &property)
{
    auto shown =
        runTool({{systemd.systemctl(), "show", "--property=" + property, "--value", unit}, 5'000});
    if (!shown)
        return "(" + shown.error().message + ")";
    std::string value = *shown;
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
        value.pop_back();
    return value;
}

// A process that runs, not one that has ended and waits to be reaped.
bool processRuns(int pid)
{
    const std::string stat = test::readFile("/proc/" + std::to_string(pid) + "/stat");
    const size_t close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

std::vector<int> pidsIn(const std::string &file)
{
    std::vector<int> pids;
    std::istringstream lines(test::readFile(file));
    for (int pid; lines >> pid;)
        pids.push_back(pid);
    return pids;
}

}  // namespace

TEST(ReplicaRunner, UnderRealSystemdAReplicaIsAUnitAndItsStopEndsAllItForked)
{
    // The real systemd, a user manager of the test's own. The server forks a helper into
    // a session of its own, as engines' worker processes may: a signal to the server's
    // process group misses it, its unit's control group does not.
    Fixture f;
    test::SystemdUserManager systemd(f.dir.file("systemd"));
    ASSERT_EQ(systemd.problem(), "");
    const std::string helpers = f.dir.file("helpers");
    ServingCommand server = standIn(basePort() + 2);
    server.command = {"sh", "-c",
                      "setsid sleep 600 & echo $! >> " + helpers +
                          "; exec " MERIDIAN_SIM_BIN
                          " serve-replica --port {port} --model {model} --cold-start-seconds 0.3"};
    ReplicaRunnerOptions options{{{"chat", server}}, f.dir.file("replicas")};
    options.launcher = ReplicaRunnerOptions::Launcher::Systemd;
    options.systemdRun = systemd.systemdRun();
    options.systemctl = systemd.systemctl();
    auto runner = f.runner(options);
    const Status started = runner->startReplica(workload("chat/r1", "chat", {2, 3}));
    ASSERT_TRUE(started.ok()) << started.message();
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return runner->replicaServing("chat/r1"); }))
        << test::readFile(f.dir.file("replicas/chat_r1.log"));

    // A unit of its own, as the runner asked for it, holding the server and its helper.
    const std::string unit = "meridian-replica-chat_r1-0";
    EXPECT_EQ(unitProperty(systemd, unit, "ActiveState"), "active");
    EXPECT_EQ(unitProperty(systemd, unit, "KillMode"), "mixed");
    EXPECT_EQ(unitProperty(systemd, unit, "TimeoutStopUSec"), "30s");
    const int server0 = std::atoi(unitProperty(systemd, unit, "MainPID").c_str());
    ASSERT_GT(server0, 0);
    ASSERT_EQ(pidsIn(helpers).size(), 1u);
    const int helper0 = pidsIn(helpers).front();
    for (const int pid : {server0, helper0}) {
        EXPECT_NE(
            test::readFile("/proc/" + std::to_string(pid) + "/cgroup").find(unit + ".service"),
            std::string::npos)
            << pid;
    }
    EXPECT_NE(
        test::httpGet(runner->portOf("chat/r1"), "/health").find("\"visible_devices\":\"2,3\""),
        std::string::npos);
    EXPECT_NE(test::readFile(f.dir.file("replicas/chat_r1.log")).find("serving qwen"),
              std::string::npos);

    // The agent restarts: the next runner adopts the unit and starts no second one.
    runner.reset();
    runner = f.runner(options);
    runner->tick();
    EXPECT_TRUE(runner->replicaServing("chat/r1"));
    const auto units = runTool(
        {{systemd.systemctl(), "list-units", "--no-legend", "--plain", "meridian-replica-*"},
         5'000});
    ASSERT_TRUE(units.ok()) << units.error().message;
    EXPECT_EQ(std::count(units->begin(), units->end(), '\n'), 1) << *units;

    // A crash: systemd ends what the unit had left, and the runner starts the replica
    // again as a unit of a new name.
    ::kill(server0, SIGKILL);
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return f.sawEvent("restarted (1 of 1)"); }));
    EXPECT_TRUE(f.sawEvent("ended; journalctl -u " + unit + " says how")) << "where to look";
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return runner->replicaServing("chat/r1"); }));
    EXPECT_EQ(unitProperty(systemd, "meridian-replica-chat_r1-1", "ActiveState"), "active");
    EXPECT_TRUE(test::waitUntil([&] { return !processRuns(helper0); }))
        << "the crashed unit's helper is still running";

    // Stopped: the server drains and exits, and its helper goes with its unit.
    ASSERT_EQ(pidsIn(helpers).size(), 2u);
    const int helper1 = pidsIn(helpers).back();
    ASSERT_TRUE(processRuns(helper1));
    ASSERT_TRUE(runner->stopReplica("chat/r1").ok());
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return !runner->replicaDraining("chat/r1"); }));
    EXPECT_EQ(runner->portOf("chat/r1"), 0);
    EXPECT_TRUE(test::waitUntil([&] { return !processRuns(helper1); }))
        << "the stopped unit's helper is still running";
    EXPECT_NE(test::readFile(f.dir.file("replicas/chat_r1.log")).find("drained after"),
              std::string::npos);
}

TEST(ReplicaRunner, UnderRealSystemdTheGraceHoldsThoughTheAgentGoesMidDrain)
{
    // The stop is systemd's job, not the agent's alone: a replica that ignores SIGTERM
    // is killed at the end of its grace even when the agent that stopped it has gone.
    Fixture f;
    test::SystemdUserManager systemd(f.dir.file("systemd"));
    ASSERT_EQ(systemd.problem(), "");
    ServingCommand stubborn;
    const std::string marker = f.dir.file("stubborn.marker");
    stubborn.command = f.stubbornReplica(marker);
    stubborn.port = basePort() + 1;
    stubborn.drainGraceSeconds = 2;
    stubborn.startupTimeoutSeconds = 600;
    ReplicaRunnerOptions options{{{"stuck", stubborn}}, f.dir.file("replicas")};
    options.launcher = ReplicaRunnerOptions::Launcher::Systemd;
    options.systemdRun = systemd.systemdRun();
    options.systemctl = systemd.systemctl();
    auto runner = f.runner(options);
    const Status started = runner->startReplica(workload("s1", "stuck", {0}));
    ASSERT_TRUE(started.ok()) << started.message();
    const std::string unit = "meridian-replica-s1-0";
    const int pid = std::atoi(unitProperty(systemd, unit, "MainPID").c_str());
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(f.markerSays(marker, "ready"));  // its trap is set
    ASSERT_TRUE(runner->stopReplica("s1").ok());
    runner.reset();
    ASSERT_TRUE(f.markerSays(marker, "term"));  // SIGTERM came, and it went on
    EXPECT_TRUE(processRuns(pid)) << "SIGTERM ignored, inside the grace";
    EXPECT_TRUE(test::waitUntil([&] { return !processRuns(pid); }, 10s))
        << "still running past its grace: " << unitProperty(systemd, unit, "ActiveState");
}

TEST(ReplicaRunner, UnderRealSystemdAStopStillReachesAUnitSystemctlCannot)
{
    // systemctl failing (a hung bus, a broken install) must not leave a replica that
    // nobody can stop: the runner falls back to the unit's process group.
    Fixture f;
    test::SystemdUserManager systemd(f.dir.file("systemd"));
    ASSERT_EQ(systemd.problem(), "");
    ReplicaRunnerOptions options{{{"chat", standIn(basePort() + 3)}}, f.dir.file("replicas")};
    options.launcher = ReplicaRunnerOptions::Launcher::Systemd;
    options.systemdRun = systemd.systemdRun();
    options.systemctl = systemd.systemctl();
    auto runner = f.runner(options);
    ASSERT_TRUE(runner->startReplica(workload("r1", "chat", {0})).ok());
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return runner->replicaServing("r1"); }));
    const int port = runner->portOf("r1");
    options.systemctl = "false";  // the next agent cannot reach systemd
    runner = f.runner(options);
    runner->tick();
    ASSERT_TRUE(runner->replicaServing("r1")) << "adopted";
    ASSERT_TRUE(runner->stopReplica("r1").ok());
    ASSERT_TRUE(f.tickUntil(*runner, [&] { return !runner->replicaDraining("r1"); }));
    EXPECT_TRUE(test::httpGet(port, "/health").empty()) << "the server is gone";
    EXPECT_NE(unitProperty(systemd, "meridian-replica-r1-0", "ActiveState"), "active");
}

TEST(ReplicaRunner, DamagedRecordsAreSkippedAndTheRestComeBack)
{
    // A record cut short (a disk that filled mid-write, a hand edit) costs that record
    // only: the others are taken up, and nothing crashes.
    Fixture f;
    Workload kept = workload("r-good", "chat", {0});
    kept.state = WorkloadState::Serving;
    ASSERT_TRUE(f.records.put("workload", "r-good", workloadToJson(kept)).ok());
    ASSERT_TRUE(
        f.records.put("workload", "r-bad", "{\"replica_id\": \"r-bad\", \"cards\": [").ok());
    ASSERT_TRUE(f.records.put("workload-answer", "k1", "not json").ok());
    ASSERT_TRUE(f.records.put("replica-process", "r-bad", "{\"workload\": 5}").ok());
    Workload elsewhere = workload("r-cards", "chat", {12});  // a card this node lacks
    ASSERT_TRUE(
        f.records
            .put("replica-process", "r-cards",
                 nlohmann::json({{"workload", workloadToJson(elsewhere)}, {"pid", "x"}}).dump())
            .ok());
    auto runner = f.runner({{"chat", standIn(basePort() + 3)}});
    WorkloadManager manager(runner.get(), f.clock, 8, &f.records);
    const auto listed = manager.list();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].replicaId, "r-good");
    EXPECT_EQ(runner->portOf("r-bad"), 0);
    EXPECT_EQ(runner->portOf("r-cards"), 0);
    runner->tick();  // nothing adopted from them to restart
}

// Weights on the node's disk: the stand-in takes its cold start (a fetch) where they are
// not, leaves them there, and the next replica on that disk starts in the load time.
TEST(StandInReplica, WeightsLeftOnLocalDiskMakeTheNextStartALoad)
{
    test::TempDir dir;
    const int port = basePort() + 7;
    auto startedIn = [&] {
        const auto began = std::chrono::steady_clock::now();
        test::ChildProcess replica(
            {MERIDIAN_SIM_BIN, "serve-replica", "--port", std::to_string(port), "--model", "qwen",
             "--cold-start-seconds", "3", "--weights-dir", dir.file("disk"), "--load-seconds",
             "0.2"},
            dir.file("replica.log"));
        EXPECT_TRUE(test::waitUntil(
            [&] { return test::httpGet(port, "/health").find("\"ok\"") != std::string::npos; },
            10s));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        std::this_thread::sleep_for(200ms);  // it keeps the weights once loaded
        replica.kill(SIGKILL);
        return seconds;
    };
    EXPECT_GE(startedIn(), 3.0) << "weights that were not on disk were not fetched";
    EXPECT_TRUE(std::filesystem::exists(dir.file("disk/qwen.weights")));
    EXPECT_LT(startedIn(), 2.0) << "weights on disk were fetched again";
}
