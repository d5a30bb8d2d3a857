// meridian-scaled as operators run it: a real process with its own journal file, the
// fleet and the capacity pool of a real meridian-sim process, and the console's client
// (RemoteScalingControl) over loopback gRPC with TLS and tokens.
// - Killed with SIGKILL at every step of a scale-up (approved, leasing, a lease asked
//   for but not yet journalled, provisioned, starting, a replica started but not yet
//   journalled, serving) and started again, it finishes what was begun: each step holds
//   one lease and its two replicas, and nothing is leased or started that no step owns.
// - A console approves the plan it shows; a plan replaced since is refused with the new
//   version named; a read-only token may look but not approve; the approval is audited
//   with the operator and the token; the approval mode an operator sets outlives a
//   kill -9; a controller that does not answer is said to be so, and commands are
//   refused without waiting.
// - A broken configuration stops the start with the file and line; a damaged or foreign
//   journal file is named and left untouched.
#include <fmt/format.h>
#include <grpcpp/channel.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "agentprocess.h"
#include "autoscaler/remotescalingcontrol.h"
#include "autoscaler/scalingjournal.h"
#include "autoscaler/scalingviewwire.h"
#include "childprocess.h"
#include "core/clock.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/scaling_control.pb.h"
#include "meridian/v1/sim_control.grpc.pb.h"
#include "poolleases.h"
#include "scaledrig.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include "testsupport.h"

using namespace meridian;

namespace {

using test::inFlight;
using test::kControllerId;
using test::kOperatorToken;
using test::kServices;
using test::kWatcherToken;
using test::Rig;

// Every rented step that serves holds exactly one lease of ours and, on its node, its two
// replicas; no lease and no replica on a rented node belongs to no step.
void expectOneLeaseAndTwoReplicasPerStep(Rig &rig, const std::string &drill)
{
    SCOPED_TRACE("after the drill " + drill + "\n" + rig.journalText());
    std::map<std::string, JournalStep> byKey;
    for (const JournalStep &s : rig.steps()) {
        EXPECT_NE(s.state, StepState::Failed) << s.idempotencyKey;
        byKey[s.idempotencyKey] = s;
    }
    std::set<std::string> leasedKeys;
    for (const v1::Lease &lease : rig.leases()) {
        EXPECT_EQ(lease.requested_by(), kControllerId);
        EXPECT_EQ(lease.state(), v1::LEASE_STATE_READY) << lease.lease_id();
        EXPECT_TRUE(leasedKeys.insert(lease.idempotency_key()).second)
            << "two leases for " << lease.idempotency_key();
        const auto step = byKey.find(lease.idempotency_key());
        ASSERT_NE(step, byKey.end()) << "lease " << lease.lease_id() << " belongs to no step";
        EXPECT_EQ(step->second.state, StepState::Serving);
        EXPECT_EQ(step->second.leaseId, lease.lease_id());
        ASSERT_EQ(lease.leased_nodes_size(), 1);
        std::set<std::string> replicas;
        for (const v1::Workload &w : rig.workloads(lease.leased_nodes(0).agent_address())) {
            EXPECT_EQ(w.replica_id().rfind(lease.idempotency_key() + "/", 0), 0u)
                << "replica " << w.replica_id() << " on " << lease.leased_nodes(0).node_id()
                << " belongs to no step of this node";
            EXPECT_TRUE(replicas.insert(w.replica_id()).second);
        }
        EXPECT_EQ(replicas.size(), 2u) << "on " << lease.leased_nodes(0).node_id();
    }
    for (const auto &[key, step] : byKey) {
        if (step.state == StepState::Serving && step.offerId != "local") {
            EXPECT_TRUE(leasedKeys.count(key)) << key << " serves without a lease";
        }
    }
}

// Until a step beyond `before` serves and nothing has moved for 1 s (three passes).
bool settles(Rig &rig, size_t servingBefore)
{
    std::optional<std::chrono::steady_clock::time_point> quietSince;
    return test::waitUntil(
        [&] {
            size_t serving = 0;
            bool moving = false;
            for (const JournalStep &s : rig.steps()) {
                serving += s.state == StepState::Serving;
                moving |= inFlight(s.state) || s.state == StepState::Planned;
            }
            const auto now = std::chrono::steady_clock::now();
            if (moving || serving <= servingBefore)
                quietSince.reset();
            else if (!quietSince)
                quietSince = now;
            return quietSince && now - *quietSince >= std::chrono::seconds(1);
        },
        std::chrono::seconds(60));
}

// What the controller shows, for failure messages.
std::string describe(const ScalingView &view)
{
    std::string text = "problem: " + view.problem + "\n";
    for (const ServiceScalingView &s : view.services) {
        text += fmt::format("{}: local {} rented {} starting {} desired {} plan {} why: {}\n",
                            s.service.name, s.localReplicas, s.rentedReplicas, s.startingReplicas,
                            s.desiredReplicas, s.planVersion, s.why);
        for (const std::string &note : s.notes)
            text += "  note: " + note + "\n";
        if (!s.history.empty())
            text += fmt::format("  last point: {} req/s, {} ready\n", s.history.back().arrivalRps,
                                s.history.back().readyReplicas);
    }
    return text;
}

size_t servingSteps(Rig &rig)
{
    size_t n = 0;
    for (const JournalStep &s : rig.steps())
        n += s.state == StepState::Serving;
    return n;
}

}  // namespace

