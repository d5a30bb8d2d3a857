// The live autoscaler's test rig: meridian-sim's fleet and pool over real loopback gRPC,
// the console's fleet client, a real history file for the journal, and a controller
// started as a console starts it, all on one ManualClock; and the steps a test takes
// with it (warm up, let time pass, read the journal).
#pragma once

#include <gtest/gtest.h>

#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "autoscaler/scalingcontroller.h"
#include "fleetlink/fleetclient.h"
#include "history/historystore.h"
#include "sim/simfleet.h"

namespace meridian::autoscalertest {

using namespace std::chrono_literals;

inline InferenceService chatService()
{
    InferenceService s;
    s.name = "chat";
    s.model = "qwen2-72b-instruct";
    s.cardsPerReplica = 4;
    s.minReplicas = 1;
    s.maxReplicas = 12;
    s.runsOn = {{"A100-SXM4-80GB", 0.9, 16}, {"Ascend 910B", 0.7, 12}, {"H100-SXM5-80GB", 2.0, 24}};
    s.rent = {{"A100-SXM4-80GB", "Ascend 910B"}, 32, 3.0, 100};
    return s;
}

// Virtual minutes passing at once would look like silence to the streams' watchdogs.
inline ConnectionOptions steadyStreams()
{
    ConnectionOptions options;
    options.watchdogIntervals = 1'000'000;
    return options;
}

class Harness {
public:
    explicit Harness(InferenceService service, int provisioningSeconds = 1,
                     bool poolTheOtherNodes = false)
        : m_dir(std::filesystem::temp_directory_path() /
                ("meridian-autoscaler-" + std::to_string(::getpid()) + "-" +
                 std::to_string(++s_count)))
    {
        std::filesystem::create_directories(m_dir);
        SimFleetOptions options;
        options.nodes = 4;
        options.provisioningSeconds = provisioningSeconds;
        options.services = {service};
        sim = std::make_unique<SimFleet>(options, clock);
        EXPECT_TRUE(sim->start().ok());
        if (poolTheOtherNodes) {
            for (const SimNodeView &n : sim->nodes())
                service.localPool.push_back(n.nodeId);  // the steady replica's node too
        }
        m_service = service;
        FleetInventory inventory;
        for (const SimNodeView &n : sim->nodes())
            inventory.agents.push_back({n.nodeId, n.address, n.dataCenter});
        client = std::make_unique<FleetClient>(local, clock, steadyStreams());
        client->connect(inventory);
        // As in the console: the journal writes through the history store's one writer
        // connection.
        auto opened = HistoryStore::open((m_dir / "history.sqlite").string());
        EXPECT_TRUE(opened.ok()) << opened.error().message;
        history = std::move(opened).value();
        journal = ScalingJournal::onWriter(*history);
    }
    ~Harness()
    {
        controller.reset();
        client->stop();
        sim->stop();
        std::filesystem::remove_all(m_dir);
    }
    // The console starts (again): a new controller over the same journal file.
    void startConsole(ApprovalMode mode)
    {
        controller.reset();
        ScalingControllerOptions options;
        options.mode = mode;
        options.warmUpMs = m_warmUpMs;
        options.policy.forecastDays = m_forecastDays;
        options.servicePolicies = m_servicePolicies;
        options.policy.forecastOrdersAhead = m_forecastOrdersAhead;
        options.rentedAgents = steadyStreams();
        controller = std::make_unique<ScalingController>(std::vector{m_service}, *journal, local,
                                                         sim->controlAddress(), ClientSecurity{},
                                                         clock, options);
    }
    // Lets `seconds` of virtual time pass, with fresh samples from every agent: the last
    // second in a step of its own, so what the streams carry was sampled after the jump.
    void pass(int seconds)
    {
        for (const int64_t stepMs : {seconds * 1000LL - 1000, 1000LL}) {
            clock.advanceMs(std::max<int64_t>(stepMs, 0));
            const int64_t now = clock.nowUnixMs();
            EXPECT_TRUE(waitFor([&] {
                return heardFromAllSince(local, now) &&
                       (!controller || heardFromAllSince(controller->rentedFleet(), now));
            })) << "telemetry did not arrive after the clock moved to "
                << now << " from:" << silentSince(local, now)
                << (controller ? silentSince(controller->rentedFleet(), now) : "");
        }
    }
    // Every connected agent has sent a batch stamped at `unixMs` or later.
    static bool heardFromAllSince(const FleetState &fleet, int64_t unixMs)
    {
        const FleetSnapshot s = fleet.snapshot(unixMs);
        for (size_t n = 0; n < s.nodeConnection.size(); ++n) {
            if (s.nodeConnection[n] == ConnectionState::Connected && s.nodeLastSeenMs[n] < unixMs)
                return false;
        }
        return true;
    }
    static std::string silentSince(const FleetState &fleet, int64_t unixMs)
    {
        const FleetSnapshot s = fleet.snapshot(unixMs);
        std::string out;
        for (size_t n = 0; n < s.nodeConnection.size(); ++n) {
            if (s.nodeConnection[n] == ConnectionState::Connected && s.nodeLastSeenMs[n] < unixMs)
                out += " " + s.layout->nodeId[n] + " (last at " +
                       std::to_string(s.nodeLastSeenMs[n]) + ")";
        }
        return out;
    }
    // Batches cross loopback in milliseconds; ten seconds is for a loaded machine.
    static bool waitFor(const std::function<bool()> &done)
    {
        for (int i = 0; i < 2000 && !done(); ++i)
            std::this_thread::sleep_for(5ms);
        return done();
    }
    // Yesterday's demand of "chat" from this minute on, `minutes` of it at `rps`, as an
    // earlier run of the console kept it in the journal.
    void keepYesterday(double rps, int minutes)
    {
        const int64_t nowMinute = clock.nowUnixMs() / 60'000;
        for (int64_t m = 0; m < minutes; ++m) {
            const DemandMinute minute{nowMinute - 1440 + m, rps * 4, 4};
            EXPECT_TRUE(journal->keepDemandMinute("chat", minute, nowMinute - 2 * 1440).ok());
        }
    }
    std::vector<JournalStep> steps() { return journal->recentSteps(100).value(); }
    int stepsIn(StepState state)
    {
        int n = 0;
        for (const JournalStep &s : steps())
            n += s.state == state;
        return n;
    }
    bool audited(const std::string &text) { return timesAudited(text) > 0; }
    int timesAudited(const std::string &text)
    {
        const auto entries = journal->recentAudit(500);
        int times = 0;
        for (const AuditEntry &e : entries.value())
            times +=
                e.what.find(text) != std::string::npos || e.why.find(text) != std::string::npos;
        return times;
    }

