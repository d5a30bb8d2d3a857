#include "fleetstate.h"

#include <cmath>
#include <limits>

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

}  // namespace

bool FleetSnapshot::nodeStale(NodeHandle node) const
{
    const int64_t last = nodeLastSeenMs[node];
    return last == 0 || takenUnixMs - last > kStaleIntervals * nodeIntervalMs[node];
}

NodeHandle FleetState::addNode(const std::string &address, const std::string &dataCenter)
{
    std::lock_guard lock(m_mutex);
    Node node;
    node.address = address;
    node.dataCenter = dataCenter;
    m_nodes.push_back(std::move(node));
    return static_cast<NodeHandle>(m_nodes.size() - 1);
}

void FleetState::setInventory(NodeHandle handle, const NodeInventory &inventory, int64_t intervalMs)
{
    std::lock_guard lock(m_mutex);
    Node &node = m_nodes.at(handle);
    node.nodeId = inventory.nodeId;
    node.rack = inventory.rack;
    node.hostname = inventory.hostname;
    node.intervalMs = intervalMs;
    node.cards.assign(inventory.cards.size(), 0);
    FleetSnapshot &c = m_cards;
    for (size_t i = 0; i < inventory.cards.size(); ++i) {
        const CardInfo &info = inventory.cards[i];
        const auto known = m_byUuid.find(info.uuid);
        CardHandle card;
        if (known != m_byUuid.end()) {
            card = known->second;
        } else {
            card = static_cast<CardHandle>(c.cardNode.size());
            m_byUuid.emplace(info.uuid, card);
            c.cardNode.push_back(handle);
            c.cardIndex.push_back(0);
            c.cardVendor.push_back(Vendor::Unknown);
            c.cardModel.emplace_back();
            c.cardUuid.push_back(info.uuid);
            c.utilization.push_back(kNaN);
            c.memoryPercent.push_back(kNaN);
            c.temperature.push_back(kNaN);
            c.power.push_back(kNaN);
            c.errors.push_back(0);
            c.cardLastSeenMs.push_back(0);
            m_history.emplace_back();
        }
        c.cardNode[card] = handle;
        c.cardIndex[card] = info.index;
        c.cardVendor[card] = info.vendor;
        c.cardModel[card] = info.model;
        node.cards[i] = card;
    }
}

void FleetState::recordTelemetry(NodeHandle handle, const TelemetrySample &sample,
                                 int64_t receivedUnixMs)
{
    std::lock_guard lock(m_mutex);
    Node &node = m_nodes.at(handle);
    node.lastSeenMs = receivedUnixMs;
    node.connection = ConnectionState::Connected;
    node.error.clear();
    FleetSnapshot &c = m_cards;
    for (const CardSample &s : sample.cards) {
        if (s.index >= node.cards.size())
            continue;  // a card the inventory did not name: ignore rather than guess
        const CardHandle card = node.cards[s.index];
        c.utilization[card] = sane(s.utilizationPercent, 0, 100);
        float memory = kNaN;
        if (s.memoryUsedBytes && s.memoryTotalBytes && *s.memoryTotalBytes > 0 &&
            *s.memoryUsedBytes <= *s.memoryTotalBytes) {
            memory = static_cast<float>(100.0 * static_cast<double>(*s.memoryUsedBytes) /
                                        static_cast<double>(*s.memoryTotalBytes));
        }
        c.memoryPercent[card] = memory;
        c.temperature[card] = sane(s.temperatureCelsius, -40, 150);
        c.power[card] = sane(s.powerWatts, 0, 5000);
        c.cardLastSeenMs[card] = receivedUnixMs;
        m_history[card].append(sample.sampleTimeUnixMs ? sample.sampleTimeUnixMs : receivedUnixMs,
                               c.utilization[card], memory, c.temperature[card], c.power[card]);
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
    if ((event.kind == EventKind::Xid || event.kind == EventKind::EccUncorrected) &&
        event.cardIndex && *event.cardIndex < node.cards.size()) {
        ++m_cards.errors[node.cards[*event.cardIndex]];
    }
    m_events.push_back({handle, event});
    ++m_eventCounter;
    while (m_events.size() > kEventsKept)
        m_events.pop_front();
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
    FleetSnapshot s = m_cards;
    s.takenUnixMs = nowUnixMs;
    const size_t n = m_nodes.size();
    s.nodeAddress.reserve(n);
    for (const Node &node : m_nodes) {
        s.nodeAddress.push_back(node.address);
        s.nodeId.push_back(node.nodeId);
        s.nodeDataCenter.push_back(node.dataCenter);
        s.nodeRack.push_back(node.rack);
        s.nodeHostname.push_back(node.hostname);
        s.nodeConnection.push_back(node.connection);
        s.nodeError.push_back(node.error);
        s.nodeLastSeenMs.push_back(node.lastSeenMs);
        s.nodeIntervalMs.push_back(node.intervalMs);
        s.nodeCards.push_back(node.cards);
    }
    return s;
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
