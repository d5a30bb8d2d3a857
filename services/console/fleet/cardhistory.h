// The last 15 minutes of one card at full rate, compactly: a ring of fixed-point
// samples (7 bytes each) so 6,000 cards keep 15 minutes in about 40 MB.
#pragma once

#include <cstdint>
#include <vector>

namespace meridian {

enum class CardMetric { Utilization, Memory, Temperature, Power };

struct HistoryPoint {
    int64_t timeUnixMs;
    float value;  // NaN where the card reported nothing
};

class CardHistory {
public:
    static constexpr int kCapacity = 900;  // 15 min at 1 Hz

    // Slots to keep: 15 minutes at the node's interval (a store scraped every 15 s needs
    // 60, not 900: at 100,000 cards that is 70 MB instead of a gigabyte). A change
    // forgets what was kept.
    void setCapacity(int slots);
    void append(int64_t timeUnixMs, float utilization, float memoryPercent, float temperature,
                float powerWatts);
    std::vector<HistoryPoint> series(CardMetric metric) const;
    int size() const { return m_size; }

private:
    struct Slot {
        int32_t secondsFromBase;         // relative to m_baseUnixS: 4 bytes instead of 8
        uint8_t utilizationHalfPercent;  // 0..200, 255 = absent
        uint8_t memoryHalfPercent;
        int8_t temperatureCelsius;  // -127 = absent
        uint16_t powerWatts;        // 65535 = absent
    };
    std::vector<Slot> m_ring;
    int64_t m_baseUnixS = 0;
    int m_capacity = kCapacity;
    int m_head = 0;  // next slot to write
    int m_size = 0;
};

}  // namespace meridian
