#include "cardhistory.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace meridian {

namespace {

constexpr uint8_t kAbsentU8 = 255;
constexpr int8_t kAbsentTemp = -127;
constexpr uint16_t kAbsentPower = 65535;
constexpr float kNoReading = std::numeric_limits<float>::quiet_NaN();

uint8_t halfPercent(float percent)
{
    if (!std::isfinite(percent) || percent < 0 || percent > 100)
        return kAbsentU8;
    return static_cast<uint8_t>(std::lround(percent * 2));
}

}  // namespace

void CardHistory::append(int64_t timeUnixMs, float utilization, float memoryPercent,
                         float temperature, float powerWatts)
{
    if (m_ring.empty()) {
        m_ring.reserve(static_cast<size_t>(m_capacity));
        m_baseUnixS = timeUnixMs / 1000;
    }
    // The ring grows to its capacity as points come, then wraps.
    if (static_cast<int>(m_ring.size()) < m_capacity)
        m_ring.emplace_back();
    Slot &slot = m_ring[m_head];
    slot.secondsFromBase = static_cast<int32_t>(timeUnixMs / 1000 - m_baseUnixS);
    slot.utilizationHalfPercent = halfPercent(utilization);
    slot.memoryHalfPercent = halfPercent(memoryPercent);
    slot.temperatureCelsius = std::isfinite(temperature) && temperature > -100 && temperature < 127
                                  ? static_cast<int8_t>(std::lround(temperature))
                                  : kAbsentTemp;
    slot.powerWatts = std::isfinite(powerWatts) && powerWatts >= 0 && powerWatts < 65535
                          ? static_cast<uint16_t>(std::lround(powerWatts))
                          : kAbsentPower;
    m_head = (m_head + 1) % m_capacity;
    m_size = std::min(m_size + 1, m_capacity);
}

void CardHistory::setCapacity(int slots)
{
    slots = std::clamp(slots, 1, kCapacity);
    if (slots == m_capacity)
        return;
    m_capacity = slots;
    m_ring = {};
    m_head = 0;
    m_size = 0;
}

std::vector<HistoryPoint> CardHistory::series(CardMetric metric) const
{
    std::vector<HistoryPoint> out;
    out.reserve(static_cast<size_t>(m_size));
    const int slots = static_cast<int>(m_ring.size());
    const int start = slots == 0 ? 0 : (m_head - m_size + slots) % slots;
    for (int i = 0; i < m_size; ++i) {
        const Slot &slot = m_ring[(start + i) % slots];
        float value = kNoReading;
        switch (metric) {
        case CardMetric::Utilization:
            if (slot.utilizationHalfPercent != kAbsentU8)
                value = slot.utilizationHalfPercent / 2.0f;
            break;
        case CardMetric::Memory:
            if (slot.memoryHalfPercent != kAbsentU8)
                value = slot.memoryHalfPercent / 2.0f;
            break;
        case CardMetric::Temperature:
            if (slot.temperatureCelsius != kAbsentTemp)
                value = slot.temperatureCelsius;
            break;
        case CardMetric::Power:
            if (slot.powerWatts != kAbsentPower)
                value = slot.powerWatts;
            break;
        }
        out.push_back({(m_baseUnixS + slot.secondsFromBase) * 1000, value});
    }
    return out;
}

}  // namespace meridian
