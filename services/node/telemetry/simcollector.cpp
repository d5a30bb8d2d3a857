#include "simcollector.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/cardcatalog.h"

namespace meridian {

namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr uint64_t kLinkSpeedMbps = 400'000;

uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct ModelSpec {
    const char *reportedName;
    Vendor vendor;
    const char *uuidPrefix;
};

ModelSpec modelFor(SimNodeKind kind, uint32_t cardIndex)
{
    switch (kind) {
    case SimNodeKind::A100: return {"NVIDIA A100-SXM4-80GB", Vendor::Nvidia, "GPU"};
    case SimNodeKind::H100: return {"NVIDIA H100 80GB HBM3", Vendor::Nvidia, "GPU"};
    case SimNodeKind::Ascend910B: return {"Ascend 910B2", Vendor::Huawei, "NPU"};
    case SimNodeKind::Hybrid:
        return cardIndex < 4 ? ModelSpec{"NVIDIA A100-SXM4-80GB", Vendor::Nvidia, "GPU"}
                             : ModelSpec{"Ascend 910B2", Vendor::Huawei, "NPU"};
    case SimNodeKind::Mlu370: return {"MLU370-X8", Vendor::Cambricon, "MLU"};
    case SimNodeKind::HygonDcu: return {"K100-AI", Vendor::Hygon, "DCU"};
    }
    return {"unknown", Vendor::Unknown, "CARD"};
}

}  // namespace

const char *simNodeKindName(SimNodeKind kind)
{
    switch (kind) {
    case SimNodeKind::A100: return "a100";
    case SimNodeKind::H100: return "h100";
    case SimNodeKind::Ascend910B: return "ascend910b";
    case SimNodeKind::Hybrid: return "hybrid";
    case SimNodeKind::Mlu370: return "mlu370";
    case SimNodeKind::HygonDcu: return "dcu";
    }
    return "unknown";
}

SimCollector::SimCollector(SimNodeSpec spec) : m_spec(std::move(spec))
{
    buildHardware();
}

double SimCollector::noise(uint64_t a, uint64_t b) const
{
    // Deterministic in (seed, a, b): the same seed replays the same fleet.
    return static_cast<double>(mix(m_spec.seed ^ mix(a * 1315423911ULL + b)) >> 11) /
           static_cast<double>(1ULL << 53);
}

void SimCollector::buildHardware()
{
    constexpr uint32_t kCards = 8;
    for (uint32_t i = 0; i < kCards; ++i) {
        const ModelSpec model = modelFor(m_spec.kind, i);
        const auto facts = lookupCardModel(model.reportedName);
        CardState card;
        card.info.index = i;
        card.info.vendor = model.vendor;
        card.info.model = facts ? std::string(facts->model) : model.reportedName;
        const uint64_t id = mix(m_spec.seed * 64 + i);
        card.info.uuid = fmt::format("{}-{:08x}-{:04x}-{:04x}-{:012x}", model.uuidPrefix,
                                     static_cast<uint32_t>(id >> 32), (id >> 16) & 0xffff,
                                     id & 0xffff, mix(id) & 0xffffffffffffULL);
        card.info.pciBusId = fmt::format("0000:{:02X}:00.0", 0x18 + i * 0x10);
        card.info.memoryTotalBytes =
            static_cast<uint64_t>((facts ? facts->memoryGiB : 64) * 1024 * 1024 * 1024);
        card.info.peakFp16Tflops = facts ? std::optional(facts->peakFp16Tflops) : std::nullopt;
        card.info.driverVersion = model.vendor == Vendor::Nvidia ? "535.129.03" : "23.0.7";
        card.info.serial = fmt::format("{:013}", id % 10'000'000'000'000ULL);
        if (model.vendor == Vendor::Nvidia)
            card.info.migEnabled = false;
        card.tdpWatts = facts ? facts->tdpWatts : 300;
        // Most rented cards are busy; about one in twelve is paid for but idle.
        const double r = noise(i, 1);
        card.baseLoad = r < 0.08 ? 0.01 : 0.45 + 0.5 * noise(i, 2);
        card.phase = noise(i, 3) * kTwoPi;
        m_cards.push_back(std::move(card));
    }
    const bool hiroce = m_spec.kind == SimNodeKind::Ascend910B;
    for (uint32_t rail = 0; rail < kCards; ++rail) {
        NicState nic;
        nic.info.netdev = fmt::format("ens{}np0", 1 + rail * 10);
        nic.info.rdmaDevice = hiroce ? fmt::format("hns_{}", rail) : fmt::format("mlx5_{}", rail);
        nic.info.speedMbps = kLinkSpeedMbps;
        nic.info.linkState = LinkState::Up;
        nic.info.nearestCardIndex = rail;
        nic.info.pfcEnabledPriorities = {3};
        LldpNeighbor neighbor;
        neighbor.systemName = fmt::format("{}-pod{}-leaf{}", m_spec.dataCenter, m_spec.pod, rail);
        neighbor.chassisId = fmt::format("b8:ce:f6:{:02x}:{:02x}:{:02x}", m_spec.pod & 0xff, rail,
                                         static_cast<unsigned>(mix(m_spec.seed) & 0xff));
        neighbor.chassisIdType = "mac";
        neighbor.portId = fmt::format("Ethernet{}", m_spec.podSlot * 8);
        neighbor.portIdType = "ifname";
        neighbor.portDescription = m_spec.nodeId;
        neighbor.ttlSeconds = 120;
        nic.info.neighbor = neighbor;
        nic.counters.netdev = nic.info.netdev;
        nic.counters.linkState = LinkState::Up;
        nic.hasCongestionCounters = !hiroce;
        m_nics.push_back(std::move(nic));
    }
}