// One drill per step, each on a fleet of its own, so each is its own test and they run
// side by side.
class ScaledProcessDrill : public testing::TestWithParam<const char *> {};

TEST_P(ScaledProcessDrill, KilledAtThisStepItFinishesWithOneLeaseAndTwoReplicasPerStep)
{
    const std::string drill = GetParam();
    Rig rig("automatic");
    rig.setLoad(2);
    rig.startScaled(drill);
    // A replica serves 3.6 req/s: 6 req/s is more than the one there is serves and less
    // than three serve at the policy's target occupancy (0.8-0.9), so it asks for exactly
    // one more node (two replicas). One step, not two: each drill kills at the first step's
    // stage, and a second step only lengthened the wait for it to settle.
    rig.setLoad(6);
    ASSERT_TRUE(test::waitUntil([&] { return rig.scaled->ended(); }, std::chrono::seconds(60)))
        << "the drill " << drill << " never fired\n"
        << rig.logs() << rig.journalText();
    ASSERT_TRUE(WIFSIGNALED(rig.scaled->waitStatus()));
    EXPECT_EQ(WTERMSIG(rig.scaled->waitStatus()), SIGKILL);

    rig.startScaled();
    ASSERT_TRUE(settles(rig, 0)) << "after the drill " << drill << "\n"
                                 << rig.logs() << rig.journalText();
    expectOneLeaseAndTwoReplicasPerStep(rig, drill);
    EXPECT_GE(servingSteps(rig), 1u);
}

INSTANTIATE_TEST_SUITE_P(EveryStep, ScaledProcessDrill,
                         testing::Values("approved", "leasing", "leasing+400", "provisioned",
                                         "starting", "starting+300", "serving"),
                         [](const testing::TestParamInfo<const char *> &info) {
                             std::string name = info.param;
                             std::replace(name.begin(), name.end(), '+', '_');
                             return name;
                         });

