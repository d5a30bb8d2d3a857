#include "fleetstate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

namespace meridian {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr size_t kEventsKept = 20'000;
constexpr int kStaleIntervals = 3;

// Readings outside what hardware can report are garbage from a broken agent: shown as
// "no reading", never as a number that would colour a card or skew an average.
float sane(const std::optional<double> &value, double low, double high)
{
    if (!value || !std::isfinite(*value) || *value < low || *value > high)
        return kNaN;
    return static_cast<float>(*value);
}

// A replica's signals from a broken agent: impossible numbers become absent.
ReplicaSignals saneReplica(ReplicaSignals r)
{
    const auto dropUnlessWithin = [](std::optional<double> &v, double high) {
        if (v && (!std::isfinite(*v) || *v < 0 || *v > high))
            v.reset();
    };
    dropUnlessWithin(r.kvCacheUsedRatio, 1.0);
    dropUnlessWithin(r.tokensPerSecond, 1e7);
    dropUnlessWithin(r.ttftP50Seconds, 86'400);
    dropUnlessWithin(r.ttftP95Seconds, 86'400);
    dropUnlessWithin(r.queueDelayP95Seconds, 86'400);
    dropUnlessWithin(r.e2eP95Seconds, 86'400);
    dropUnlessWithin(r.requestsPerSecond, 1e6);
    if (r.replicaId.size() > 256)
        r.replicaId.resize(256);
    if (r.service.size() > 256)
        r.service.resize(256);
    return r;
}

// A NIC's rates from a broken agent: impossible ones become absent, never a colour.
NicSample saneNic(NicSample s)
{
    const auto dropImpossible = [](std::optional<double> &v) {
        if (v && (!std::isfinite(*v) || *v < 0 || *v > 1e13))
            v.reset();
    };
    dropImpossible(s.rxBytesPerSecond);
    dropImpossible(s.txBytesPerSecond);
    dropImpossible(s.ecnMarkedPerSecond);
    dropImpossible(s.cnpSentPerSecond);
    dropImpossible(s.cnpHandledPerSecond);
    for (auto &r : s.rxPausePerSecond)
        dropImpossible(r);
    for (auto &r : s.txPausePerSecond)
        dropImpossible(r);
    return s;
}

constexpr size_t kReplicasPerNodeKept = 64;
constexpr size_t kNicsPerNodeKept = 64;
constexpr int64_t kLinkDropWindowMs = 10 * 60'000;
constexpr size_t kDropsThatAreAFault = 2;

// A card's fault bits with its throttling as a reading with reasons says it is now.
uint8_t throttleFaults(uint8_t faults, const std::vector<ThrottleReason> &reasons)
{
    const auto has = [&](ThrottleReason r) {
        return std::find(reasons.begin(), reasons.end(), r) != reasons.end();
    };
    faults &= static_cast<uint8_t>(~(kFaultThermal | kFaultThrottled));
    if (has(ThrottleReason::SwThermal) || has(ThrottleReason::HwThermal))
        faults |= kFaultThermal;
    else if (has(ThrottleReason::HwSlowdown) || has(ThrottleReason::HwPowerBrake))
        faults |= kFaultThrottled;
    return faults;
}
constexpr int64_t kNicHistoryStepMs = 5000;
constexpr size_t kNicHistoryPoints = 180;  // 15 minutes

}  // namespace

bool FleetSnapshot::nodeStale(NodeHandle node) const
{
    const int64_t last = nodeLastSeenMs[node];
    return last == 0 || takenUnixMs - last > kStaleIntervals * nodeIntervalMs[node];
}

NodeStatus FleetSnapshot::nodeStatus(NodeHandle node) const
{
    if (nodeConnection[node] == ConnectionState::Unreachable)
        return NodeStatus::Unreachable;
    if (nodeLastSeenMs[node] == 0)
        return NodeStatus::Connecting;
    return nodeStale(node) ? NodeStatus::Stale : NodeStatus::Live;
}

namespace {
constexpr std::string_view kStorePrefix = "prometheus:";
}

std::string storeNodeAddress(const std::string &host)
{
    return std::string(kStorePrefix) + host;
}

bool isStoreNodeAddress(const std::string &address)
{
    return address.rfind(kStorePrefix, 0) == 0;
}

NodeHandle FleetState::addNode(const std::string &address, const std::string &dataCenter,
                               const std::string &hint)
{
    std::lock_guard lock(m_mutex);
    m_layout.nodeAddress.push_back(address);
    m_layout.nodeDataCenter.push_back(dataCenter);
    m_layout.nodeId.emplace_back();
    m_layout.nodeHint.push_back(hint);
    m_layout.nodeRack.emplace_back();
    m_layout.nodeHostname.emplace_back();
    m_layout.nodeCards.emplace_back();
    m_nodes.emplace_back();
    m_layoutChanged = true;
    return static_cast<NodeHandle>(m_nodes.size() - 1);
}

void FleetState::addCardLocked(CardHandle card)
{
    m_layout.cardNode.resize(card + 1);
    m_layout.cardIndex.resize(card + 1);
    m_layout.cardVendor.resize(card + 1);
    m_layout.cardModel.resize(card + 1);
    m_layout.cardUuid.resize(card + 1);
    m_readings.utilization.push_back(kNaN);
    m_readings.memoryPercent.push_back(kNaN);
    m_readings.temperature.push_back(kNaN);
    m_readings.power.push_back(kNaN);
    m_readings.errors.push_back(0);
    m_readings.cardFaults.push_back(0);
    m_readings.cardLastSeenMs.push_back(0);
    m_history.emplace_back();
}

void FleetState::storeNicsLocked(Node &node, const std::vector<NicInfo> &nics,
                                 int64_t receivedUnixMs)
{
    const size_t kept = std::min(nics.size(), kNicsPerNodeKept);
    node.nics = std::make_shared<const std::vector<NicInfo>>(
        nics.begin(), nics.begin() + static_cast<long>(kept));
    for (size_t i = 0; i < kept; ++i) {
        if (nics[i].neighbor)
            node.lastNeighbor[nics[i].netdev] = {*nics[i].neighbor, receivedUnixMs};
    }
}

void FleetState::updateNics(NodeHandle handle, const std::vector<NicInfo> &nics,
                            int64_t receivedUnixMs)
{
    std::lock_guard lock(m_mutex);
    storeNicsLocked(m_nodes.at(handle), nics, receivedUnixMs);
}

void FleetState::setInventory(NodeHandle handle, const NodeInventory &inventory, int64_t intervalMs,
                              int64_t receivedUnixMs)
{
    std::lock_guard lock(m_mutex);
    FleetLayout &l = m_layout;
    l.nodeId.at(handle) = inventory.nodeId;
    l.nodeRack[handle] = inventory.rack;
    l.nodeHostname[handle] = inventory.hostname;
    m_nodes[handle].intervalMs = intervalMs;
    storeNicsLocked(m_nodes[handle], inventory.nics, receivedUnixMs);
    std::vector<CardHandle> &cards = l.nodeCards[handle];
    cards.assign(inventory.cards.size(), 0);
    for (size_t i = 0; i < inventory.cards.size(); ++i) {
        const CardInfo &info = inventory.cards[i];
        auto [it, added] = m_byUuid.try_emplace(info.uuid, static_cast<CardHandle>(l.cardCount()));
        if (added)
            addCardLocked(it->second);
        const CardHandle card = it->second;
        l.cardNode[card] = handle;
        l.cardIndex[card] = info.index;
        l.cardVendor[card] = info.vendor;
        l.cardModel[card] = info.model;
        l.cardUuid[card] = info.uuid;
        m_history[card].setCapacity(
            static_cast<int>((15 * 60 * 1000 + std::max<int64_t>(intervalMs, 1) - 1) /
                             std::max<int64_t>(intervalMs, 1)));
        cards[i] = card;
    }
    m_layoutChanged = true;
}

void FleetState::recordTelemetry(NodeHandle handle, const TelemetrySample &sample,
                                 int64_t receivedUnixMs)
{
    std::lock_guard lock(m_mutex);
    Node &node = m_nodes.at(handle);
    ++m_batches;
    node.lastSeenMs = receivedUnixMs;
    node.connection = ConnectionState::Connected;
    node.error.clear();
    node.replicas.clear();
    for (size_t i = 0; i < sample.replicas.size() && i < kReplicasPerNodeKept; ++i)
        node.replicas.push_back(saneReplica(sample.replicas[i]));
    recordNicsLocked(node, sample.nics, receivedUnixMs);
    recordCardsLocked(handle, sample, receivedUnixMs);
}

void FleetState::recordNicsLocked(Node &node, const std::vector<NicSample> &nics,
                                  int64_t receivedUnixMs)
{
    // A link-down counter that rose since the last sample is a drop (unless it restarted).
    for (size_t i = 0; i < nics.size() && i < kNicsPerNodeKept; ++i) {
        const NicSample &now = nics[i];
        for (const NicSample &before : node.nicSamples) {
            if (before.counters.netdev == now.counters.netdev && before.counters.linkDownEvents &&
                now.counters.linkDownEvents &&
                *now.counters.linkDownEvents > *before.counters.linkDownEvents &&
                !now.countersReset)
                node.linkDrops[now.counters.netdev].push_back(receivedUnixMs);
        }
    }
    for (auto &[netdev, drops] : node.linkDrops) {
        while (!drops.empty() && receivedUnixMs - drops.front() > kLinkDropWindowMs)
            drops.pop_front();
    }
    node.nicSamples.clear();
    for (size_t i = 0; i < nics.size() && i < kNicsPerNodeKept; ++i)
        node.nicSamples.push_back(saneNic(nics[i]));
    if (receivedUnixMs - node.nicHistoryMs < kNicHistoryStepMs)
        return;
    node.nicHistoryMs = receivedUnixMs;
    const auto value = [](const std::optional<double> &v, double scale) {
        return v ? static_cast<float>(*v * scale) : std::numeric_limits<float>::quiet_NaN();
    };
    for (const NicSample &n : node.nicSamples) {
        double pfc = 0;
        for (int p = 0; p < kPfcPriorities; ++p)
            pfc += n.rxPausePerSecond[p].value_or(0) + n.txPausePerSecond[p].value_or(0);
        auto &ring = node.nicHistory[n.counters.netdev];
        ring.push_back(
            {receivedUnixMs, value(n.rxBytesPerSecond, 8), value(n.txBytesPerSecond, 8),
             static_cast<float>(pfc),
             static_cast<float>(n.ecnMarkedPerSecond.value_or(0) + n.cnpSentPerSecond.value_or(0) +
                                n.cnpHandledPerSecond.value_or(0))});
        while (ring.size() > kNicHistoryPoints)
            ring.pop_front();
    }
}

void FleetState::recordCardsLocked(NodeHandle handle, const TelemetrySample &sample,
                                   int64_t receivedUnixMs)
{
    const std::vector<CardHandle> &cards = m_layout.nodeCards[handle];
    FleetSnapshot &r = m_readings;
    for (const CardSample &s : sample.cards) {
        if (s.index >= cards.size())
            continue;  // a card the inventory did not name: ignore rather than guess
        const CardHandle card = cards[s.index];
        r.utilization[card] = sane(s.utilizationPercent, 0, 100);
        float memory = kNaN;
        if (s.memoryUsedBytes && s.memoryTotalBytes && *s.memoryTotalBytes > 0 &&
            *s.memoryUsedBytes <= *s.memoryTotalBytes) {
            memory = static_cast<float>(100.0 * static_cast<double>(*s.memoryUsedBytes) /
                                        static_cast<double>(*s.memoryTotalBytes));
        }
        r.memoryPercent[card] = memory;
        r.temperature[card] = sane(s.temperatureCelsius, -40, 150);
        r.power[card] = sane(s.powerWatts, 0, 5000);
        r.cardLastSeenMs[card] = receivedUnixMs;
        if (s.throttleReasons)  // absent: the collector cannot tell, so keep what we knew
            r.cardFaults[card] = throttleFaults(r.cardFaults[card], *s.throttleReasons);
        if (m_keepsCardHistory)
            m_history[card].append(
                sample.sampleTimeUnixMs ? sample.sampleTimeUnixMs : receivedUnixMs,
                r.utilization[card], memory, r.temperature[card], r.power[card]);
    }
}

void FleetState::recordEvent(NodeHandle handle, const Event &event)
{
    std::lock_guard lock(m_mutex);
    Node &node = m_nodes.at(handle);
    if (event.kind != EventKind::Gap)
        node.lastEventSequence = std::max(node.lastEventSequence, event.sequence);
    else if (event.gapLast)
        node.lastEventSequence = std::max(node.lastEventSequence, *event.gapLast);
    const std::vector<CardHandle> &cards = m_layout.nodeCards[handle];
    if (event.cardIndex && *event.cardIndex < cards.size())
        recordCardEventLocked(cards[*event.cardIndex], event.kind);
    recordLinkEventLocked(node, event);
    m_events.push_back({handle, event});
    ++m_eventCounter;
    while (m_events.size() > kEventsKept)
        m_events.pop_front();
}

void FleetState::recordCardEventLocked(CardHandle card, EventKind kind)
{
    uint8_t &faults = m_readings.cardFaults[card];
    switch (kind) {
    case EventKind::Xid:
        ++m_readings.errors[card];
        faults |= kFaultXid;
        break;
    case EventKind::EccUncorrected:
        ++m_readings.errors[card];
        faults |= kFaultEccUncorrected;
        break;
    case EventKind::ThermalThrottle: faults |= kFaultThermal; break;
    case EventKind::ThermalThrottleCleared: faults &= static_cast<uint8_t>(~kFaultThermal); break;
    default: break;
    }
}

void FleetState::recordLinkEventLocked(Node &node, const Event &event)
{
    switch (event.kind) {
    case EventKind::LinkDown:
        if (node.linksDown.size() < kNicsPerNodeKept || node.linksDown.count(event.netdev))
            node.linksDown.try_emplace(event.netdev, event.timeUnixMs);
        break;
    case EventKind::LinkUp: node.linksDown.erase(event.netdev); break;
    case EventKind::LinkFlap: node.lastFlapMs = std::max(node.lastFlapMs, event.timeUnixMs); break;
    default: break;
    }
}

void FleetState::setConnection(NodeHandle handle, ConnectionState state, const std::string &error)
{
    std::lock_guard lock(m_mutex);
    Node &node = m_nodes.at(handle);
    node.connection = state;
    node.error = error;
}

uint64_t FleetState::lastEventSequence(NodeHandle handle) const
{
    std::lock_guard lock(m_mutex);
    return m_nodes.at(handle).lastEventSequence;
}

FleetSnapshot FleetState::snapshot(int64_t nowUnixMs) const
{
    std::lock_guard lock(m_mutex);
    if (m_layoutChanged || !m_published) {
        auto layout = std::make_shared<FleetLayout>(m_layout);
        layout->generation = m_published ? m_published->generation + 1 : 1;
        m_published = std::move(layout);
        m_layoutChanged = false;
    }
    FleetSnapshot s = m_readings;
    s.takenUnixMs = nowUnixMs;
    s.layout = m_published;
    s.nodeConnection.reserve(m_nodes.size());
    for (const Node &node : m_nodes) {
        s.nodeConnection.push_back(node.connection);
        s.nodeError.push_back(node.error);
        s.nodeLastSeenMs.push_back(node.lastSeenMs);
        s.nodeIntervalMs.push_back(node.intervalMs);
        s.nodeLinkFault.push_back(linkFaulty(node, nowUnixMs));
    }
    return s;
}

std::vector<Event> FleetState::recentEvents(NodeHandle node, size_t limit) const
{
    std::lock_guard lock(m_mutex);
    std::vector<Event> out;
    for (auto it = m_events.rbegin(); it != m_events.rend() && out.size() < limit; ++it) {
        if (it->node == node)
            out.push_back(it->event);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<ReplicaReading> FleetState::replicaReadings(int64_t nowUnixMs) const
{
    std::lock_guard lock(m_mutex);
    std::vector<ReplicaReading> out;
    for (size_t handle = 0; handle < m_nodes.size(); ++handle) {
        const Node &node = m_nodes[handle];
        if (node.replicas.empty() ||
            nowUnixMs - node.lastSeenMs > kStaleIntervals * node.intervalMs)
            continue;
        for (const ReplicaSignals &signals : node.replicas)
            out.push_back({m_layout.nodeId[handle], m_layout.nodeDataCenter[handle],
                           m_layout.nodeAddress[handle], node.lastSeenMs, signals});
    }
    return out;
}

bool FleetState::linkFaulty(const Node &node, int64_t nowUnixMs)
{
    if (!node.linksDown.empty() ||
        (node.lastFlapMs > 0 && nowUnixMs - node.lastFlapMs <= kLinkDropWindowMs))
        return true;
    for (const auto &[netdev, drops] : node.linkDrops) {
        const auto recent = std::count_if(drops.begin(), drops.end(), [&](int64_t at) {
            return nowUnixMs - at <= kLinkDropWindowMs;
        });
        if (static_cast<size_t>(recent) >= kDropsThatAreAFault)
            return true;
    }
    return false;
}

std::vector<NicInfo> FleetState::nicsOf(NodeHandle handle) const
{
    std::lock_guard lock(m_mutex);
    if (handle >= m_nodes.size() || !m_nodes[handle].nics)
        return {};
    const Node &node = m_nodes[handle];
    std::vector<NicInfo> nics = *node.nics;
    for (NicInfo &nic : nics) {
        if (const auto it = node.lastNeighbor.find(nic.netdev);
            !nic.neighbor && it != node.lastNeighbor.end())
            nic.neighbor = it->second.first;
    }
    return nics;
}

std::vector<HostNic> FleetState::hostNics(int64_t nowUnixMs) const
{
    // Under the lock only what is cheap to take; the copies are made after, so ingest
    // never waits on a fabric view.
    struct Taken {
        std::string nodeId;
        std::string dataCenter;
        std::shared_ptr<const std::vector<NicInfo>> nics;
        std::vector<NicSample> samples;
        std::map<std::string, int> drops;
        std::map<std::string, std::pair<LldpNeighbor, int64_t>> neighbors;
    };
    std::vector<Taken> taken;
    {
        std::lock_guard lock(m_mutex);
        taken.reserve(m_nodes.size());
        for (size_t handle = 0; handle < m_nodes.size(); ++handle) {
            const Node &node = m_nodes[handle];
            if (!node.nics || node.nics->empty())
                continue;
            Taken t{m_layout.nodeId[handle],
                    m_layout.nodeDataCenter[handle],
                    node.nics,
                    node.nicSamples,
                    {},
                    node.lastNeighbor};
            for (const auto &[netdev, times] : node.linkDrops) {
                for (int64_t at : times)
                    t.drops[netdev] += nowUnixMs - at <= kLinkDropWindowMs;
            }
            taken.push_back(std::move(t));
        }
    }
    std::vector<HostNic> out;
    for (Taken &t : taken) {
        for (const NicInfo &nic : *t.nics) {
            HostNic h;
            h.nodeId = t.nodeId;
            h.dataCenter = t.dataCenter;
            h.nic = nic;
            for (NicSample &s : t.samples) {
                if (s.counters.netdev == nic.netdev)
                    h.sample = s;
            }
            // When its LLDP last named the neighbour; one it no longer names is kept as
            // last seen, so the fabric can say it went stale.
            if (const auto it = t.neighbors.find(nic.netdev); it != t.neighbors.end()) {
                if (!h.nic.neighbor)
                    h.nic.neighbor = it->second.first;
                h.neighborSeenMs = it->second.second;
            }
            if (const auto it = t.drops.find(nic.netdev); it != t.drops.end())
                h.recentLinkDrops = it->second;
            out.push_back(std::move(h));
        }
    }
    return out;
}

std::vector<NicPoint> FleetState::nicHistory(const std::string &nodeId,
                                             const std::string &netdev) const
{
    std::lock_guard lock(m_mutex);
    for (size_t handle = 0; handle < m_nodes.size(); ++handle) {
        if (m_layout.nodeId[handle] != nodeId)
            continue;
        const auto it = m_nodes[handle].nicHistory.find(netdev);
        if (it != m_nodes[handle].nicHistory.end())
            return {it->second.begin(), it->second.end()};
    }
    return {};
}

uint64_t FleetState::telemetryBatches() const
{
    std::lock_guard lock(m_mutex);
    return m_batches;
}

std::vector<HistoryPoint> FleetState::history(CardHandle card, CardMetric metric) const
{
    std::lock_guard lock(m_mutex);
    if (card >= m_history.size())
        return {};
    return m_history[card].series(metric);
}

std::vector<FleetEvent> FleetState::eventsSince(uint64_t afterCounter, uint64_t *newCounter) const
{
    std::lock_guard lock(m_mutex);
    *newCounter = m_eventCounter;
    const uint64_t first = m_eventCounter - m_events.size();  // counter of m_events.front()
    std::vector<FleetEvent> out;
    for (uint64_t i = std::max(afterCounter, first); i < m_eventCounter; ++i)
        out.push_back(m_events[i - first]);
    return out;
}

}  // namespace meridian