Result<NodeHardware> SimCollector::discover()
{
    std::lock_guard lock(m_mutex);
    NodeHardware hw;
    for (const CardState &card : m_cards)
        hw.cards.push_back(card.info);
    for (const NicState &nic : m_nics)
        hw.nics.push_back(nic.info);
    return hw;
}

bool SimCollector::faultActive(FaultKind kind, int64_t nowMs, const SimFault **match) const
{
    for (const SimFault &fault : m_faults) {
        if (fault.kind == kind && (fault.untilUnixMs == 0 || nowMs < fault.untilUnixMs)) {
            if (match)
                *match = &fault;
            return true;
        }
    }
    return false;
}

CardSample SimCollector::sampleCard(CardState &card, int64_t nowMs, double replicaLoad)
{
    CardSample s;
    s.index = card.info.index;
    if (card.fallenOff)
        return s;  // a card off the bus reports nothing at all
    const double day = static_cast<double>(nowMs) / 86'400'000.0;
    const double diurnal = 0.75 + 0.25 * std::sin(kTwoPi * day + card.phase);
    const double jitter = noise(card.info.index + 100, static_cast<uint64_t>(nowMs / 1000)) - 0.5;
    double load = std::max(card.baseLoad * diurnal + 0.08 * jitter * card.baseLoad, replicaLoad);
    load = std::clamp(load, 0.0, 1.0);
    const SimFault *thermal = nullptr;
    const bool hot = faultActive(FaultKind::ThermalThrottle, nowMs, &thermal) &&
                     thermal->card.value_or(0) == card.info.index;

    s.utilizationPercent = std::round(load * 1000) / 10;
    s.memoryTotalBytes = card.info.memoryTotalBytes;
    const double memFraction = load < 0.05 ? 0.02 : 0.35 + 0.55 * card.baseLoad;
    s.memoryUsedBytes =
        static_cast<uint64_t>(static_cast<double>(*card.info.memoryTotalBytes) * memFraction);
    s.temperatureCelsius = std::round(32 + 45 * load + 3 * jitter + (hot ? 22 : 0));
    s.powerWatts = std::round((0.15 + 0.8 * load) * card.tdpWatts * 10) / 10;
    s.powerLimitWatts = card.tdpWatts;
    s.smClockMhz = static_cast<uint32_t>(hot ? 900 : 1410);
    s.memoryClockMhz = 1593;
    if (card.info.vendor == Vendor::Nvidia || card.info.vendor == Vendor::Huawei) {
        s.eccCorrectedVolatile = card.eccCorrected;
        s.eccUncorrectedVolatile = card.eccUncorrected;
    }
    if (card.info.vendor == Vendor::Nvidia) {
        std::vector<ThrottleReason> reasons;
        if (load < 0.02)
            reasons.push_back(ThrottleReason::Idle);
        if (hot)
            reasons.push_back(ThrottleReason::HwThermal);
        s.throttleReasons = reasons;
    } else if (hot) {
        s.throttleReasons = std::vector<ThrottleReason>{ThrottleReason::HwThermal};
    }
    if (card.info.vendor == Vendor::Huawei)
        s.health = hot ? "Warning" : "OK";
    if (faultActive(FaultKind::GarbageValues, nowMs)) {
        s.utilizationPercent = std::numeric_limits<double>::quiet_NaN();
        s.temperatureCelsius = -273.0 - card.info.index;
        s.powerWatts = 1e12;
        s.memoryUsedBytes = *card.info.memoryTotalBytes * 3;
    }
    return s;
}

