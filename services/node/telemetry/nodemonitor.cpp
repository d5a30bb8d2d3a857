#include "nodemonitor.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

namespace meridian {

namespace {

std::string newBootId(int64_t nowMs)
{
    std::random_device device;
    std::mt19937_64 rng(device() ^ static_cast<uint64_t>(nowMs));
    return fmt::format("{:016x}", rng());
}

bool increased(const std::optional<uint64_t> &now, const std::optional<uint64_t> &before)
{
    return now && before && *now > *before;
}

}  // namespace

NodeMonitor::NodeMonitor(NodeIdentity identity, std::unique_ptr<Collector> collector,
                         EventLog &events, UsageLedger &usage, const Clock &clock,
                         NodeMonitorOptions options)
    : m_identity(std::move(identity))
    , m_collector(std::move(collector))
    , m_events(events)
    , m_usage(usage)
    , m_clock(clock)
    , m_options(std::move(options))
    , m_accumulator(usage, 3 * m_options.sampleIntervalMs + 1000, m_options.busyThresholdPercent)
{}

Status NodeMonitor::start()
{
    auto hardware = m_collector->discover();
    if (!hardware)
        return hardware.error();
    const int64_t now = m_clock.nowUnixMs();
    {
        std::lock_guard lock(m_mutex);
        m_inventory.nodeId = m_identity.nodeId;
        m_inventory.dataCenter = m_identity.dataCenter;
        m_inventory.rack = m_identity.rack;
        m_inventory.hostname = m_identity.hostname;
        m_inventory.cards = hardware->cards;
        m_inventory.nics = hardware->nics;
        m_nicsReadMs = now;
        m_inventory.agentVersion = m_options.agentVersion;
        m_inventory.collector = m_collector->name();
        m_inventory.agentStartedUnixMs = now;
        m_inventory.bootId = newBootId(now);
    }
    emit(EventKind::AgentRestart, Severity::Info,
         fmt::format("agent started ({} collector, {} cards, {} NICs)", m_collector->name(),
                     hardware->cards.size(), hardware->nics.size()),
         now);
    return {};
}

void NodeMonitor::restart()
{
    std::lock_guard sampling(m_samplingMutex);
    const int64_t now = m_clock.nowUnixMs();
    reportLedger(m_accumulator.flush(), now);
    {
        std::lock_guard lock(m_mutex);
        m_inventory.agentStartedUnixMs = now;
        m_inventory.bootId = newBootId(now);
    }
    emit(EventKind::AgentRestart, Severity::Warning, "agent restarted", now);
}

void NodeMonitor::stop()
{
    std::lock_guard sampling(m_samplingMutex);
    reportLedger(m_accumulator.flush(), m_clock.nowUnixMs());
}

void NodeMonitor::tick()
{
    std::lock_guard sampling(m_samplingMutex);
    const int64_t now = m_clock.nowUnixMs();
    auto collected = m_collector->sample(now);
    TelemetrySample sample;
    sample.sampleTimeUnixMs = now;
    std::vector<std::string> problems;
    if (collected) {
        sample.cards = std::move(collected->cards);
        sample.replicas = std::move(collected->replicas);
        ReplicaSignalsSource replicaSignals;
        {
            std::lock_guard lock(m_mutex);
            replicaSignals = m_replicaSignals;
        }
        if (replicaSignals) {
            for (ReplicaSignals &s : replicaSignals())
                sample.replicas.push_back(std::move(s));
        }
        for (const NicCounters &counters : collected->nics)
            sample.nics.push_back(m_rates.update(counters, now));
        for (Event &event : collected->events) {
            event.timeUnixMs = event.timeUnixMs ? event.timeUnixMs : now;
            m_events.append(std::move(event));
        }
        problems = std::move(collected->problems);
    } else {
        problems.push_back(collected.error().message);
    }
    if (now - m_nicsReadMs >= m_options.nicRediscoveryMs) {
        m_nicsReadMs = now;
        // A NIC list that cannot be read keeps the last one: nothing is lost to a hiccup.
        if (auto nics = m_collector->rediscoverNics()) {
            std::lock_guard lock(m_mutex);
            m_inventory.nics = std::move(nics).value();
        } else {
            problems.push_back("NICs: " + nics.error().message);
        }
    }
    reportProblems(problems, now);
    detectCardChanges(sample.cards, now);
    detectNicChanges(sample.nics, now);

    std::vector<UsageCard> cards;
    {
        std::lock_guard lock(m_mutex);
        for (const CardInfo &info : m_inventory.cards)
            cards.push_back({info.index, info.uuid,
                             m_serviceOfCard ? m_serviceOfCard(info.index) : std::string()});
        m_latest = sample;
    }
    reportLedger(m_accumulator.addSample(now, cards, sample.cards), now);
    if (now - m_lastRetentionMs > 3600'000) {
        m_lastRetentionMs = now;
        m_usage.dropBefore((now - m_options.usageRetentionMs) / 60'000 * 60);
    }
}

void NodeMonitor::detectCardChanges(const std::vector<CardSample> &cards, int64_t now)
{
    for (const CardSample &card : cards) {
        const auto previous = m_previousCards.find(card.index);
        if (previous != m_previousCards.end()) {
            const CardSample &before = previous->second;
            if (card.thermallyThrottled() != before.thermallyThrottled()) {
                if (card.thermallyThrottled()) {
                    emit(EventKind::ThermalThrottle, Severity::Warning,
                         fmt::format("card {} is thermally throttled at {:.0f} °C", card.index,
                                     card.temperatureCelsius.value_or(0)),
                         now, card.index);
                } else {
                    emit(EventKind::ThermalThrottleCleared, Severity::Info,
                         fmt::format("card {} is no longer thermally throttled", card.index), now,
                         card.index);
                }
            }
            if (increased(card.eccUncorrectedVolatile, before.eccUncorrectedVolatile)) {
                emit(
                    EventKind::EccUncorrected, Severity::Critical,
                    fmt::format("card {}: {} new uncorrectable (double-bit) ECC errors", card.index,
                                *card.eccUncorrectedVolatile - *before.eccUncorrectedVolatile),
                    now, card.index);
            }
            if (increased(card.eccCorrectedVolatile, before.eccCorrectedVolatile)) {
                emit(EventKind::EccCorrected, Severity::Info,
                     fmt::format("card {}: {} new corrected ECC errors", card.index,
                                 *card.eccCorrectedVolatile - *before.eccCorrectedVolatile),
                     now, card.index);
            }
        }
        m_previousCards[card.index] = card;
    }
}

void NodeMonitor::detectNicChanges(const std::vector<NicSample> &nics, int64_t now)
{
    for (const NicSample &nic : nics) {
        const std::string &name = nic.counters.netdev;
        const LinkState state = nic.counters.linkState;
        const auto previous = m_linkStates.find(name);
        if (previous != m_linkStates.end() && previous->second != state &&
            state != LinkState::Unknown && previous->second != LinkState::Unknown) {
            auto &transitions = m_linkTransitions[name];
            transitions.push_back(now);
            std::erase_if(transitions, [&](int64_t t) { return now - t > 60'000; });
            const bool flapping =
                static_cast<int>(transitions.size()) >= m_options.linkFlapTransitions;
            if (flapping && now - m_lastFlapEventMs[name] > 60'000) {
                m_lastFlapEventMs[name] = now;
                emit(EventKind::LinkFlap, Severity::Critical,
                     fmt::format("{} is flapping: {} state changes in the last minute", name,
                                 transitions.size()),
                     now, std::nullopt, name);
            } else if (!flapping) {
                const bool down = state == LinkState::Down;
                emit(down ? EventKind::LinkDown : EventKind::LinkUp,
                     down ? Severity::Critical : Severity::Info,
                     fmt::format("{} link is {}", name, down ? "down" : "up"), now, std::nullopt,
                     name);
            }
        }
        m_linkStates[name] = state;

        double maxPause = 0;
        for (const auto &rate : nic.rxPausePerSecond)
            maxPause = std::max(maxPause, rate.value_or(0));
        for (const auto &rate : nic.txPausePerSecond)
            maxPause = std::max(maxPause, rate.value_or(0));
        const bool storm = maxPause >= m_options.pfcStormPausesPerSecond;
        if (storm && !m_pfcStorm[name]) {
            emit(EventKind::PfcStorm, Severity::Critical,
                 fmt::format("{}: PFC storm, {:.0f} pause frames/s", name, maxPause), now,
                 std::nullopt, name);
        }
        m_pfcStorm[name] = storm;
    }
}

void NodeMonitor::reportProblems(const std::vector<std::string> &problems, int64_t now)
{
    std::string joined;
    for (const std::string &p : problems)
        joined += (joined.empty() ? "" : "; ") + p;
    // One event when a problem appears or changes, not one per sample.
    if (!joined.empty() && joined != m_lastProblems)
        emit(EventKind::CollectorError, Severity::Warning, joined, now);
    m_lastProblems = joined;
}

// Apart from the collector's problems, which come and go each sample: a failing ledger
// was reported again every second, and never in the agent's log.
void NodeMonitor::reportLedger(const Status &written, int64_t now)
{
    std::string said;
    if (!written) {
        said = fmt::format(
            "usage ledger cannot write: {}; {} parts of minutes kept in memory "
            "and tried again every {} s",
            written.message(), m_accumulator.unwrittenCount(),
            UsageAccumulator::kCheckpointMs / 1000);
        if (m_ledgerProblem.empty())
            emit(EventKind::CollectorError, Severity::Warning, said, now);
        if (m_ledgerProblem.empty() && m_options.log)
            m_options.log(said);
        m_ledgerProblem = written.message();
    } else if (!m_ledgerProblem.empty() && !m_accumulator.lastWriteFailed()) {
        said = "usage ledger writes again; the minutes kept in memory are written";
        emit(EventKind::CollectorError, Severity::Info, said, now);
        if (m_options.log)
            m_options.log(said);
        m_ledgerProblem.clear();
    }
}

void NodeMonitor::emit(EventKind kind, Severity severity, std::string message, int64_t now,
                       std::optional<uint32_t> card, std::string netdev)
{
    Event event;
    event.timeUnixMs = now;
    event.kind = kind;
    event.severity = severity;
    event.cardIndex = card;
    event.netdev = std::move(netdev);
    event.message = std::move(message);
    m_events.append(std::move(event));
}

NodeInventory NodeMonitor::inventory() const
{
    std::lock_guard lock(m_mutex);
    return m_inventory;
}

std::string NodeMonitor::bootId() const
{
    std::lock_guard lock(m_mutex);
    return m_inventory.bootId;
}

TelemetrySample NodeMonitor::latest() const
{
    std::lock_guard lock(m_mutex);
    return m_latest;
}

void NodeMonitor::setServiceOfCard(ServiceOfCard lookup)
{
    std::lock_guard lock(m_mutex);
    m_serviceOfCard = std::move(lookup);
}

void NodeMonitor::setReplicaSignals(ReplicaSignalsSource source)
{
    std::lock_guard lock(m_mutex);
    m_replicaSignals = std::move(source);
}

}  // namespace meridian
