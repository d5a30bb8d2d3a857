// Node-side state: usage minutes, the event ring with resume, NIC rates with counter
// resets, change detection, idempotent workloads. Virtual time, no sleeps.
#include <gtest/gtest.h>

#include <map>

#include "core/usageledger.h"
#include "telemetry/eventlog.h"
#include "telemetry/nicrates.h"
#include "telemetry/nodemonitor.h"
#include "telemetry/simcollector.h"
#include "telemetry/workloads.h"

using namespace meridian;

TEST(UsageAccumulator, SplitsIntervalsAtMinuteBoundariesAndCountsBusyTime)
{
    MemoryUsageLedger ledger;
    UsageAccumulator acc(ledger, 5000);
    const std::vector<UsageCard> cards = {{0, "GPU-a"}};
    CardSample busy;
    busy.index = 0;
    busy.utilizationPercent = 80;
    busy.powerWatts = 300;
    CardSample idle = busy;
    idle.utilizationPercent = 2;
    idle.powerWatts = 60;
    const int64_t t0 = 1'700'000'020'000;  // 40 s into a minute
    ASSERT_TRUE(acc.addSample(t0, cards, {busy}).ok());
    for (int s = 1; s <= 30; ++s)  // 20 s busy in the first minute, 10 s idle in the next
        ASSERT_TRUE(acc.addSample(t0 + s * 1000, cards, {s <= 20 ? busy : idle}).ok());
    ASSERT_TRUE(acc.flush().ok());
    auto minutes = ledger.since(0, 10);
    ASSERT_TRUE(minutes.ok());
    ASSERT_EQ(minutes->size(), 2u);
    EXPECT_DOUBLE_EQ((*minutes)[0].observedSeconds, 20);
    EXPECT_DOUBLE_EQ((*minutes)[0].busySeconds, 20);
    EXPECT_DOUBLE_EQ(*(*minutes)[0].energyJoules, 20 * 300.0);
    EXPECT_DOUBLE_EQ(*(*minutes)[0].meanUtilizationPercent, 80);
    EXPECT_DOUBLE_EQ((*minutes)[1].observedSeconds, 10);
    EXPECT_DOUBLE_EQ((*minutes)[1].busySeconds, 0);
    EXPECT_DOUBLE_EQ(*(*minutes)[1].meanUtilizationPercent, 2);
}