void SimCollector::advanceNic(NicState &nic, double seconds, double load, int64_t nowMs)
{
    NicCounters &c = nic.counters;
    const auto hits = [&](FaultKind kind) {
        const SimFault *f = nullptr;
        if (!faultActive(kind, nowMs, &f))
            return false;
        return f->netdev.empty() ? &nic == &m_nics.front() : f->netdev == nic.info.netdev;
    };
    const bool down = hits(FaultKind::LinkDown);
    const bool flapping = hits(FaultKind::LinkFlap);
    const bool storm = hits(FaultKind::PfcStorm);
    const bool congested = hits(FaultKind::EcnCongestion);
    if (congested)
        load = std::max(load, 2.6);  // ~90% of line rate at the 0.35 share below

    LinkState state = LinkState::Up;
    const int64_t flapHalfMs = 2 * std::max(1, m_spec.sampleIntervalMs);
    if (down || (flapping && (nowMs / flapHalfMs) % 2 == 1))  // down 2 samples of every 4
        state = LinkState::Down;
    if (state == LinkState::Down && c.linkState == LinkState::Up)
        c.linkDownEvents = c.linkDownEvents.value_or(0) + 1;
    c.linkState = state;
    nic.info.linkState = state;
    if (state == LinkState::Down)
        return;
    const double bytesPerSecond = load * kLinkSpeedMbps * 1e6 / 8 * 0.35;
    const auto add = [&](std::optional<uint64_t> &counter, double amount) {
        counter = counter.value_or(0) + static_cast<uint64_t>(std::max(0.0, amount));
    };
    add(c.rxBytes, bytesPerSecond * seconds);
    add(c.txBytes, bytesPerSecond * seconds * 0.97);
    for (int p = 0; p < kPfcPriorities; ++p) {
        const double pauses = p == 3 ? (storm ? 60'000 : 20 * load) : 0;
        add(c.rxPause[p], pauses * seconds);
        add(c.txPause[p], (p == 3 ? 10 * load : 0) * seconds);
    }
    add(c.rxDiscards, 0);
    add(c.txDiscards, 0);
    add(c.symbolErrors, 0);
    add(c.crcErrors, 0);
    if (!c.linkDownEvents)
        c.linkDownEvents = 0;
    if (nic.hasCongestionCounters) {
        const double congestion = congested ? 60 : 1;  // marks and CNPs surge on a hot link
        add(c.ecnMarkedPackets, 400 * load * load * congestion * seconds);
        add(c.cnpSent, 300 * load * load * congestion * seconds);
        add(c.cnpHandled, 280 * load * load * congestion * seconds);
        add(c.outOfSequence, 0);
        add(c.packetSequenceErrors, 0);
    }
}

Result<CollectedSample> SimCollector::sample(int64_t nowUnixMs)
{
    std::lock_guard lock(m_mutex);
    CollectedSample out;
    std::erase_if(m_faults, [&](const SimFault &f) {
        return f.untilUnixMs != 0 && nowUnixMs >= f.untilUnixMs;
    });
    std::map<uint32_t, double> replicaLoad = sampleReplicas(nowUnixMs, out);
    const SimFault *f = nullptr;
    if (faultActive(FaultKind::Xid79, nowUnixMs, &f)) {
        CardState &card = m_cards.at(std::min<size_t>(f->card.value_or(0), m_cards.size() - 1));
        if (!card.fallenOff) {
            card.fallenOff = true;
            Event e;
            e.kind = EventKind::Xid;
            e.severity = Severity::Critical;
            e.cardIndex = card.info.index;
            e.xid = 79;
            e.message = fmt::format("card {}: Xid 79, GPU has fallen off the bus", card.info.index);
            out.events.push_back(std::move(e));
        }
    }
    if (faultActive(FaultKind::EccDoubleBit, nowUnixMs, &f)) {
        CardState &card = m_cards.at(std::min<size_t>(f->card.value_or(0), m_cards.size() - 1));
        card.eccUncorrected += 1;  // one more every sample while the fault lasts
    }
    double meanLoad = 0;
    for (CardState &card : m_cards) {
        CardSample s =
            sampleCard(card, nowUnixMs,
                       replicaLoad.count(card.info.index) ? replicaLoad[card.info.index] : 0.0);
        meanLoad += s.utilizationPercent.value_or(0) / 100.0 / static_cast<double>(m_cards.size());
        if (card.info.vendor == Vendor::Nvidia && s.eccUncorrectedVolatile &&
            *s.eccUncorrectedVolatile > 0 && !s.lastXid) {
            s.lastXid = 48;  // NVIDIA reports a double-bit ECC error as Xid 48
        }
        out.cards.push_back(std::move(s));
    }
    const double seconds =
        m_lastSampleMs > 0 ? static_cast<double>(nowUnixMs - m_lastSampleMs) / 1000.0 : 0.0;
    m_lastSampleMs = nowUnixMs;
    for (NicState &nic : m_nics) {
        advanceNic(nic, std::max(0.0, seconds), std::isfinite(meanLoad) ? meanLoad : 0.5,
                   nowUnixMs);
        out.nics.push_back(nic.counters);
    }
    return out;
}

std::map<uint32_t, double> SimCollector::sampleReplicas(int64_t nowUnixMs, CollectedSample &out)
{
    std::map<uint32_t, double> replicaLoad;
    std::erase_if(m_replicas, [&](const auto &entry) {
        return entry.second.drainsUntilMs >= 0 && entry.second.drainsUntilMs <= nowUnixMs;
    });
    for (auto &[id, replica] : m_replicas) {
        const bool serving = nowUnixMs >= replica.workload.startedUnixMs + replica.coldStartMs;
        ReplicaSignals signals;
        signals.replicaId = id;
        signals.service = replica.workload.service;
        if (serving) {
            if (const auto it = m_replicaSignals.find(id); it != m_replicaSignals.end())
                signals = it->second;
        }
        // Loading weights keeps a card a little busy; serving, as busy as its batch is full.
        const double load = !serving ? 0.1 : 0.3 + 0.65 * signals.kvCacheUsedRatio.value_or(0.6);
        for (uint32_t card : replica.workload.cardIndices)
            replicaLoad[card] = load;
        out.replicas.push_back(std::move(signals));
    }
    return replicaLoad;
}

void SimCollector::injectFault(const SimFault &fault)
{
    std::lock_guard lock(m_mutex);
    m_faults.push_back(fault);
}

int SimCollector::clearFaults()
{
    std::lock_guard lock(m_mutex);
    const int cleared = static_cast<int>(m_faults.size());
    m_faults.clear();
    for (CardState &card : m_cards)
        card.fallenOff = false;  // as after the node's reboot
    return cleared;
}

std::vector<FaultKind> SimCollector::activeFaults() const
{
    std::lock_guard lock(m_mutex);
    std::vector<FaultKind> kinds;
    for (const SimFault &f : m_faults)
        kinds.push_back(f.kind);
    return kinds;
}

void SimCollector::setColdStarts(std::map<std::string, double> secondsByService)
{
    std::lock_guard lock(m_mutex);
    m_coldStartSeconds = std::move(secondsByService);
}

Status SimCollector::startReplica(const Workload &workload)
{
    std::lock_guard lock(m_mutex);
    Replica replica;
    replica.workload = workload;
    // Cold start: loading weights and warming up; the service's declared time, give or
    // take a quarter, else 30-180 s.
    const double r = noise(workload.startedUnixMs, 7);
    const auto declared = m_coldStartSeconds.find(workload.service);
    replica.coldStartMs = declared != m_coldStartSeconds.end()
                              ? static_cast<int64_t>(declared->second * (750 + 500 * r))
                              : 30'000 + static_cast<int64_t>(r * 150'000);
    m_replicas[workload.replicaId] = std::move(replica);
    return {};
}