TEST(ScaledProcess, AConsoleApprovesThePlanItShowsAndAReplacedPlanIsRefused)
{
    Rig rig("assisted", /*secure=*/true);
    rig.startScaled();
    RemoteScalingControl console(rig.address, rig.consoleSecurity(kOperatorToken),
                                 SystemClock::instance());
    ASSERT_TRUE(test::waitUntil([&] { return console.poll().ok(); }))
        << rig.scaled->log() << console.view().problem;
    EXPECT_EQ(console.controllerId(), kControllerId);
    ASSERT_EQ(console.view().services.size(), 1u);
    EXPECT_EQ(console.view().services[0].service.name, "chat");
    EXPECT_EQ(console.view().mode, ApprovalMode::Assisted);

    const auto plan = [&] {
        console.poll().ok();
        return console.view().services.at(0).planVersion;
    };
    rig.setLoad(8);
    ASSERT_TRUE(test::waitUntil([&] { return plan() > 0; }, std::chrono::seconds(30)))
        << rig.scaled->log() << describe(console.view());
    const int64_t shown = plan();
    rig.setLoad(40);  // the need outgrows the plan on screen: a larger one replaces it
    ASSERT_TRUE(test::waitUntil([&] { return plan() > shown; }, std::chrono::seconds(30)));
    const int64_t replacement = plan();

    const Status stale = console.approvePlan("chat", "alice", shown);
    ASSERT_FALSE(stale.ok());
    EXPECT_NE(stale.message().find(fmt::format("plan {}", shown)), std::string::npos)
        << stale.message();
    EXPECT_NE(stale.message().find(fmt::format("plan {}", console.view().services[0].planVersion)),
              std::string::npos)
        << stale.message();

    RemoteScalingControl wallboard(rig.address, rig.consoleSecurity(kWatcherToken),
                                   SystemClock::instance());
    ASSERT_TRUE(wallboard.poll().ok());  // it may look ...
    const Status refused = wallboard.approvePlan("chat", "mallory", replacement);
    ASSERT_FALSE(refused.ok());  // ... but not approve
    EXPECT_NE(refused.message().find("read-only"), std::string::npos) << refused.message();

    const int64_t current = plan();
    ASSERT_TRUE(console.approvePlan("chat", "alice", current).ok());
    ASSERT_TRUE(test::waitUntil([&] { return servingSteps(rig) > 0; }, std::chrono::seconds(60)))
        << rig.journalText();
    bool audited = false;
    for (const AuditEntry &e : rig.audit())
        audited |= e.who == "alice (token ops-console)" &&
                   e.what.find(fmt::format("approved plan {}", current)) != std::string::npos;
    EXPECT_TRUE(audited);

    // The mode an operator sets is the controller's, kept across a kill -9.
    ASSERT_TRUE(console.setMode(ApprovalMode::Manual, "alice").ok());
    rig.scaled->kill(SIGKILL);
    rig.startScaled();
    ASSERT_TRUE(test::waitUntil([&] { return console.poll().ok(); })) << rig.scaled->log();
    EXPECT_EQ(console.view().mode, ApprovalMode::Manual);

    // A controller that does not answer: the view says so, commands are not sent.
    rig.scaled->kill(SIGKILL);
    EXPECT_FALSE(console.poll().ok());
    EXPECT_NE(console.view().problem.find(rig.address), std::string::npos)
        << console.view().problem;
    EXPECT_FALSE(console.view().services.empty());  // the last view stays, marked stale
    const Status unsent = console.requestPlan("chat", "alice");
    ASSERT_FALSE(unsent.ok());
    EXPECT_NE(unsent.message().find("not sent"), std::string::npos) << unsent.message();
}

// Behind the same TLS front door as the agent and the pool: a client that finishes its
// handshake and resets at once costs a connection, not the controller (SIGPIPE ended it).
TEST(ScaledProcess, StatusSaysWhatARunningControllerDoesAndWhyItCannot)
{
    Rig rig("assisted", /*secure=*/true);
    rig.startScaled();
    std::ofstream(rig.dir.file("watcher.token")) << kWatcherToken << "\n";
    const auto status = [&](const std::string &address) {
        const std::string log = rig.dir.file("status.log");
        test::ChildProcess run(
            {MERIDIAN_SCALED_BIN, "status", "--address", address, "--ca-file",
             rig.dir.file("scaled.crt"), "--token-file", rig.dir.file("watcher.token")},
            log);
        EXPECT_TRUE(test::waitUntil([&] { return run.ended(); }, std::chrono::seconds(15)));
        return std::make_pair(WEXITSTATUS(run.waitStatus()), run.log());
    };
    rig.setLoad(8);
    std::pair<int, std::string> shown;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            shown = status(rig.address);
            return shown.second.find("waiting for approval: plan") != std::string::npos;
        },
        std::chrono::seconds(30)))
        << shown.second;
    EXPECT_EQ(shown.first, 0);
    EXPECT_NE(shown.second.find(std::string(kControllerId) + " at " + rig.address +
                                ": approval mode assisted"),
              std::string::npos)
        << shown.second;
    EXPECT_NE(shown.second.find("\nchat "), std::string::npos) << shown.second;
    EXPECT_NE(shown.second.find("p95 queue  p95 TTFT"), std::string::npos) << shown.second;
    EXPECT_TRUE(std::regex_search(shown.second, std::regex("\nchat .* [0-9.]+ s +[0-9.]+ s  ")))
        << "the replicas' queueing delay and TTFT, each on its own: " << shown.second;

    const std::string nobody = "127.0.0.1:" + std::to_string(test::freePort());
    const auto refused = status(nobody);
    EXPECT_EQ(refused.first, 1);
    EXPECT_NE(refused.second.find(nobody), std::string::npos) << refused.second;
}