    ManualClock clock{1'800'000'000'000};
    std::unique_ptr<SimFleet> sim;
    FleetState local;
    std::unique_ptr<FleetClient> client;
    std::unique_ptr<HistoryStore> history;
    std::unique_ptr<ScalingJournal> journal;
    std::unique_ptr<ScalingController> controller;

private:
    static inline int s_count = 0;

public:
    int64_t m_warmUpMs = 0;  // the tests' consoles act at once unless a test says otherwise
    int m_forecastDays = 0;  // the daily-shape forecast: off unless a test turns it on
    std::map<std::string, ScalingPolicyConfig> m_servicePolicies;
    bool m_forecastOrdersAhead = false;

private:
    std::filesystem::path m_dir;
    InferenceService m_service;
};

// The steady replica has finished its cold start and reports signals; then the console
// the test wants is started (manual until then: nothing is planned while it warms up).
inline void warmUp(Harness &h, ApprovalMode mode = ApprovalMode::Automatic)
{
    h.startConsole(ApprovalMode::Manual);
    h.pass(200);
    for (int i = 0; i < 10; ++i) {
        h.controller->tick().ok();
        if (h.controller->view().services[0].localReplicas == 1) {
            h.startConsole(mode);
            return;
        }
        h.pass(1);
    }
    FAIL() << "the local replica never served";
}

}  // namespace meridian::autoscalertest