Status SimCollector::stopReplica(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    if (it == m_replicas.end())
        return {};
    const auto drain = m_drainSeconds.find(it->second.workload.service);
    if (drain == m_drainSeconds.end() || drain->second <= 0)
        m_replicas.erase(it);
    else if (it->second.drainsUntilMs < 0)
        it->second.drainsUntilMs = m_lastSampleMs + static_cast<int64_t>(drain->second * 1000);
    return {};
}

bool SimCollector::replicaDraining(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    return it != m_replicas.end() && it->second.drainsUntilMs > m_lastSampleMs;
}

void SimCollector::setDrains(std::map<std::string, double> secondsByService)
{
    std::lock_guard lock(m_mutex);
    m_drainSeconds = std::move(secondsByService);
}

std::vector<SimCollector::ReplicaOnNode> SimCollector::replicasAt(int64_t nowUnixMs) const
{
    std::lock_guard lock(m_mutex);
    std::vector<ReplicaOnNode> out;
    for (const auto &[id, replica] : m_replicas) {
        const std::vector<uint32_t> &cards = replica.workload.cardIndices;
        const std::string model = !cards.empty() && cards.front() < m_cards.size()
                                      ? m_cards[cards.front()].info.model
                                      : std::string();
        out.push_back({id, replica.workload.service, model,
                       nowUnixMs >= replica.workload.startedUnixMs + replica.coldStartMs});
    }
    return out;
}

void SimCollector::setReplicaSignals(std::map<std::string, ReplicaSignals> signals)
{
    std::lock_guard lock(m_mutex);
    m_replicaSignals = std::move(signals);
}

bool SimCollector::replicaServing(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    return it != m_replicas.end() &&
           m_lastSampleMs >= it->second.workload.startedUnixMs + it->second.coldStartMs;
}

}  // namespace meridian