TEST(UsageAccumulator, GapLongerThanAllowedIsNotCountedAndMinutesMergeOnRewrite)
{
    MemoryUsageLedger ledger;
    UsageAccumulator acc(ledger, 3000);
    CardSample s;
    s.utilizationPercent = 50;
    const int64_t t0 = 1'700'000'040'000;  // on a minute boundary
    ASSERT_TRUE(acc.addSample(t0, {{0, "u"}}, {s}).ok());
    ASSERT_TRUE(acc.addSample(t0 + 1000, {{0, "u"}}, {s}).ok());
    ASSERT_TRUE(acc.addSample(t0 + 31'000, {{0, "u"}}, {s}).ok());  // a 30 s hang
    ASSERT_TRUE(acc.flush().ok());
    // A second accumulator (the agent after a restart) writes more of the same minute.
    UsageAccumulator again(ledger, 3000);
    ASSERT_TRUE(again.addSample(t0 + 40'000, {{0, "u"}}, {s}).ok());
    ASSERT_TRUE(again.addSample(t0 + 42'000, {{0, "u"}}, {s}).ok());
    ASSERT_TRUE(again.flush().ok());
    auto minutes = ledger.since(0, 10);
    ASSERT_EQ(minutes->size(), 1u);
    EXPECT_DOUBLE_EQ((*minutes)[0].observedSeconds, 3);
    EXPECT_DOUBLE_EQ((*minutes)[0].busySeconds, 3);
}

namespace {

// A ledger on a full disk: refuses writes while `full`, keeps what it took.
class FillingLedger final : public UsageLedger {
public:
    bool full = false;
    int refused = 0;
    MemoryUsageLedger kept;
    Status record(const std::vector<UsageMinute> &minutes) override
    {
        if (full) {
            ++refused;
            return Error{"agent.db: database or disk is full"};
        }
        return kept.record(minutes);
    }
    Result<std::vector<UsageMinute>> since(int64_t s, size_t limit) override
    {
        return kept.since(s, limit);
    }
    int64_t oldestMinuteUnixS() override { return kept.oldestMinuteUnixS(); }
    void dropBefore(int64_t m) override { kept.dropBefore(m); }
};

double observedSeconds(UsageLedger &ledger)
{
    double total = 0;
    const auto minutes = ledger.since(0, 100'000);  // kept: the loop reads into it
    for (const UsageMinute &m : minutes.value())
        total += m.observedSeconds;
    return total;
}

}  // namespace

TEST(UsageAccumulator, MinutesAFullDiskRefusedAreKeptAndWrittenOnceItHasRoom)
{
    FillingLedger ledger;
    UsageAccumulator acc(ledger, 5000);
    CardSample s;
    s.utilizationPercent = 90;
    const int64_t t0 = 1'700'000'040'000;  // on a minute boundary
    ledger.full = true;
    bool sawError = false;
    for (int second = 0; second <= 150; ++second)  // two and a half minutes, disk full
        if (!acc.addSample(t0 + second * 1000, {{0, "u"}}, {s}).ok())
            sawError = true;
    EXPECT_TRUE(sawError) << "the ledger's error reaches the caller";
    EXPECT_GT(ledger.refused, 0);
    EXPECT_LE(ledger.refused, 16) << "a full disk is retried at the checkpoint, not every second";
    EXPECT_EQ(observedSeconds(ledger), 0);
    ledger.full = false;
    for (int second = 151; second <= 180; ++second)
        ASSERT_TRUE(acc.addSample(t0 + second * 1000, {{0, "u"}}, {s}).ok());
    ASSERT_TRUE(acc.flush().ok());
    EXPECT_DOUBLE_EQ(observedSeconds(ledger), 180) << "not one second lost to the full disk";
    auto minutes = ledger.since(0, 10).value();
    ASSERT_EQ(minutes.size(), 3u);
    EXPECT_DOUBLE_EQ(minutes[0].observedSeconds, 60);
    EXPECT_DOUBLE_EQ(minutes[0].busySeconds, 60);
    EXPECT_DOUBLE_EQ(*minutes[0].meanUtilizationPercent, 90);
}

TEST(UsageAccumulator, ACrashWithoutAFlushLosesAtMostOneCheckpoint)
{
    MemoryUsageLedger ledger;
    CardSample s;
    s.utilizationPercent = 40;
    const int64_t t0 = 1'700'000'040'000;
    for (int crashAt : {7, 25, 59, 61, 95}) {
        MemoryUsageLedger crashed;
        {
            UsageAccumulator acc(crashed, 5000);  // dropped unflushed: the kill -9
            for (int second = 0; second <= crashAt; ++second)
                ASSERT_TRUE(acc.addSample(t0 + second * 1000, {{0, "u"}}, {s}).ok());
        }
        const double kept = observedSeconds(crashed);
        EXPECT_GE(kept, crashAt - UsageAccumulator::kCheckpointMs / 1000.0)
            << "crash at " << crashAt;
        EXPECT_LE(kept, crashAt);
    }
    // Written in parts, a minute adds up to the same as written whole.
    UsageAccumulator acc(ledger, 5000);
    for (int second = 0; second <= 60; ++second)
        ASSERT_TRUE(acc.addSample(t0 + second * 1000, {{0, "u"}}, {s}).ok());
    ASSERT_TRUE(acc.flush().ok());
    auto minutes = ledger.since(0, 10).value();
    ASSERT_EQ(minutes.size(), 1u);
    EXPECT_DOUBLE_EQ(minutes[0].observedSeconds, 60);
    EXPECT_DOUBLE_EQ(*minutes[0].meanUtilizationPercent, 40);
}

TEST(NodeMonitor, UsageMinutesNameTheServiceThatHeldTheCard)
{
    ManualClock clock(1'700'000'040'000);  // on a minute boundary
    EventLog events;
    MemoryUsageLedger usage;
    NodeMonitor monitor(
        {"n1", "xiamen", "r1", "n1"},
        std::make_unique<SimCollector>(SimNodeSpec{SimNodeKind::A100, 7, "n1", "xiamen", 0}),
        events, usage, clock);
    ASSERT_TRUE(monitor.start().ok());
    std::string holder = "chat-support";
    monitor.setServiceOfCard(
        [&holder](uint32_t card) { return card == 1 ? holder : std::string(); });
    for (int s = 0; s <= 60; ++s) {  // the first minute for chat-support
        monitor.tick();
        clock.advanceMs(1000);
    }
    holder = "summarise";  // the card changes hands
    for (int s = 0; s < 60; ++s) {
        monitor.tick();
        clock.advanceMs(1000);
    }
    monitor.stop();
    auto minutes = usage.since(0, 100);
    ASSERT_TRUE(minutes.ok());
    std::map<std::pair<int64_t, uint32_t>, std::string> services;
    for (const UsageMinute &m : *minutes)
        services[{m.minuteStartUnixS, m.cardIndex}] = m.service;
    EXPECT_EQ((services[{1'700'000'040, 1}]), "chat-support");
    EXPECT_EQ((services[{1'700'000'100, 1}]), "summarise");
    EXPECT_EQ((services[{1'700'000'040, 0}]), "");
}

TEST(NodeMonitor, AFullLedgerDiskIsLoggedOnceAndItsRecoveryToo)
{
    ManualClock clock(1'700'000'040'000);
    EventLog events;
    FillingLedger ledger;
    std::vector<std::string> logged;
    NodeMonitorOptions options;
    options.log = [&logged](const std::string &line) { logged.push_back(line); };
    NodeMonitor monitor(
        {"n1", "xiamen", "r1", "n1"},
        std::make_unique<SimCollector>(SimNodeSpec{SimNodeKind::A100, 7, "n1", "xiamen", 0}),
        events, ledger, clock, options);
    ASSERT_TRUE(monitor.start().ok());
    ledger.full = true;
    for (int s = 0; s < 90; ++s) {  // nine checkpoints and a minute's end, all refused
        monitor.tick();
        clock.advanceMs(1000);
    }
    ASSERT_GT(ledger.refused, 3);
    ASSERT_EQ(logged.size(), 1u) << "once, not at every refused write";
    EXPECT_NE(logged[0].find("usage ledger cannot write: agent.db: database or disk is full"),
              std::string::npos)
        << logged[0];
    ledger.full = false;
    for (int s = 0; s < 15; ++s) {
        monitor.tick();
        clock.advanceMs(1000);
    }
    ASSERT_EQ(logged.size(), 2u);
    EXPECT_NE(logged[1].find("writes again"), std::string::npos) << logged[1];
    int ledgerEvents = 0;
    for (const Event &e : events.eventsAfter(0))
        ledgerEvents += e.message.find("usage ledger") != std::string::npos;
    EXPECT_EQ(ledgerEvents, 2) << "one event when it fails, one when it recovers";
}

TEST(EventLog, ResumeAfterSequenceGetsEveryLaterEventOnceAndGapsAreReported)
{
    EventLog log(5);
    for (int i = 0; i < 8; ++i) {
        Event e;
        e.message = std::to_string(i);
        log.append(e);
    }
    EXPECT_EQ(log.lastSequence(), 8u);
    auto after6 = log.eventsAfter(6);
    ASSERT_EQ(after6.size(), 2u);
    EXPECT_EQ(after6[0].sequence, 7u);
    EXPECT_EQ(after6[1].sequence, 8u);
    auto after1 = log.eventsAfter(1);  // 2 and 3 fell out of the 5-event ring
    ASSERT_EQ(after1.front().kind, EventKind::Gap);
    EXPECT_EQ(after1.front().gapFirst, 2u);
    EXPECT_EQ(after1.front().gapLast, 3u);
    EXPECT_EQ(after1.size(), 6u);

    std::vector<uint64_t> live;
    std::vector<Event> backlog;
    const int id = log.subscribe(
        7, [&](const Event &e) { live.push_back(e.sequence); }, &backlog);
    ASSERT_EQ(backlog.size(), 1u);
    log.append(Event{});
    log.unsubscribe(id);
    log.append(Event{});
    EXPECT_EQ(live, std::vector<uint64_t>{9});
}

TEST(NicRates, CounterResetGivesNoRateInsteadOfAHugeOne)
{
    NicRateTracker rates;
    NicCounters c;
    c.netdev = "ens1np0";
    c.rxBytes = 1'000'000;
    c.rxPause[3] = 10;
    EXPECT_FALSE(rates.update(c, 1000).rxBytesPerSecond.has_value());  // first sample
    c.rxBytes = 3'000'000;
    c.rxPause[3] = 30;
    NicSample s = rates.update(c, 3000);
    EXPECT_DOUBLE_EQ(*s.rxBytesPerSecond, 1'000'000);
    EXPECT_DOUBLE_EQ(*s.rxPausePerSecond[3], 10);
    EXPECT_FALSE(s.countersReset);
    c.rxBytes = 500;  // driver reload
    c.rxPause[3] = 40;
    s = rates.update(c, 4000);
    EXPECT_TRUE(s.countersReset);
    EXPECT_FALSE(s.rxBytesPerSecond.has_value());
    EXPECT_FALSE(s.rxPausePerSecond[3].has_value());
    c.rxBytes = 1500;
    EXPECT_DOUBLE_EQ(*rates.update(c, 5000).rxBytesPerSecond, 1000);
}

TEST(NodeMonitor, SimulatedFaultsBecomeEventsAsARealCollectorWould)
{
    ManualClock clock;
    EventLog events;
    MemoryUsageLedger usage;
    auto collector =
        std::make_unique<SimCollector>(SimNodeSpec{SimNodeKind::A100, 7, "n1", "xiamen", 0});
    SimCollector *sim = collector.get();
    NodeMonitor monitor({"n1", "xiamen", "r1", "n1"}, std::move(collector), events, usage, clock);
    ASSERT_TRUE(monitor.start().ok());
    monitor.tick();
    sim->injectFault({FaultKind::Xid79, 2u, {}, 0});
    sim->injectFault({FaultKind::ThermalThrottle, 1u, {}, 0});
    sim->injectFault({FaultKind::EccDoubleBit, 0u, {}, 0});
    sim->injectFault({FaultKind::LinkDown, std::nullopt, "ens11np0", 0});
    sim->injectFault({FaultKind::PfcStorm, std::nullopt, {}, 0});
    for (int i = 0; i < 3; ++i) {
        clock.advanceMs(1000);
        monitor.tick();
    }
    std::set<EventKind> kinds;
    for (const Event &e : events.eventsAfter(0))
        kinds.insert(e.kind);
    EXPECT_TRUE(kinds.count(EventKind::AgentRestart));
    EXPECT_TRUE(kinds.count(EventKind::Xid));
    EXPECT_TRUE(kinds.count(EventKind::ThermalThrottle));
    EXPECT_TRUE(kinds.count(EventKind::EccUncorrected));
    EXPECT_TRUE(kinds.count(EventKind::LinkDown));
    EXPECT_TRUE(kinds.count(EventKind::PfcStorm));
    const TelemetrySample latest = monitor.latest();
    EXPECT_FALSE(latest.cards[2].utilizationPercent.has_value());  // fallen off the bus
    EXPECT_TRUE(latest.cards[1].thermallyThrottled());
}

TEST(NodeMonitor, LinkFlapIsOneFlapEventNotAStormOfDownUp)
{
    ManualClock clock;
    EventLog events;
    MemoryUsageLedger usage;
    auto collector =
        std::make_unique<SimCollector>(SimNodeSpec{SimNodeKind::H100, 3, "n2", "wuhu", 0});
    SimCollector *sim = collector.get();
    NodeMonitor monitor({"n2", "wuhu", "r1", "n2"}, std::move(collector), events, usage, clock);
    ASSERT_TRUE(monitor.start().ok());
    sim->injectFault({FaultKind::LinkFlap, std::nullopt, {}, 0});
    for (int i = 0; i < 40; ++i) {
        clock.advanceMs(1000);
        monitor.tick();
    }
    int flaps = 0;
    for (const Event &e : events.eventsAfter(0))
        flaps += e.kind == EventKind::LinkFlap;
    EXPECT_EQ(flaps, 1);
}

namespace {
class RecordingBackend final : public ReplicaBackend {
public:
    int starts = 0;
    Status startReplica(const Workload &) override
    {
        ++starts;
        return {};
    }
    Status stopReplica(const std::string &) override { return {}; }
    bool replicaServing(const std::string &) override { return true; }
};
}  // namespace

TEST(Workloads, SameIdempotencyKeyStartsOnce)
{
    ManualClock clock;
    RecordingBackend backend;
    WorkloadManager manager(&backend, clock, 8);
    WorkloadRequest request;
    request.idempotencyKey = "plan-17-step-3";
    request.workload.replicaId = "chat-1";
    request.workload.cardIndices = {0, 1};
    auto first = manager.apply(request);
    auto second = manager.apply(request);
    ASSERT_TRUE(first.ok() && second.ok());
    EXPECT_FALSE(first->replayed);
    EXPECT_TRUE(second->replayed);
    EXPECT_EQ(backend.starts, 1);
    request.idempotencyKey = "other";
    request.workload.replicaId = "chat-2";
    auto clash = manager.apply(request);
    ASSERT_FALSE(clash.ok());
    EXPECT_NE(clash.error().message.find("card 0 already runs"), std::string::npos);
    EXPECT_EQ(manager.list().front().state, WorkloadState::Serving);
    EXPECT_EQ(manager.serviceOnCard(1), "");  // the first request named no service
}

TEST(Workloads, ACardBelongsToItsServiceUntilTheReplicaStops)
{
    ManualClock clock;
    RecordingBackend backend;
    WorkloadManager manager(&backend, clock, 8);
    WorkloadRequest start;
    start.idempotencyKey = "a";
    start.workload = {"chat-1", "chat-support", "qwen2-72b", {2, 3}};
    ASSERT_TRUE(manager.apply(start).ok());
    EXPECT_EQ(manager.serviceOnCard(2), "chat-support");
    EXPECT_EQ(manager.serviceOnCard(3), "chat-support");
    EXPECT_EQ(manager.serviceOnCard(4), "");
    WorkloadRequest stop;
    stop.idempotencyKey = "b";
    stop.start = false;
    stop.workload.replicaId = "chat-1";
    ASSERT_TRUE(manager.apply(stop).ok());
    EXPECT_EQ(manager.serviceOnCard(2), "");
}