TEST(ScaledProcess, PrometheusScrapesWhatItDoesPerService)
{
    Rig rig("automatic");
    rig.startScaled();
    rig.setLoad(8);
    std::string metrics;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            metrics = test::httpGet(rig.metricsPort, "/metrics");
            return metrics.find("meridian_scaled_replicas_desired{service=\"chat\"}") !=
                       std::string::npos &&
                   metrics.find("meridian_scaled_passes_total{service=\"chat\"}") !=
                       std::string::npos;
        },
        std::chrono::seconds(30)))
        << metrics << rig.scaled->log();
    for (const char *family : {"meridian_scaled_replicas{service=\"chat\",state=\"serving\"}",
                               "meridian_scaled_waiting_requests{service=\"chat\"}",
                               "meridian_scaled_objective_p95_seconds{service=\"chat\"} 5",
                               "meridian_scaled_rented_card_seconds_total{service=\"chat\"}",
                               "meridian_scaled_passes_within_objective_total{service=\"chat\"}"})
        EXPECT_NE(metrics.find(family), std::string::npos) << family << "\n" << metrics;
    // Prometheus's own linter reads it.
    std::ofstream(rig.dir.file("scaled.prom")) << metrics;
    EXPECT_EQ(std::system(
                  ("promtool check metrics < " + rig.dir.file("scaled.prom") + " > /dev/null 2>&1")
                      .c_str()),
              0)
        << metrics;
}

TEST(ScaledProcess, ClientsThatResetRightAfterTheTlsHandshakeLeaveItServing)
{
    Rig rig("assisted", /*secure=*/true);
    rig.startScaled();
    RemoteScalingControl console(rig.address, rig.consoleSecurity(kWatcherToken),
                                 SystemClock::instance());
    ASSERT_TRUE(test::waitUntil([&] { return console.poll().ok(); })) << rig.scaled->log();
    const int port = std::stoi(rig.address.substr(rig.address.rfind(':') + 1));
    int handshakes = 0;
    for (int i = 0; i < 20; ++i)
        handshakes += test::handshakeAndReset(port, rig.dir.file("scaled.crt"));
    EXPECT_GT(handshakes, 0) << "no client finished its handshake: nothing was tried";
    EXPECT_TRUE(console.poll().ok()) << console.view().problem;
    ASSERT_FALSE(rig.scaled->ended())
        << "the controller died, wait status " << rig.scaled->waitStatus() << "\n"
        << rig.logs();
}

TEST(ScaledProcess, ABrokenConfigurationOrJournalStopsTheStartNamingIt)
{
    test::TempDir dir;
    const auto run = [&](const std::string &yaml) {
        std::ofstream(dir.file("scaled.yaml")) << yaml;
        test::ChildProcess scaled({MERIDIAN_SCALED_BIN, "--config", dir.file("scaled.yaml")},
                                  dir.file("scaled.log"));
        EXPECT_TRUE(test::waitUntil([&] { return scaled.ended(); }, std::chrono::seconds(10)));
        EXPECT_TRUE(WIFEXITED(scaled.waitStatus()) && WEXITSTATUS(scaled.waitStatus()) == 2);
        return scaled.log();
    };
    EXPECT_NE(run("listen: 127.0.0.1:0\nmode: yolo\n").find("scaled.yaml:2"), std::string::npos);
    EXPECT_NE(run("listen: 127.0.0.1:0\nintervals: 5\n").find("scaled.yaml:2"), std::string::npos);
    std::ofstream(dir.file("policy.yaml")) << "forecast_days: 7\nforecast_dayz: 7\n";
    const std::string policy = run("policy: policy.yaml\n");
    EXPECT_NE(policy.find("policy.yaml:2"), std::string::npos) << policy;
    const std::string missing = run("inventory: nowhere.yaml\n");
    EXPECT_NE(missing.find("nowhere.yaml"), std::string::npos) << missing;
    std::ofstream(dir.file("inventory.yaml"))
        << "data_centers:\n  - name: xiamen\n    agents: [{node: n1, address: 127.0.0.1:1}]\n";
    const std::string noPool = run("inventory: inventory.yaml\n");
    EXPECT_NE(noPool.find("capacity_pool"), std::string::npos) << noPool;

    // A journal that is damaged, or is some other file, is named and left untouched.
    std::ofstream(dir.file("inventory.yaml"))
        << "capacity_pool: 127.0.0.1:1\n"
        << "data_centers:\n  - name: xiamen\n    agents: [{node: n1, address: 127.0.0.1:1}]\n";
    std::ofstream(dir.file("services.yaml")) << kServices;
    const std::string garbage(4096, 'x');
    std::ofstream(dir.file("journal.sqlite")) << "SQLite format 3" << garbage;
    const std::string damaged =
        run("inventory: inventory.yaml\nservices: services.yaml\njournal: journal.sqlite\n");
    EXPECT_NE(damaged.find("journal.sqlite"), std::string::npos) << damaged;
    EXPECT_NE(damaged.find("left untouched"), std::string::npos) << damaged;
    EXPECT_EQ(test::readFile(dir.file("journal.sqlite")), "SQLite format 3" + garbage);
    {
        SQLite::Database other(dir.file("other.sqlite"),
                               SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        other.exec("CREATE TABLE t (x); PRAGMA application_id = 42");
    }
    const std::string foreign =
        run("inventory: inventory.yaml\nservices: services.yaml\njournal: other.sqlite\n");
    EXPECT_NE(foreign.find("is not a Meridian scaling journal"), std::string::npos) << foreign;
}

// A headless controller's forecast reaches the console; none stays none, not zero.
TEST(ScalingViewWire, TheForecastCrossesTheWireAndItsAbsenceToo)
{
    ScalingView view;
    view.services.resize(2);
    view.services[0].service.name = "chat";
    view.services[0].forecastRps = 9.5;
    view.services[1].service.name = "rag";
    v1::ScalingViewReply reply;
    toWire(view, "scaled-1", reply);
    const ScalingView back = fromWire(reply);
    ASSERT_EQ(back.services.size(), 2u);
    EXPECT_EQ(back.services[0].forecastRps, std::optional(9.5));
    EXPECT_FALSE(back.services[1].forecastRps);
}

// The console watching a headless controller shows what the objective is held to: the
// queueing delay and the TTFT cross the wire each on its own, and none stays none.
TEST(ScalingViewWire, TheQueueingDelayCrossesTheWireBesideTheTtft)
{
    ScalingView view;
    view.services.resize(1);
    view.services[0].service.name = "chat";
    view.services[0].service.objectiveP95Seconds = 3.5;
    ServicePoint reported;
    reported.ttftP95Seconds = 8.0;
    reported.queueDelayP95Seconds = 0.6;
    ServicePoint ttftOnly;
    ttftOnly.ttftP95Seconds = 2.0;
    view.services[0].history = {reported, ttftOnly};
    v1::ScalingViewReply reply;
    toWire(view, "scaled-1", reply);
    const ScalingView back = fromWire(reply);
    ASSERT_EQ(back.services.size(), 1u);
    const ServiceScalingView &chat = back.services[0];
    EXPECT_EQ(chat.service.objectiveP95Seconds, 3.5);
    ASSERT_EQ(chat.history.size(), 2u);
    EXPECT_EQ(chat.history[0].queueDelayP95Seconds, std::optional(0.6));
    EXPECT_EQ(chat.history[0].objectiveP95Seconds(), std::optional(0.6));
    EXPECT_FALSE(chat.history[1].queueDelayP95Seconds);
    EXPECT_EQ(chat.history[1].objectiveP95Seconds(), std::optional(2.0));
}
